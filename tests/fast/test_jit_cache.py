"""The fast core's disk cache rests on numba internals (``dos.fast._jit``): they are checked
here, and pinned in pyproject.toml, so that a numba release that changes them fails this test
instead of running stale compiled code.

numba keys its cache on the compiled function's own file. ``_jit`` registers a cache locator
(a private numba API: ``CacheImpl._locator_classes``) that stamps every entry with a hash of
every source the fast core's compiled code may inline. The behaviour that matters: after an
edit of another file of the core (a layout constant), a fresh process compiles anew rather
than loading the code compiled against the old constant.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

from numba.core import caching

from dos.fast import _jit, official_api

SOURCE = Path(__file__).parents[2] / "src" / "dos"

_CONSTANT = "LAYOUT_PROBE = {value}\n"
_USER = """
from dos.fast._jit import njit
from dos.fast.probe_constant import LAYOUT_PROBE


@njit
def probe() -> int:
    return LAYOUT_PROBE
"""


def test_the_package_locator_is_the_first_numba_asks() -> None:
    assert caching.CacheImpl._locator_classes[0] is _jit._PackageLocator
    assert issubclass(_jit._PackageLocator, caching.InTreeCacheLocator)


def test_a_compiled_function_of_the_package_is_stamped_with_every_core_source() -> None:
    function = official_api.over
    py_file = official_api.__file__
    locator = _jit._PackageLocator.from_function(function.py_func, py_file)
    assert locator is not None
    own = hashlib.sha256(Path(py_file).read_bytes()).hexdigest()
    assert locator.get_source_stamp() == (_jit._STAMP, own)
    fast = {path.name for path in _jit._SOURCES if path.parent.name == "fast"}
    assert fast == {path.name for path in (SOURCE / "fast").glob("*.py")}
    elsewhere = _jit._PackageLocator.from_function(function.py_func, __file__)
    assert elsewhere is None  # code outside the package keeps numba's own locators


def _run(root: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", "from dos.fast.probe_user import probe; print(probe())"],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=280,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_edit_of_another_core_file_compiles_anew(tmp_path: Path) -> None:
    copy = tmp_path / "dos"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "fast" / "probe_user.py").write_text(_USER, encoding="utf-8")
    constant = copy / "fast" / "probe_constant.py"
    constant.write_text(_CONSTANT.format(value=1), encoding="utf-8")
    assert _run(tmp_path) == "1"
    assert list((copy / "fast" / "__pycache__").glob("probe_user.probe-*.nbi"))  # cached
    constant.write_text(_CONSTANT.format(value=2), encoding="utf-8")
    assert _run(tmp_path) == "2"  # numba alone would load the entry compiled with 1
