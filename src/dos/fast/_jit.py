"""The one place numba is imported: ``njit`` with the project's settings, typed for mypy.

Every compiled function of the fast core is ``njit``-decorated here: ``cache=True`` so that
compilation happens once per machine (the cache sits next to the sources, in
``__pycache__``), ``nogil=True`` so that batches may run on threads. The wrapper keeps the
decorated function's own signature for mypy, which numba's decorator does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def njit(function: F) -> F:
    """``function`` compiled by numba in nopython mode, cached on disk."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def njit_parallel(function: F) -> F:
    """Like ``njit``, with ``numba.prange`` loops run on all cores."""
    return cast(F, numba.njit(cache=True, nogil=True, parallel=True)(function))


prange = numba.prange
"""``range`` whose iterations an ``njit_parallel`` function spreads over the cores."""
