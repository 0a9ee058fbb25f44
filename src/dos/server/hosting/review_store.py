"""Where a server's game reviews are kept and who computes each: ``ReviewStore``.

A review (``dos.server.http.reviews``) is seconds of CPU, computed in parts by the job runner
and followed by its client's polls. Every process of a server must answer those polls the
same way, and a review asked of several processes at once must be computed once. So the
reviews sit behind this interface, each known by its **name** (``review_name``: the
record's hash, the seat and the settings, as ``dos review --cache`` names its files):

* its **kept** copy once done (``kept``, ``keep``): durable, read by every process;
* its **standing** while not done: ``running`` with its progress, or ``failed`` with why;
  ``held`` says whether a process is computing it now;
* a **claim**: the right to compute it, held by one process at a time (``claim``); its holder
  reports the progress and each part done (``report``, which also says whether it still
  holds the claim) and ends with ``keep`` or ``fail``, or lets go (``release``: the process
  stops). A claim whose holder died lapses: the review stands ``running`` and not ``held``,
  and the next process asked about it claims it and goes on from the parts done (``parts``;
  each part is a pure function of the review's name and its place), so no review stays
  ``running`` for ever and no part is computed twice unless its process died computing it.

``LocalReviewStore`` is the store of one process: the standings in memory, the kept reviews
in the data folder (``reviews/NAME.json``), so that a review survives a restart and is never
made twice. A server of many processes keeps the standings and claims in Redis and the kept
reviews in its database (``dos.cluster.reviews.RedisReviewStore``).

>>> import asyncio, tempfile
>>> from pathlib import Path
>>> async def one_review() -> list[object]:
...     store = LocalReviewStore(Path(tempfile.mkdtemp()))
...     seen: list[object] = [await store.claim("r1"), await store.claim("r1")]
...     await store.report("r1", 8, 20)
...     seen.append(await store.standing("r1"))
...     await store.keep("r1", 1, 0, {"summary": {}})
...     seen += [await store.standing("r1"), await store.kept("r1")]
...     return seen
>>> for seen in asyncio.run(one_review()):
...     print(seen)
True
False
Standing(status='running', done=8, total=20, error=None, held=True)
None
{'summary': {}}
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from dos.review.cli import cache_path


def review_name(text: str, seat: int, samples: int, seed: int) -> str:
    """The name of the review of ``seat`` in the record ``text`` with these settings: the
    name ``dos review --cache`` gives its file, without ``.json``.

    >>> review_name("{}", 1, 1000, 0)
    '44136fa355b3678a1146ad16f7e8649e-seat1-k1000-s0-v1'
    """
    return cache_path(Path(), text, seat, samples, seed).stem


Part = tuple[str, dict[str, Any]]
"""A part of a review done: its key (``head``, or the first decision it judges) and its
JSON."""


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a review that is not done stands: ``running`` (``done`` of ``total`` decisions
    judged; ``total`` ``None`` while the game is read) or ``failed`` (``error`` says why);
    ``held``: whether a process holds its claim (is computing it)."""

    status: Literal["running", "failed"]
    done: int = 0
    total: int | None = None
    error: str | None = None
    held: bool = True


class ReviewStoreError(Exception):
    """The store did not answer (its server away): nothing was read or changed; try again."""


class ReviewStore(Protocol):
    """The reviews of a server, kept and under way, shared by its processes (see the
    module's text). Every method may raise ``ReviewStoreError``."""

    async def standing(self, name: str) -> Standing | None:
        """Where review ``name`` stands; ``None`` when it is neither running nor failed
        (never asked, or done: ``kept`` has it)."""
        ...

    async def kept(self, name: str) -> dict[str, Any] | None:
        """Review ``name`` done (its JSON), or ``None``."""
        ...

    async def claim(self, name: str) -> bool:
        """Takes the computing of review ``name`` for this process: true when it is this
        process's now (it stands ``running`` at 0, held); false when another process holds it
        or it is kept already."""
        ...

    async def report(
        self, name: str, done: int, total: int | None, part: Part | None = None
    ) -> bool:
        """The progress of review ``name``, which this process computes, and ``part``, a part
        of it just done (kept for whoever computes it next); whether this process still
        holds it (false: another took it over; stop computing). A store that does not answer
        counts as held (the claim lapses if it stays away)."""
        ...

    async def parts(self, name: str) -> dict[str, dict[str, Any]]:
        """The parts of review ``name`` done so far, by key (none once kept or forgotten)."""
        ...

    async def keep(self, name: str, game_id: int, seat: int, review: dict[str, Any]) -> None:
        """Keeps review ``name`` done (of seat ``seat`` of game ``game_id``): from now on
        ``kept`` has it, and it no longer stands."""
        ...

    async def fail(self, name: str, error: str) -> None:
        """Review ``name`` failed (``error`` says why): it stands ``failed`` until claimed
        again, its parts forgotten (made again)."""
        ...

    async def release(self, name: str) -> None:
        """This process stops computing review ``name`` (it stops): the next process asked
        takes it over."""
        ...

    async def close(self) -> None:
        """Lets go of every claim of this process and closes the store (the server's stop)."""
        ...


class LocalReviewStore:
    """``ReviewStore`` of one process: standings in memory, kept reviews as JSON files in
    ``folder`` (written whole, then renamed: a file is never half there; a damaged one reads
    as none and the review is made again)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._standing: dict[str, Standing] = {}
        self._parts: dict[str, dict[str, dict[str, Any]]] = {}

    def _path(self, name: str) -> Path:
        return self.folder / f"{name}.json"

    async def standing(self, name: str) -> Standing | None:
        """See ``ReviewStore.standing``."""
        return self._standing.get(name)

    async def kept(self, name: str) -> dict[str, Any] | None:
        """See ``ReviewStore.kept``."""
        return await asyncio.to_thread(_read, self._path(name))

    async def claim(self, name: str) -> bool:
        """See ``ReviewStore.claim``."""
        found = self._standing.get(name)
        if found is not None and found.status == "running":
            return False
        self._standing[name] = Standing("running")
        if await self.kept(name) is not None:  # done meanwhile
            del self._standing[name]
            return False
        return True

    async def report(
        self, name: str, done: int, total: int | None, part: Part | None = None
    ) -> bool:
        """See ``ReviewStore.report``."""
        if name not in self._standing:
            return False
        self._standing[name] = Standing("running", done, total)
        if part is not None:
            self._parts.setdefault(name, {})[part[0]] = part[1]
        return True

    async def parts(self, name: str) -> dict[str, dict[str, Any]]:
        """See ``ReviewStore.parts``."""
        return dict(self._parts.get(name, {}))

    async def keep(self, name: str, game_id: int, seat: int, review: dict[str, Any]) -> None:
        """See ``ReviewStore.keep``; ``ReviewStoreError`` when the file cannot be written."""
        try:
            await asyncio.to_thread(_write, self._path(name), review)
        except OSError as error:
            raise ReviewStoreError(f"the review could not be kept: {error.strerror}") from None
        self._standing.pop(name, None)
        self._parts.pop(name, None)

    async def fail(self, name: str, error: str) -> None:
        """See ``ReviewStore.fail`` (its progress kept)."""
        before = self._standing.get(name) or Standing("running")
        self._parts.pop(name, None)
        self._standing[name] = Standing("failed", before.done, before.total, error, held=False)

    async def release(self, name: str) -> None:
        """See ``ReviewStore.release``: one process, so the review is forgotten."""
        self._standing.pop(name, None)
        self._parts.pop(name, None)

    async def close(self) -> None:
        """Forgets the reviews under way (nothing else is held)."""
        self._standing.clear()
        self._parts.clear()


def _read(path: Path) -> dict[str, Any] | None:
    """A kept review, or ``None`` (none, or a damaged one: it is made again)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "summary" in data else None


def _write(path: Path, review: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(review), encoding="utf-8")
    temporary.replace(path)
