"""The server's routes, one module per resource: tables and their WebSocket conversation,
finished games and reviews, players and accounts, lessons, health, the browser client."""
