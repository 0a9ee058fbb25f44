"""The declarative base of every table of the database (the server's and the ratings'): one
metadata, which the migrations compare against (``dos/server/storage/migrations``).

>>> from dos.db.games import GameRow
>>> "dos_games" in Base.metadata.tables and GameRow.__table__.metadata is Base.metadata
True
"""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The declarative base of every table: the server's, the stored games and the ratings'."""
