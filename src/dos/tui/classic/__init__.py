"""The classic rule set (RULES.md §9) in the terminal: beside the official game, not inside it.

* ``controller`` — a classic game against classic bots in real time, the reaction test on an
  injectable clock (``dos.rules.classic.ReactionTest``);
* ``words`` — cards, the log and refusals in the person's language (``classic.*`` texts);
* ``cards`` — how a classic card looks (colour, symbol and notation);
* ``present`` — the lines the classic table shows.

The screens are ``dos.tui.screens.classic``; the reaction test's play area is
``dos.tui.widgets.reaction``.
"""
