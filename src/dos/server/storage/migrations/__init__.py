"""Alembic migrations of the server's schema, run automatically when the server starts."""
