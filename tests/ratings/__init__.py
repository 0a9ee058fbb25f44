"""Tests of the ratings (dos.ratings)."""
