"""AI agents at the table: the canonical text of a seat's view, the agent service over the
server's seat API (``dos.server.seat_service``), the HTTP agent API and the MCP server
(``docs/agents.md``), mounted on the server's application from above it (``dos.house``).

Agents play through the same table methods as the browser's WebSocket: the seat always comes
from a verified seat token, and every refusal is the server's own.
"""
