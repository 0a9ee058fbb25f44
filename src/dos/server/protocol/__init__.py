"""What goes over the wire, as typed models: the client's messages, the server's messages,
the HTTP bodies, the names and texts people type, the refusals; the JSON schemas of
docs/protocol.md (``schemas``) and the browser client's types (``typescript``) generated from
them."""
