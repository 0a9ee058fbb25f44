"""Moderation news between a server's processes: what one process committed that every
process must act on at once, announced on the server's bus (``dos.server.hosting.bus``:
``announce`` on the stream ``NEWS``).

- ``Banned``: an admin banned a player; each process closes that player's connections to the
  tables it holds.
- ``Filters``: a player changed whom they block or mute; each process's tables where they are
  connected read their chat filter again.

Each process, the announcer included, applies the news it reads from the bus, in the order
announced (``ModerationNews``): one path, in one process as among many. What the news says
is already in the database, which every later ``hello``, join, chat line and agent request
reads; news missed (a ``Gap``, the bus away) is therefore only an effect that waits for the
player's next step, never a rule broken.

>>> decode(Banned(player_id="p_1").encode())
Banned(t='banned', player_id='p_1')
>>> decode({"t": "banned"})
Traceback (most recent call last):
...
ValueError: moderation news: player_id: Field required
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from dos.server.hosting.bus import Bus, BusError, Gap, Subscription, announce

log = logging.getLogger(__name__)

NEWS = "~moderation"
"""The bus stream of the moderation news (no table's code: those are letters and digits)."""
APPLIED_SECONDS = 5.0
"""How long an announcer waits for its own news to be applied here before answering."""
RETRY_SECONDS = 1.0
"""How long the reader waits before subscribing again to a bus that did not answer."""


class _News(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def encode(self) -> dict[str, Any]:
        """As the bus carries it: a JSON object."""
        return self.model_dump(mode="json")


class Banned(_News):
    """An admin banned ``player_id`` (committed): their connections are closed."""

    t: Literal["banned"] = "banned"
    player_id: str = Field(min_length=1, max_length=64)


class Filters(_News):
    """``player_id`` changed whom they block or mute (committed): their chat filter is read
    again."""

    t: Literal["filters"] = "filters"
    player_id: str = Field(min_length=1, max_length=64)


News = Annotated[Banned | Filters, Field(discriminator="t")]
"""Any moderation news."""
_ADAPTER: TypeAdapter[Banned | Filters] = TypeAdapter(News)

Apply = Callable[[Banned | Filters], Awaitable[None]]
"""What a process does with a piece of news."""


def decode(value: Any) -> Banned | Filters:
    """``value`` read as moderation news; ``ValueError`` saying what is wrong otherwise."""
    try:
        return _ADAPTER.validate_python(value)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"][1:] or first["loc"])
        raise ValueError(f"moderation news: {where}: {first['msg']}") from None


class ModerationNews:
    """This process's end of the moderation news: ``tell`` announces, a reader task started
    by ``start`` applies each piece read (``apply``), the announcer's own included, one at a
    time in the order announced."""

    def __init__(self, bus: Bus, apply: Apply) -> None:
        self.bus = bus
        self.apply = apply
        self._subscription: Subscription | None = None
        self._task: asyncio.Task[None] | None = None
        self._applied = 0
        self._changed = asyncio.Condition()

    async def start(self) -> None:
        """Starts reading the news (from the next announced); a bus that does not answer
        is asked again every ``RETRY_SECONDS`` meanwhile."""
        with contextlib.suppress(BusError):
            self._subscription = await self.bus.subscribe(NEWS)
        self._task = asyncio.get_running_loop().create_task(self._read(), name="moderation-news")

    async def stop(self) -> None:
        """Stops reading."""
        if self._subscription is not None:
            await self._subscription.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def tell(self, news: Banned | Filters) -> None:
        """Announces ``news`` (already committed) to every process, and returns once it was
        applied here (``APPLIED_SECONDS`` at most). Without a bus that answers, or before
        this process reads the news, it is applied here at once, and elsewhere waits for
        the player's next step."""
        if self._subscription is None:
            await self.apply(news)
            return
        try:
            version = await announce(self.bus, NEWS, news.encode())
        except BusError as error:
            log.warning("moderation news not announced (%s); applied here only", error)
            await self.apply(news)
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(APPLIED_SECONDS), self._changed:
                await self._changed.wait_for(lambda: self._applied >= version)

    async def _read(self) -> None:
        while self._subscription is None:
            await asyncio.sleep(RETRY_SECONDS)
            with contextlib.suppress(BusError):
                self._subscription = await self.bus.subscribe(NEWS)
        async for item in self._subscription:
            if isinstance(item, Gap):
                log.warning("%d moderation news missed: they act at the next step", item.missed)
                await self._done(item.last)
                continue
            try:
                await self.apply(decode(item.payload))
            except ValueError as error:
                log.warning("unreadable moderation news dropped: %s", error)
            except Exception:
                log.exception("moderation news %d failed", item.version)
            await self._done(item.version)

    async def _done(self, version: int) -> None:
        async with self._changed:
            self._applied = max(self._applied, version)
            self._changed.notify_all()
