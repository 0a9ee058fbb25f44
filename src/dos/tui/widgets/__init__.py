"""The terminal client's widgets: cards, the Center Row, the hand, opponents, the log."""
