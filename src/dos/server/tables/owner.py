"""The process that holds a table, as the table meets it: ``Owner``.

A table is given its owner as it is made (``dos.server.service`` builds it after claiming it:
``dos.server.hosting.ownership``): the fencing epoch its actions commit under, and whom to tell when
the database refuses that epoch (another process owns the table now) or when what the next
owner takes over may have changed (``dos.server.tables.handover``). A table made without one
(``NO_OWNER``: tools and tests) commits unfenced and tells nobody.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dos.server.tables.table import Table


def _nobody(table: Table) -> None:
    """Tells nobody."""


@dataclass(frozen=True, slots=True)
class Owner:
    """The process that holds a table (see the module's text)."""

    epoch: int | None = None
    """The fencing epoch its actions commit under (``dos.server.hosting.ownership.Claim``)."""
    fenced: Callable[[Table], None] = _nobody
    """Told when the database refused a commit for that epoch: another process owns it."""
    handover: Callable[[Table], None] = _nobody
    """Told whenever what the next owner takes over may have changed (``Table.handover``):
    a server of many writes it down (``dos.server.tables.handover_store``)."""


NO_OWNER = Owner()
"""No owner's word: unfenced, nobody told."""
