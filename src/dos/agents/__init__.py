"""AI agents at the table: the canonical text of a seat's view, the agent service over the
server's own tables, the HTTP agent API and the MCP server (``docs/agents.md``).

Agents play through the same ``Table`` methods as the browser's WebSocket: the seat always
comes from a verified seat token, and every refusal is the server's own.
"""
