"""DOS in the terminal (``dos play``): a full game against bots, in seven languages.

* ``controller`` — the game, the bots and the real-time DOS race, with an injectable clock;
* ``screens`` — the table, help, round summary, game over, replay;
* ``widgets`` — cards, the Center Row, the hand, the opponents, the log;
* ``app`` — the Textual application tying them together.

Every word on screen comes from the message catalog (``dos.i18n``: ``game.*`` and ``tui.*``).
"""
