"""Tests of matchmaking's pure core (dos.matchmaking)."""
