"""Rule sets. Each one keeps all of its legality and transitions in its own package."""
