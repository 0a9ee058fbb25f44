"""Where the games of a tournament run: this process, local worker processes, or Ray.

Every backend hands out batches of ``GameSpec`` to ``dos.arena.played.play_batch`` and
returns the played games in schedule order, whatever order they finished in. A game is a
pure function of its spec, so every backend returns the same games for the same schedule
(decision times, which are wall-clock measurements, aside).

* ``Sequential``: one game after another in this process.
* ``Processes(jobs)``: ``jobs`` worker processes, started with ``spawn`` (no state is
  inherited from this process, on any platform).
* ``RayBackend(address)``: the tasks of a Ray cluster. ``address=None`` starts a private
  local cluster bound to 127.0.0.1 and stops it at the end; an address (``host:port`` of a
  running cluster's head, or ``ray://host:port``) connects to that cluster, whose nodes must
  have this package installed. An address that does not answer within ``timeout`` seconds
  is a ``TournamentError``.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager, nullcontext
from typing import Any, Protocol

from dos.arena.played import PlayedGame, play_batch
from dos.arena.schedule import GameSpec, TournamentError
from dos.extras import MissingExtraError, require

Progress = Callable[[int], None]
"""Told the number of games just finished, as they finish."""


def _no_progress(count: int) -> None:
    """A ``Progress`` that does nothing."""


class Backend(Protocol):
    """Runs a schedule; returns the played games in schedule order."""

    def describe(self) -> str:
        """A short name for reports, e.g. ``processes (4 jobs)``."""
        ...

    def run(self, specs: Sequence[GameSpec], progress: Progress = _no_progress) -> list[PlayedGame]:
        """Plays every spec; ``result[i]`` is the game of ``specs[i]``."""
        ...


def batches(specs: Sequence[GameSpec], workers: int) -> list[list[GameSpec]]:
    """``specs`` cut into consecutive batches: about 16 per worker (so that the load evens
    out and the progress bar moves), at most 64 games each.

    >>> [len(b) for b in batches(list(range(10)), 1)]  # type: ignore[arg-type]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    size = max(1, min(64, len(specs) // (max(1, workers) * 16)))
    return [list(specs[start : start + size]) for start in range(0, len(specs), size)]


def _in_order(
    chunks: list[list[GameSpec]], played: dict[int, list[PlayedGame]]
) -> list[PlayedGame]:
    """The batches' games in schedule order (``played`` is keyed by batch number)."""
    games = [game for number in range(len(chunks)) for game in played[number]]
    if [game.index for game in games] != [spec.index for chunk in chunks for spec in chunk]:
        raise RuntimeError("a backend returned games out of order")
    return games


class Sequential:
    """One game after another, in this process."""

    def describe(self) -> str:
        return "sequential"

    def run(self, specs: Sequence[GameSpec], progress: Progress = _no_progress) -> list[PlayedGame]:
        games = []
        for spec in specs:
            games.extend(play_batch([spec]))
            progress(1)
        return games


class Processes:
    """``jobs`` local worker processes (``concurrent.futures`` with the ``spawn`` method)."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise TournamentError(f"--jobs: must be at least 1, not {jobs}")
        self.jobs = jobs

    def describe(self) -> str:
        return f"processes ({self.jobs} jobs)"

    def run(self, specs: Sequence[GameSpec], progress: Progress = _no_progress) -> list[PlayedGame]:
        chunks = batches(specs, self.jobs)
        played: dict[int, list[PlayedGame]] = {}
        pool = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("spawn"))
        try:
            futures: dict[Future[list[PlayedGame]], int] = {
                pool.submit(play_batch, chunk): number for number, chunk in enumerate(chunks)
            }
            for future in as_completed(futures):
                number = futures[future]
                played[number] = future.result()
                progress(len(played[number]))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return _in_order(chunks, played)


def split_address(address: str) -> tuple[str, int]:
    """Host and port of a Ray address (``host:port``, ``[v6]:port`` or ``ray://host:port``);
    without a port, Ray's defaults: 10001 for ``ray://``, else 6379.

    >>> split_address("ray://10.0.0.5"), split_address("[::1]:7000")
    (('10.0.0.5', 10001), ('::1', 7000))
    """
    client = address.startswith("ray://")
    rest = address.removeprefix("ray://").rstrip("/")
    default = 10001 if client else 6379
    if rest.startswith("["):
        host, _, tail = rest[1:].partition("]")
        port_text = tail.removeprefix(":") or str(default)
    elif rest.count(":") == 1:
        host, _, port_text = rest.partition(":")
    else:
        host, port_text = rest, str(default)
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise TournamentError(f"--ray: {address!r} is not an address like HOST:PORT")
    return host, int(port_text)


def probe(address: str, timeout: float) -> None:
    """Raises ``TournamentError`` unless something accepts a connection at ``address``
    within ``timeout`` seconds (so that a wrong address fails at once, with a clear message).
    """
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except TimeoutError:
        raise TournamentError(
            f"--ray: no answer from {address} within {timeout:g} s (is a Ray cluster running?)"
        ) from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise TournamentError(
            f"--ray: cannot reach {address}: {reason} (is a Ray cluster running there?)"
        ) from None


LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch for single-machine mode: with it off, a new node takes 127.0.0.1 as its
address and binds its servers there instead of on every interface."""


@contextmanager
def _loopback_only(ray_constants: Any) -> Iterator[None]:
    """While active, a Ray node started from this process binds to 127.0.0.1 only."""
    saved_env = os.environ.get(LOOPBACK_ENV)
    saved = getattr(ray_constants, "ENABLE_RAY_CLUSTER", None)
    os.environ[LOOPBACK_ENV] = "0"
    if saved is not None:
        ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        if saved_env is None:
            os.environ.pop(LOOPBACK_ENV, None)
        else:
            os.environ[LOOPBACK_ENV] = saved_env
        if saved is not None:
            ray_constants.ENABLE_RAY_CLUSTER = saved


class RayBackend:
    """The tasks of a Ray cluster: a private local one (``address=None``) or a running one."""

    def __init__(
        self,
        address: str | None = None,
        num_cpus: int | None = None,
        temp_dir: str | None = None,
        timeout: float = 10.0,
    ) -> None:
        if address is not None:
            split_address(address)
            if num_cpus is not None:
                raise TournamentError("--jobs: a running Ray cluster has its own CPUs")
        if num_cpus is not None and num_cpus < 1:
            raise TournamentError(f"--jobs: must be at least 1, not {num_cpus}")
        if timeout <= 0:
            raise TournamentError(f"--ray-timeout: must be positive, not {timeout:g}")
        self.address = address
        self.num_cpus = num_cpus
        self.temp_dir = temp_dir
        self.timeout = timeout

    def describe(self) -> str:
        if self.address is None:
            cpus = "all CPUs" if self.num_cpus is None else f"{self.num_cpus} CPUs"
            return f"ray (local, {cpus})"
        return f"ray ({self.address})"

    def _connect(self, ray: Any) -> None:
        """Starts or joins the cluster; any failure is a ``TournamentError``."""
        if ray.is_initialized():
            raise TournamentError("--ray: Ray is already initialized in this process")
        quiet: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
        if self.address is not None:
            try:
                ray.init(address=self.address, **quiet)
            except Exception as error:
                raise TournamentError(f"--ray: cannot join {self.address}: {error}") from None
            return
        try:
            context = ray.init(
                address="local",
                num_cpus=self.num_cpus,
                include_dashboard=False,
                _node_ip_address="127.0.0.1",
                _temp_dir=self.temp_dir,
                **quiet,
            )
        except Exception as error:
            raise TournamentError(f"--ray: cannot start a local Ray: {error}") from None
        node = context.address_info.get("node_ip_address")
        if node != "127.0.0.1":
            ray.shutdown()
            raise TournamentError(f"--ray: the local Ray bound to {node}, not 127.0.0.1")

    def run(self, specs: Sequence[GameSpec], progress: Progress = _no_progress) -> list[PlayedGame]:
        if self.address is not None:
            probe(self.address, self.timeout)  # before importing Ray: a wrong address fails fast
        try:
            require("ray", "arena", "--ray")
        except MissingExtraError as error:
            raise TournamentError(str(error)) from None
        import ray
        from ray._private import ray_constants

        local = self.address is None
        with _loopback_only(ray_constants) if local else nullcontext():
            self._connect(ray)
            try:
                resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
                cpus = int(resources.get("CPU", 1))
                chunks = batches(specs, cpus)
                task = ray.remote(play_batch)
                numbers = {task.remote(chunk): number for number, chunk in enumerate(chunks)}
                played: dict[int, list[PlayedGame]] = {}
                waiting = list(numbers)
                while waiting:
                    done, waiting = ray.wait(waiting, num_returns=1)
                    for ref in done:
                        played[numbers[ref]] = ray.get(ref)
                        progress(len(played[numbers[ref]]))
                return _in_order(chunks, played)
            finally:
                ray.shutdown()


def make_backend(
    jobs: int | None = None,
    ray_address: str | None = None,
    ray_timeout: float = 10.0,
    ray_temp_dir: str | None = None,
) -> Backend:
    """The backend the command line asks for. With ``ray_address``: ``auto`` starts a local
    Ray (``jobs`` CPUs, by default all), another address joins that cluster (``jobs`` must
    then be ``None``). Without: ``jobs`` 1 (the default) is ``Sequential``, more is
    ``Processes``.
    """
    if ray_address is not None:
        auto = ray_address == "auto"
        return RayBackend(
            address=None if auto else ray_address,
            num_cpus=jobs,
            temp_dir=ray_temp_dir,
            timeout=ray_timeout,
        )
    if jobs is None or jobs == 1:
        return Sequential()
    return Processes(jobs)
