"""A table and its parts: ``table.Table`` keeps the lock, ``submit`` and the life cycle; the
game it plays (``current_game``, ``history``), its seats and who sits where (``seat``,
``seating``, ``audience``), the stand-ins of the away, the round pause, the clocks (turn timer,
reaction test), the handover to a next owner, the pages of its log, what it sends, its chat,
its bots and hints."""
