"""The moderation news on one bus: every end applies each piece once, in the order announced,
the announcer's own included before ``tell`` returns; unreadable news is dropped, not fatal;
an end that is not reading applies its own news at once."""

from __future__ import annotations

import asyncio

import pytest

from dos.server.hosting.bus import LocalBus
from dos.server.people.moderation_news import NEWS, Banned, Filters, ModerationNews
from server.support import TIMEOUT

News = Banned | Filters


def _end(bus: LocalBus) -> tuple[ModerationNews, list[News], asyncio.Event]:
    """An end of the news on ``bus`` (a process), what it applied, and an event set at each."""
    applied: list[News] = []
    changed = asyncio.Event()

    async def apply(news: News) -> None:
        applied.append(news)
        changed.set()

    return ModerationNews(bus, apply), applied, changed


async def _until(applied: list[News], changed: asyncio.Event, count: int) -> None:
    async with asyncio.timeout(TIMEOUT):
        while len(applied) < count:
            changed.clear()
            await changed.wait()


@pytest.mark.asyncio
async def test_every_end_applies_each_piece_once_in_order_the_announcers_before_it_returns() -> (
    None
):
    bus = LocalBus()
    (here, applied_here, changed_here), (there, applied_there, changed) = _end(bus), _end(bus)
    await here.start()
    await there.start()
    try:
        await bus.publish(NEWS, 1, {"t": "nonsense"})  # dropped by every end
        await here.tell(Banned(player_id="p_bo"))
        assert applied_here == [Banned(player_id="p_bo")]  # before tell returned
        await there.tell(Filters(player_id="p_ada"))
        await _until(applied_there, changed, 2)
        await _until(applied_here, changed_here, 2)
        expected = [Banned(player_id="p_bo"), Filters(player_id="p_ada")]
        assert applied_here == applied_there == expected
    finally:
        await here.stop()
        await there.stop()


@pytest.mark.asyncio
async def test_an_end_not_reading_applies_its_own_news_at_once() -> None:
    end, applied, _ = _end(LocalBus())
    await end.tell(Banned(player_id="p_bo"))
    assert applied == [Banned(player_id="p_bo")]
