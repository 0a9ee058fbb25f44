"""Tournaments for people on the server: kept in the database, paired by the pure formats of
``dos.tournaments``, played at normal tables (``docs/tournaments.md``).

``store`` reads and writes the rows; ``service`` runs a tournament (creates, joins, pairs,
feeds the tables' results); ``routes`` is ``/api/tournaments``; ``bodies`` its requests.
"""
