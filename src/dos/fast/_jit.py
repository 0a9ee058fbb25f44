"""The one place numba is imported: ``njit`` with the project's settings, typed for mypy.

Every compiled function of the fast core is ``njit``-decorated here: ``cache=True`` so that
compilation happens once per machine (the cache sits next to the sources, in
``__pycache__``), ``nogil=True`` so that batches may run on threads. The wrapper keeps the
decorated function's own signature for mypy, which numba's decorator does not.

numba checks a cached function against its own source file only, yet compiled code inlines
its callees and the layout constants of other files: after an edit of ``state.py`` the cache
of ``official_api.py`` would run with the old layout. So the fast core's cache entries are
stamped with a hash of every source they may depend on (``_PackageLocator``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core import caching, errors, types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros

F = TypeVar("F", bound=Callable[..., Any])

_HERE = Path(__file__).resolve().parent
_SOURCES = [
    *sorted(_HERE.glob("*.py")),
    _HERE.parent / "cards.py",
    _HERE.parent / "rules" / "official" / "matching.py",
    _HERE.parent / "rules" / "classic" / "cards.py",
]
_STAMP = hashlib.sha256(b"".join(p.read_bytes() for p in _SOURCES if p.exists())).hexdigest()


class _PackageLocator(caching.InTreeCacheLocator):
    """numba's in-tree cache for compiled code anywhere in the ``dos`` package, stamped with
    the whole fast core's sources and the function's own file (code elsewhere, such as the RL
    environment, inlines the fast core's layout and functions too)."""

    def get_source_stamp(self) -> tuple[str, str]:
        own = Path(self._py_file).read_bytes()
        return _STAMP, hashlib.sha256(own).hexdigest()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not Path(py_file).resolve().is_relative_to(_HERE.parent):
            return None
        return super().from_function(py_func, py_file)  # type: ignore[no-untyped-call]


caching.CacheImpl._locator_classes.insert(0, _PackageLocator)


def njit(function: F) -> F:
    """``function`` compiled by numba in nopython mode, cached on disk."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def njit_parallel(function: F) -> F:
    """Like ``njit``, with ``numba.prange`` loops run on all cores."""
    return cast(F, numba.njit(cache=True, nogil=True, parallel=True)(function))


prange = numba.prange
"""``range`` whose iterations an ``njit_parallel`` function spreads over the cores."""


def _popcount(typingctx: Any, src: Any) -> Any:
    if not isinstance(src, types.Integer):
        raise errors.NumbaTypeError(f"popcount takes an integer, not {src}")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return src(src), codegen


popcount = cast(Callable[[int], int], intrinsic(_popcount))
"""The number of set bits of an integer, inside compiled code."""
lowest_bit = cast(Callable[[int], int], trailing_zeros)
"""The index of the lowest set bit of a non-zero integer, inside compiled code."""


def njit_inline(function: F) -> F:
    """``njit``, and inlined into every compiled caller (numba's ``inline="always"``): such a
    call costs no call and no reference counting of its array arguments, which weighs on the
    small functions called once per step."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))
