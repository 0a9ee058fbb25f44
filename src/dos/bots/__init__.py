"""Bots: the common interface, reflexes, the official bots, and ``classic/`` for RULES.md §9."""
