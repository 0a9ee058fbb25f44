"""Matchmaking's pure core: who among the players waiting plays whom (``queue``)."""
