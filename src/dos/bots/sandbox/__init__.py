"""Bots by path in a process of their own (``docs/bots.md``, "Sandboxed bots").

A bot loaded from a file runs in the same interpreter as the game only when asked to
(``dos tournament --in-process``); otherwise ``dos tournament`` and ``dos ladder`` start it in a
child process and hand it, for each decision, only its seat's view as the agent API sends it
(``SeatView.to_json()``), and read back its action in notation. The child never sees the game's
state or its seed: its generator is the state of the seat's generator (derived one way from
the game's seed by the runner), sent once per game.

- ``dos.bots.sandbox.child``: the child's entry point (``python -m dos.bots.sandbox.child``),
  which loads the bot and answers views with actions.
- ``dos.bots.sandbox.process``: the child as seen from the game's process: start, send, a
  reply within a time limit, stop.
- ``dos.bots.sandbox.bot``: the sandbox's settings (``Sandbox``), the bot that plays a seat
  through a child (``SandboxedBot``) and ``ForfeitError``, raised for an exception, a crash, a reply
  over the time limit or an answer that is no action.
"""
