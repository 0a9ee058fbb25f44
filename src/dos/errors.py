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

    ``reason`` says which refusal it is, as data (``already_matched``), and ``params`` its
    particulars (card numbers, seats, indexes): the one place a client's words for the
    refusal come from (``dos.i18n.explain``), so a message and its translation never differ.

    >>> error = IllegalActionError(
    ...     "RULES §3: Center Row card 1 was already matched this turn", "already_matched", index=1
    ... )
    >>> str(error), error.reason, error.params
    ('RULES §3: Center Row card 1 was already matched this turn', 'already_matched', {'index': 1})
    """

    def __init__(
        self, message: str, reason: str = "not_allowed", **params: int | tuple[int, ...]
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled across processes (tournaments) with its reason.
        return (_illegal, (str(self), self.reason, self.params))


def _illegal(
    message: str, reason: str, params: dict[str, int | tuple[int, ...]]
) -> IllegalActionError:
    return IllegalActionError(message, reason, **params)


class PositionError(DosError, ValueError):
    """A position or record that cannot be loaded; the message names the field."""


class RecordError(DosError, ValueError):
    """A game record that cannot be read or does not replay; the message names the line."""
