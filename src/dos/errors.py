"""The error kinds every rule set raises.

Two kinds, as python-chess has them: notation that cannot be read at all, and an action that
is well formed but not legal in the position. Both leave the game exactly as it was.
"""


class DosError(Exception):
    """Base class of every error this package raises on bad input."""


class NotationError(DosError, ValueError):
    """Text that is not valid notation, e.g. ``parse_action("R11@0")``."""


class IllegalActionError(DosError):
    """A well-formed action that the rules forbid here; the message names the rule.

    >>> str(IllegalActionError("RULES §3: Center Row card 1 was already matched this turn"))
    'RULES §3: Center Row card 1 was already matched this turn'
    """


class PositionError(DosError, ValueError):
    """A position or record that cannot be loaded; the message names the field."""


class RecordError(DosError, ValueError):
    """A game record that cannot be read or does not replay; the message names the line."""
