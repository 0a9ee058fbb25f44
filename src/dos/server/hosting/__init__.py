"""What a server of many processes replaces (``dos.cluster`` implements each over Redis, in
the composition of ``dos.house``): which tables this process owns, where a request about a
table is served, the bus of a table's updates, and the job queue with its local pool."""
