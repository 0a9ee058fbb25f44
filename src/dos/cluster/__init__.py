"""The game server on many processes: the server's interfaces (``dos.server``: ownership,
routing, handovers, jobs, the bus) implemented over Redis, plugged in by ``dos.house`` for
``dos serve --redis``; and what ``dos bot-worker`` runs (``jobworker.JobWorker``). The
cluster depends on the server, never the reverse.

Each table has one owner process at a time. ``process_lease`` is each process's lease in
Redis (one key with expiry, kept by ``renewal``); ``lease`` holds each table's ownership as a
claim resting on its owner's process lease, and numbers each new owner with a fencing epoch;
``ownership`` records the epoch in the database (``dos.server.storage.fencing``), which then refuses
the actions of any former owner. ``node`` takes, keeps, loses and adopts a process's tables
(the server's ``Ownership`` and ``HandoverStore``); ``presence`` says which processes are up
and writes their tables' lobby entries; ``handovers`` keeps each owned table's clocks and
host's choices in Redis for its next owner.

``relay`` is the server's ``Routing``: ``routing`` finds a request's table and its owner,
``forwarding`` sends an HTTP request to the owner, ``relayed`` holds a WebSocket here and
relays it, ``owner_side`` serves what others forward (each relayed connection over a
``remote_socket``). They talk over ``bus`` (``RedisBus``, the contract of
``dos.server.hosting.bus``), in typed frames, one module per direction: ``to_owner``,
``from_owner``. ``jobqueue`` hands the bots' decisions, hints and reviews to ``jobworker``
processes.

``redis_access`` is how a process reaches its Redis: the URL of ``--redis`` or the
environment, its password from the environment or a file (never the command line), and the
checks at start (a wrong password, a Redis open to anyone, a Redis Cluster: refused).

docs/deployment.md ("Many processes") says how to run it and what is not built.
"""
