"""The optional parts of the package and what installs them.

``pip install dos-game`` is the engine, the ``dos`` command and the game server. The
terminal client, Ray tournaments and plots, the fast core and the RL tools are extras
(``pyproject.toml``); a command that needs one says which to install.

>>> require("json", "tui", "dos play")  # present: nothing happens
>>> require("no_such_module_here", "tui", "dos play")
Traceback (most recent call last):
...
dos.extras.MissingExtraError: dos play needs no_such_module_here: pip install 'dos-game[tui]'
"""

from __future__ import annotations

import importlib.util


class MissingExtraError(ImportError):
    """An optional part that is not installed."""


def installed(module: str) -> bool:
    """Whether ``module`` can be imported."""
    return importlib.util.find_spec(module) is not None


def require(module: str, extra: str, what: str) -> None:
    """Raises ``MissingExtraError`` naming the extra to install when ``module`` is missing."""
    if not installed(module):
        raise MissingExtraError(f"{what} needs {module}: pip install 'dos-game[{extra}]'")
