"""The database: one worker thread that owns every connection (``database``), the schema
and its Alembic migrations (``schema``, ``models``, ``migrations/``), the fencing epochs of
table owners (``fencing``) and the repository of tables, seats and games (``table_store``)."""
