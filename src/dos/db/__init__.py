"""The database schema below the server and the ratings (SQLAlchemy 2).

- ``dos.db.base``: the declarative base, so one metadata holds every table.
- ``dos.db.games``: the stored games: tables, seats, games, who played them, their actions.

The server (``dos.server.storage.models``: accounts, passkeys, sign-outs) and the ratings
(``dos.ratings.store``) build their own tables on the same base and read the games from here,
so the ratings need nothing of the server. The schema is created and upgraded by the Alembic
migrations in ``dos/server/storage/migrations``.
"""
