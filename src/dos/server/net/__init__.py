"""What every route and connection goes through: the connection guard, the limits per client,
the JSON error body, request bodies, cheap delivery of static files, the WebSocket as the
server reads it, and a client's connection with its outgoing queue."""
