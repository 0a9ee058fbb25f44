"""Suite-wide settings: hypothesis profiles, and no silent skips in CI.

* ``dev`` (default): for local runs; each run draws new examples, so running the suite again
  keeps exploring.
* ``ci``: selected when the environment variable ``CI`` is ``true`` (``.ci/run`` sets it); the
  same number of examples, derandomized: every CI run tries the same examples (a function of
  each test), so CI's verdict on a commit never depends on a draw.

Under ``CI=true`` a skipped test counts as failed: a test that skips because something it
needs is missing must not pass CI unnoticed.

Both profiles turn the per-example deadline off: one example plays whole random games, whose
length varies a lot, so a deadline would only make the suite flaky. Pick a profile by hand
with ``pytest --hypothesis-profile=NAME``.
"""

from __future__ import annotations

import gc
import itertools
import os
import random
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from server.support import ServerProcess

settings.register_profile(
    "dev",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=100,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "dev")

collect_ignore = ["toy_rules.py"]
"""Not collected for doctests: importing ``toy_rules`` registers its rule set, which only the
tests that ask for it (``test_ruleset_registry.py``) may see."""


def pytest_report_header() -> str:
    from support import DEAL_SEED

    header = f"deal seed of the test servers: {DEAL_SEED} (DOS_TEST_DEAL_SEED={DEAL_SEED})"
    order = os.environ.get("DOS_TEST_ORDER_SEED")
    if order:
        header += f"; tests in the order of DOS_TEST_ORDER_SEED={order}"
    return header


class DoctestsOnlyWhereExamples:
    """A pytest plugin: the package's doctests (``--doctest-modules`` over ``src``) import only
    the modules that hold an example (``>>>``), so that collecting the suite does not import
    those without any (the RL learner's JAX and optax, say) in each of its processes."""

    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        if collection_path.suffix == ".py" and collection_path.is_relative_to(_SRC):
            return ">>>" not in collection_path.read_text(encoding="utf-8") or None
        return None


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(DoctestsOnlyWhereExamples(), "dos-doctests-where-examples")
    config.addinivalue_line(
        "markers",
        "mostly_waits: the module spends most of its time waiting on processes it started "
        "(servers killed and restarted, leases running out): run first, beside modules that "
        "compute",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules in the order ``make test``'s workers take them (``--dist loadscope
    --no-loadscope-reorder``: a worker takes the next module when it is almost done with its
    own). The cores are the suite's limit, so modules that mostly wait go beside modules that
    compute: first those marked ``mostly_waits`` (the longest), then the modules that use
    Chromium one after another (a worker keeps one Chromium open through them, and closes it
    before any other module), then the rest, whose many short modules even out the workers'
    ends, with the other modules of ``tests/cluster`` (whole server processes, which wait on
    them) spread evenly among them, and last the terminal client's tests and the doctests.

    ``DOS_TEST_ORDER_SEED=N`` runs the modules, and the tests of each module, in an order
    shuffled by N instead (``make flake-hunt``): a test that passes only after another one is
    found. A module's tests stay together, so its module-scoped servers are started once."""
    modules: dict[Path, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    groups = list(modules.values())
    order = os.environ.get("DOS_TEST_ORDER_SEED")
    if order:
        rng = random.Random(f"dos-test-order:{order}")
        rng.shuffle(groups)
        for group in groups:
            rng.shuffle(group)
    else:
        groups = _scheduled(groups)
    items[:] = [item for group in groups for item in group]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (the modules, the test items, hypothesis' strategies: most of a
    worker's objects, and all of them long-lived) is set out of the garbage collector's sight
    (``gc.freeze``), so that the collections the tests cause do not walk it again each time."""
    gc.collect()
    gc.freeze()


_CLUSTER = Path(__file__).parent / "cluster"
_SRC = Path(__file__).parent.parent / "src"
_LAST = (Path(__file__).parent / "tui", Path(__file__).parent.parent / "src")
"""Modules that compute, without servers to wait on: the suite's last."""


def _scheduled(groups: list[list[pytest.Item]]) -> list[list[pytest.Item]]:
    """``groups`` (one per module, in collection order) in the order of
    ``pytest_collection_modifyitems``."""
    first = [g for g in groups if g[0].get_closest_marker("mostly_waits") is not None]
    rest = [g for g in groups if g[0].get_closest_marker("mostly_waits") is None]
    cluster = [g for g in rest if g[0].path.is_relative_to(_CLUSTER)]
    browser = [
        g
        for g in rest
        if not g[0].path.is_relative_to(_CLUSTER)
        and any("browser" in item.fixturenames for item in g)
    ]
    placed = {id(g) for g in cluster + browser}
    others = [g for g in rest if id(g) not in placed]
    # The suite ends on modules that only compute (the terminal client's, the doctests), not
    # on three workers all waiting on their servers: the cluster's modules are spread among
    # the others before those. Cluster module i goes after the first (i + 1) / (n + 1) share.
    last = [g for g in others if any(g[0].path.is_relative_to(p) for p in _LAST)]
    others = [g for g in others if not any(g[0].path.is_relative_to(p) for p in _LAST)]
    spread: list[list[pytest.Item]] = []
    taken = 0
    for index, group in enumerate(cluster):
        upto = (index + 1) * len(others) // (len(cluster) + 1)
        spread += [*others[taken:upto], group]
        taken = upto
    return first + browser + spread + others[taken:] + last


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    in_ci = os.environ.get("CI", "").lower() == "true"
    if in_ci and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped, which CI=true does not allow: {report.longrepr}"


_LOOPBACK = itertools.count()


@pytest.fixture
def loopback() -> str:
    """A loopback address of this test's own to connect from, ``127.0.X.Y`` (the whole
    127.0.0.0/8 is the loopback, 127.0.0.1 left to the other tests): a server keys its
    per-client limits by the client's address, so on a server that tests share, this test
    is a fresh client whatever the others did."""
    number = next(_LOOPBACK)
    return f"127.0.{number // 250}.{number % 250 + 2}"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with SQLite in a fresh data folder, instant bots and a rate limit that
    instant test players never reach, shared by the server and agent tests (the browser tests
    have their own, ``tests/web/conftest.py``). ``DOS_SERVER_LOG=FILE`` keeps its output.

    A player who leaves gets a stand-in only after an hour: a game a test leaves behind waits
    for its person, still, instead of being played on by instant bots for as long as the
    session runs (and taking the other tests' processor). The tests of stand-ins use
    ``standin_server``."""
    from server.support import ServerProcess

    process = ServerProcess(tmp_path_factory.mktemp("data"), None, "--grace", "3600")
    process.start()
    yield process
    process.stop()
    log = os.environ.get("DOS_SERVER_LOG")
    if log:
        Path(log).write_text("".join(process.output), encoding="utf-8")


@pytest.fixture(scope="session")
def random_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server like ``server`` that deals at random: for the tests of rated tables, since a
    seeded server's games are never rated (``dos.server.deals``). Its tests must not depend
    on how a deal falls."""
    from server.support import ServerProcess, running

    data = tmp_path_factory.mktemp("random")
    with running(ServerProcess(data, None, "--grace", "3600", seeded=False)) as process:
        yield process


@pytest.fixture(scope="module")
def standin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of one module's own whose stand-ins play 0.2 s after their player left (the
    games it leaves behind play on, and stop with the module)."""
    from server.support import ServerProcess, running

    with running(ServerProcess(tmp_path_factory.mktemp("standins"), None, "--grace", "0.2")) as s:
        yield s
