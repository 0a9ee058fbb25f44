"""The game server: tables, seats, bots, hidden hands, reconnection and persistence.

``dos serve`` runs it (``app.serve``). One concept per module: ``app`` (HTTP and WebSocket
endpoints), ``messages`` (the protocol, ``docs/protocol.md``), ``tables`` (a table's life
cycle and its game), ``service`` (all tables), ``views`` (what each connection may see),
``bots`` (bots on the server), ``timers``, ``connections``, ``auth`` (signed tokens),
``models`` and ``storage`` (the database), ``migrations`` (Alembic).
"""
