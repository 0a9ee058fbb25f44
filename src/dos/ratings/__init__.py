"""Ratings: openskill (Plackett-Luce) ratings of everyone who plays rated games.

``ranks`` turns a game's result into finishing ranks (one function per rule set),
``model`` updates ratings from ranks, ``store`` keeps them in the server's database, and
``arena`` rates the bots of a tournament. See ``docs/ratings.md``.
"""
