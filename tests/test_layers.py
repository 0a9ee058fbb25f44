"""The package's layers (README.md, *Layout*) hold: ``lint-imports`` checks the contracts of
``pyproject.toml`` (``[tool.importlinter]``) against the imports of ``src/dos``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def test_every_layer_imports_only_the_layers_below_it() -> None:
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout
