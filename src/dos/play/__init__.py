"""Playing one game between bots: what a bot is, and the runners that seat and referee them.

- ``dos.play.bot``: the interface every bot implements (``Bot``, ``ClassicBot``, ``Budget``,
  ``BotError``, ``turn_choices``); bot writers import it as ``dos.bots.base``.
- ``dos.play.reflex``: DOS calls and catches as reflexes (``Reflex``; ``dos.bots.reflex``).
- ``dos.play.official``: one official game (``Player``, ``play_game``) and the DOS race's
  referee (``settle_dos_race``, ``DosReferee``).
- ``dos.play.classic``: one classic game (``ClassicPlayer``, ``play_game``).

This layer sits below the bots (which implement its interface) and the arena (which schedules
its games): it imports the rules and nothing of either.
"""
