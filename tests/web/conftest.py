"""Fixtures of the browser tests: the real game server and Debian's headless Chromium.

The server runs as `python -m dos serve` in a subprocess, with its own data folder and SQLite
database and fast bots (``--bot-delay``). Chromium is Debian's headless shell
(``/usr/bin/chromium-headless-shell``: the same engine as ``chromium`` without its desktop
layers, which costs each page less than half the processor time), else its ``chromium``;
driven by Playwright for Python through ``executable_path``; Playwright's own browser
download is never used. Without either the tests skip (which CI=true turns into failures).

Screenshots go to ``tests/web/output/`` (kept out of git by ``tests/web/.gitignore``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright

from forked import ForkedServer, start_server
from support import deal_seed_args

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # The pages under test are one site: no process per site (about a tenth of Chromium's
    # CPU in the suite), and none of the browser's own services.
    "--disable-site-isolation-trials",
    "--disable-features=IsolateOrigins,site-per-process,Translate,OptimizationHints,MediaRouter",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
OUTPUT = Path(__file__).parent / "output"
BOT_DELAY = "0.05"
BOT_EFFORT = "0.1"
"""The searching bots think with a tenth of their levels' budgets: the tests look at what the
page shows of their play, not at its strength, and the suite shares two cores."""
JOBS = {
    "DOS_HINT_ITERATIONS": "24",
    "DOS_REVIEW_SAMPLES": "48",
    "DOS_JOB_WORKERS": "1",
    "DOS_BOT_WORKERS": "1",
    "DOS_JOB_WARM": "0",
}
"""Hints and reviews (``dos.server.hosting.jobs``) cheap, in one worker process: a hint searches few
iterations (fast, and still the `expert`'s search), a review takes few samples a decision (yet
enough to judge a gift of a round a mistake); the searching bots' decisions in one worker
process too (each worker readies the compiled rollouts for itself before its first search).
The workers start cold: warming them at each server's start costs the suite's cores more than
the first search it spares."""


def chromium_path() -> str | None:
    """Debian's headless Chromium shell, else its Chromium, if installed."""
    for candidate in (
        "/usr/bin/chromium-headless-shell",
        shutil.which("chromium-headless-shell"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """One `dos serve` process; `stop` and `start` again keep its data (a restart)."""

    data: Path
    port: int = field(default_factory=free_port)
    args: list[str] = field(default_factory=list)
    """More options of ``dos serve`` (``--grace 1``)."""
    env: dict[str, str] = field(default_factory=dict)
    """More environment of ``dos serve`` (``DOS_RULESETS``: rule sets to load)."""
    seeded: bool = True
    """Whether it deals from the suite's seed (``support.DEAL_SEED``); a server whose games
    must be rated deals at random (a seeded server's games never are)."""
    process: ForkedServer | subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        log = (self.data / "server.log").open("ab")
        try:
            self.process = start_server(
                [
                    "serve",
                    "--port",
                    str(self.port),
                    "--data",
                    str(self.data),
                    "--bot-delay",
                    BOT_DELAY,
                    "--bot-effort",
                    BOT_EFFORT,
                    "--limit",
                    "off",  # every page comes from 127.0.0.1
                    "--limit",
                    "chat=5/10second",  # the chat's own limit, as shipped
                    *([] if "--deal-seed" in self.args or not self.seeded else deal_seed_args()),
                    *self.args,
                ],
                {**os.environ, "PYTHONUNBUFFERED": "1", **JOBS, **self.env},
                stdout=log,
            )
        finally:
            log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"dos serve exited: {(self.data / 'server.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("dos serve did not answer within 30 s")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture(scope="session")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        pytest.skip("Debian's chromium is not installed (make system-packages)")
    return path


@pytest.fixture(scope="session")
def output_dir() -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


STAY = "600"
"""The grace of the shared servers (``--grace``, seconds): a page closed at a test's end, its
game left behind, is not stood in for during the rest of the run, so the bots do not play
that game out behind the tests that come next. Tests of the grace have servers of their own."""


def _server(folder: Path) -> Iterator[Server]:
    server = Server(data=folder, args=["--grace", STAY])
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server shared by the browser tests (each makes its own tables). A test that
    restarts it (``stop`` and ``start``) finds every table back, as after any restart; a
    test that needs a server of its own has ``own_server``."""
    yield from _server(tmp_path_factory.mktemp("server"))


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test alone (for stopping and restarting it)."""
    yield from _server(tmp_path / "server")


class SharedChromium:
    """The Chromium of this process, open while it runs browser modules one after another.

    A pytest plugin: before any test outside ``tests/web`` it closes Chromium and Playwright,
    as it does at the end of the session. (Playwright's synchronous API keeps an event loop
    running while it is open, which the asyncio tests of the other folders need.)"""

    def __init__(self) -> None:
        self.playwright: Playwright | None = None
        self.browser: Browser | None = None

    def get(self, chromium: str) -> Browser:
        """The open Chromium, launched if there is none (or it crashed)."""
        from playwright.sync_api import sync_playwright

        if self.browser is not None and not self.browser.is_connected():
            self.close()
        if self.browser is None:
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=chromium, args=CHROMIUM_ARGS
            )
        return self.browser

    def close(self) -> None:
        """Closes Chromium and Playwright, if open."""
        from playwright.sync_api import Error as PlaywrightError

        browser, playwright = self.browser, self.playwright
        self.browser = self.playwright = None
        try:
            if browser is not None:
                with contextlib.suppress(PlaywrightError):  # gone already
                    browser.close()
        finally:
            if playwright is not None:
                playwright.stop()

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        if not item.path.is_relative_to(Path(__file__).parent):
            self.close()

    def pytest_sessionfinish(self) -> None:
        self.close()


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(SharedChromium(), "dos-shared-chromium")


@pytest.fixture(scope="module")
def browser(chromium: str, pytestconfig: pytest.Config) -> Browser:
    """Chromium for the tests of a module: one process shared by the browser modules that a
    worker runs in a row (each test opens contexts of its own, with their own storage and
    cache), launched anew after tests of other folders (``SharedChromium``)."""
    shared = pytestconfig.pluginmanager.get_plugin("dos-shared-chromium")
    assert isinstance(shared, SharedChromium)
    return shared.get(chromium)
