"""Tournaments for people, as pure functions over plain data: who plays whom and who leads.

Two formats (``docs/tournaments.md``):

- a **Swiss** of N rounds (``swiss``): each round seats every active player at a table of the
  chosen size, by points then rating, with as few repeated meetings as the field allows; the
  players left over when the count does not divide the table size get a bye;
- an **arena** (``arena``): a time window; whoever waits is seated again as soon as a table's
  worth of players is free, by score then rating.

Points by place and the streak bonus are ``scoring``; the standings with their tie-breaks
are ``standings``; the entrants and games both read are ``field``. Nothing here knows the
server, the database or the clock: time, ratings and blocks come in as arguments.
"""
