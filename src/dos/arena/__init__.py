"""The arena: games between bots, and tournaments that scale from one core to a Ray cluster."""
