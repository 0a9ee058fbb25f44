"""DOS calls and catches as reflexes (RULES.md §6), as bot writers import them
(``docs/bots.md``): ``Reflex`` is defined beside the runner that races it (``dos.play.reflex``).

>>> from dos.play.reflex import Reflex as Defined
>>> Reflex is Defined
True
"""

from __future__ import annotations

from dos.play.reflex import Reflex

__all__ = ["Reflex"]
