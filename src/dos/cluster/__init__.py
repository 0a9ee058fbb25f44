"""The game server on many processes: the foundations (tracker issue 26), not wired in yet.

Each table is to have one owner process at a time. ``lease`` holds that ownership in Redis
(a lease with expiry and renewal) and numbers each new owner with a fencing epoch;
``ownership`` records the epoch in the database (``dos.server.storage.claim_epoch``), which
then refuses the actions of any former owner. ``bus`` carries a table's updates from its
owner to the other processes, in order, and clients' messages from any process to the
owner (in process, or over Redis). docs/deployment.md says what is missing.
"""
