"""The terminal client's screens: the table, help, round summary, game over, replay."""
