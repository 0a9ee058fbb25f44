"""Matchmaking on the server ("Play people"): the queue kept in the database, its rounds of
matching, and its routes (``/api/queue``); the rules of who plays whom are
``dos.matchmaking.queue`` (``docs/matchmaking.md``)."""
