"""Every backend plays the same games: this process, local processes and a local Ray cluster.

Decision times are wall-clock measurements, so the comparisons leave them out
(``PlayedGame.outcome`` and ``Summary.outcome``); everything else must be equal.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from dos.arena.backends import (
    Processes,
    RayBackend,
    Sequential,
    batches,
    make_backend,
    probe,
    split_address,
)
from dos.arena.played import PlayedGame, play
from dos.arena.schedule import GameSpec, TournamentError, make_schedule
from dos.arena.stats import summarize

BOTS = ["random", "easy"]


def small(players: int = 2, games: int = 8) -> list[GameSpec]:
    """A tiny tournament of quick games (random bots, a low target)."""
    return make_schedule(BOTS, players, games, seed=5, target_score=40)


def outcomes(games: list[PlayedGame]) -> list[tuple[object, ...]]:
    return [game.outcome() for game in games]


@pytest.fixture(scope="module")
def reference() -> list[PlayedGame]:
    return Sequential().run(small())


def test_sequential_plays_each_spec_in_order(reference: list[PlayedGame]) -> None:
    specs = small()
    assert [game.index for game in reference] == list(range(len(specs)))
    assert outcomes(reference) == outcomes([play(spec) for spec in specs])
    for game, spec in zip(reference, specs, strict=True):
        assert (game.seed, game.seating) == (spec.seed, spec.seating)
        assert max(game.scores) >= 40 and game.scores[game.winner] == max(game.scores)
        assert [len(times) for times in game.decision_seconds] == list(game.decisions)


def test_a_deal_replayed_under_another_seating_is_the_same_deal(
    reference: list[PlayedGame],
) -> None:
    first, second = reference[0], reference[1]
    assert first.seed == second.seed and first.seating == second.seating[::-1]


def test_local_processes_give_the_same_games(reference: list[PlayedGame]) -> None:
    done: list[int] = []
    games = Processes(2).run(small(), done.append)
    assert outcomes(games) == outcomes(reference)
    assert sum(done) == len(reference)
    assert summarize(games, BOTS).outcome() == summarize(reference, BOTS).outcome()


def test_more_seats_the_same_on_every_local_backend() -> None:
    specs = small(players=3, games=6)
    assert outcomes(Processes(3).run(specs)) == outcomes(Sequential().run(specs))


def test_batches_cut_the_schedule_in_order() -> None:
    specs = make_schedule(BOTS, 2, 200)
    for workers in (1, 2, 8, 100):
        chunks = batches(specs, workers)
        assert [s for chunk in chunks for s in chunk] == specs
        assert all(1 <= len(chunk) <= 64 for chunk in chunks)
    assert len(batches(specs, 1)) == 17  # 12 games each: about 16 batches per worker


def test_make_backend_picks_what_the_options_ask_for() -> None:
    assert isinstance(make_backend(), Sequential)
    assert isinstance(make_backend(1), Sequential)
    assert make_backend(4).describe() == "processes (4 jobs)"
    assert make_backend(2, "auto").describe() == "ray (local, 2 CPUs)"
    assert make_backend(None, "auto").describe() == "ray (local, all CPUs)"
    assert make_backend(None, "10.0.0.1:6379").describe() == "ray (10.0.0.1:6379)"
    with pytest.raises(TournamentError, match="--jobs: must be at least 1, not 0"):
        make_backend(0)
    with pytest.raises(TournamentError, match="--jobs: must be at least 1, not -1"):
        make_backend(-1, "auto")
    with pytest.raises(TournamentError, match="--jobs: a running Ray cluster has its own CPUs"):
        make_backend(2, "10.0.0.1:6379")
    with pytest.raises(TournamentError, match="--ray-timeout: must be positive"):
        make_backend(None, "auto", ray_timeout=0)


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("10.0.0.5:6380", ("10.0.0.5", 6380)),
        ("head", ("head", 6379)),
        ("ray://head:10002", ("head", 10002)),
        ("ray://head", ("head", 10001)),
        ("[::1]:7000", ("::1", 7000)),
        ("[::1]", ("::1", 6379)),
    ],
)
def test_split_address(address: str, expected: tuple[str, int]) -> None:
    assert split_address(address) == expected


@pytest.mark.parametrize("address", ["", "head:port", "head:0", "head:70000", ":6379", "[::1]:x"])
def test_a_malformed_address_is_rejected(address: str) -> None:
    with pytest.raises(TournamentError, match="is not an address like HOST:PORT"):
        split_address(address)


@pytest.mark.timeout(60)  # fails at once: a hang (Ray's own retries, minutes) fails the test
def test_an_unreachable_address_fails_at_once_with_a_clear_message() -> None:
    with pytest.raises(TournamentError, match=r"--ray: cannot reach 127\.0\.0\.1:1: "):
        RayBackend("127.0.0.1:1", timeout=2.0).run(small())
    with pytest.raises(TournamentError, match="cannot reach"):
        probe("127.0.0.1:1", 1.0)


def _processes_with(marker: str) -> list[int]:
    """Processes (other than this one) started with ``marker`` in their environment."""
    tag = f"DOS_RAY_TEST={marker}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environment = (entry / "environ").read_bytes()
        except OSError:
            continue
        if tag in environment.split(b"\0"):
            found.append(int(entry.name))
    return found


@pytest.fixture
def ray_sandbox(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A short temporary folder for a local Ray (its Unix socket paths must stay under about
    107 characters, too few for pytest's ``tmp_path``), removed afterwards; a home folder in
    ``tmp_path`` so that Ray writes nothing into the real one; and a marker in the environment
    that every process Ray starts inherits, to find any left running."""
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp" if os.path.isdir("/tmp") else None)
    marker = uuid.uuid4().hex
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # else Ray writes a token into ~/.ray
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("DOS_RAY_TEST", marker)
    try:
        yield temp, marker
    finally:
        shutil.rmtree(temp, ignore_errors=True)


# Ray forks helper processes of its own in this process; when an earlier module of the same
# test worker has imported JAX (tests/rl), JAX warns at every fork that it runs threads. The
# forks run no JAX: the warning says nothing about this test, whatever ran before it.
@pytest.mark.filterwarnings("ignore:os.fork\\(\\) was called:RuntimeWarning")
def test_a_local_ray_cluster_gives_the_same_games(
    ray_sandbox: tuple[str, str], reference: list[PlayedGame]
) -> None:
    import ray

    temp, marker = ray_sandbox
    nodes: list[str] = []

    def progress(count: int) -> None:
        if not nodes:  # while connected: where the cluster's node listens
            cluster = ray.nodes()  # type: ignore[no-untyped-call]
            nodes.extend(node["NodeManagerAddress"] for node in cluster)

    backend = RayBackend(num_cpus=2, temp_dir=temp)
    games = backend.run(small(), progress)
    assert outcomes(games) == outcomes(reference)
    assert summarize(games, BOTS).outcome() == summarize(reference, BOTS).outcome()
    assert nodes == ["127.0.0.1"]
    assert not ray.is_initialized()
    assert any(Path(temp).iterdir())  # Ray's session files went into the test's folder
    if Path("/proc").is_dir():
        deadline = time.monotonic() + 20
        while _processes_with(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _processes_with(marker) == [], "Ray left processes running"
