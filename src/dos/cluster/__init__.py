"""The game server on many processes: what ``dos serve --redis`` runs in each process (a
``node.Node`` and a ``relay.Relay``, set up by ``dos.server.app.create_app``) and what
``dos bot-worker`` runs (``jobworker.JobWorker``).

Each table has one owner process at a time. ``lease`` holds that ownership in Redis
(a lease with expiry and renewal) and numbers each new owner with a fencing epoch;
``ownership`` records the epoch in the database (``dos.server.storage.claim_epoch``), which
then refuses the actions of any former owner. ``node`` takes, keeps, loses and adopts a
process's tables; ``relay`` sends every request about a table to its owner, and relays
WebSocket connections, over the ``bus`` (``RedisBus`` between processes, ``LocalBus`` in one
process for tests); ``handovers`` keeps each owned table's clocks and host's choices in
Redis for its next owner; ``jobqueue`` hands the bots' decisions, hints and reviews to
``jobworker`` processes.
docs/deployment.md ("Many processes") says how to run it and what is not built.
"""
