"""The server installs light: the heavy parts (Ray, matplotlib, Textual, the fast core's and
RL tools' libraries) are extras, and what runs without them says which extra to install."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]
HEAVY = ("ray", "matplotlib", "textual", "numba", "gymnasium", "pettingzoo", "jax", "optax")

# Runs a script with the heavy modules made unimportable, as in a server-only install.
_BLOCKED = f"""
import importlib.abc, sys
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {HEAVY!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Blocked())
import importlib.util
_find = importlib.util.find_spec
def find_spec(name, package=None):
    if name.partition(".")[0] in {HEAVY!r}:
        return None
    return _find(name, package)
importlib.util.find_spec = find_spec
"""


def _run(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _BLOCKED + script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )


def test_the_base_install_names_none_of_the_heavy_parts() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = " ".join(project["dependencies"]).lower()
    for name in HEAVY:
        assert name not in base, name
    extras = " ".join(" ".join(v) for v in project["optional-dependencies"].values()).lower()
    for name in HEAVY:
        assert name in extras, name


def test_the_server_starts_without_the_extras(tmp_path: Path) -> None:
    done = _run(
        "from pathlib import Path\n"
        "from fastapi.testclient import TestClient\n"
        "from dos.server.app import ServerConfig, create_app\n"
        "app = create_app(ServerConfig(data=Path('data')))\n"
        "with TestClient(app) as client:\n"
        "    grant = client.post('/api/tables', json={'name': 'Ada'}).json()\n"
        "    print(client.get('/api/tables/' + grant['code']).json()['status'])\n",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "lobby"


def test_a_tournament_without_matplotlib_leaves_the_plot_out(tmp_path: Path) -> None:
    done = _run(
        "from dos.cli import main\n"
        "sys.exit(main(['tournament', '--bots', 'greedy,random', '--games', '2', "
        "'--out', 'out', '--seed', '1']))\n",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "games.csv",
        "tournament.json",
    ]


def test_a_ladder_with_an_output_folder_names_the_plots_extra(tmp_path: Path) -> None:
    done = _run(
        "from dos.cli import main\n"
        "sys.exit(main(['ladder', '--bots', 'greedy,random', '--games', '2', '--out', 'out']))\n",
        tmp_path,
    )
    assert done.returncode == 2
    assert "needs matplotlib: pip install 'dos-game[arena]'" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_command_that_needs_an_extra_names_it(tmp_path: Path) -> None:
    done = _run("from dos.cli import main\nsys.exit(main(['play']))\n", tmp_path)
    assert done.returncode == 2
    assert "pip install 'dos-game[tui]'" in done.stderr
