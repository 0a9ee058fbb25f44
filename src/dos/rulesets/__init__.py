"""The built-in rule sets' registry entries (``dos.ruleset.Entry``): official, then classic.

Imported by ``dos.ruleset`` on its first look-up; each module builds one entry whose
factories import their layer only when called.
"""

from __future__ import annotations

from dos import ruleset
from dos.rulesets.classic import CLASSIC
from dos.rulesets.official import OFFICIAL

for _entry in (OFFICIAL, CLASSIC):
    if ruleset.find(_entry.name) is None:
        ruleset.register(_entry)

__all__ = ["CLASSIC", "OFFICIAL"]
