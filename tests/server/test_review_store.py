"""The reviews' store of one process (``dos.server.hosting.review_store.LocalReviewStore``):
one claim at a time, failures kept with their progress until claimed again, reviews done kept
in the data folder (a damaged file reads as none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dos.server.hosting.review_store import LocalReviewStore, Standing

pytestmark = pytest.mark.asyncio

NAME = "0123abcd-seat0-k8-s0-v1"


async def test_a_review_is_claimed_once_and_a_failed_one_again(tmp_path: Path) -> None:
    store = LocalReviewStore(tmp_path)
    assert await store.claim(NAME)
    assert not await store.claim(NAME)
    assert await store.report(NAME, 8, 20, ("0", {"entries": [], "forced": 1}))
    assert await store.parts(NAME) == {"0": {"entries": [], "forced": 1}}
    await store.fail(NAME, "the review failed")
    assert await store.parts(NAME) == {}  # made again
    assert await store.standing(NAME) == Standing("failed", 8, 20, "the review failed", False)
    assert await store.claim(NAME)
    assert await store.standing(NAME) == Standing("running")


async def test_a_review_done_is_kept_in_the_folder_and_never_claimed_again(
    tmp_path: Path,
) -> None:
    store = LocalReviewStore(tmp_path)
    assert await store.claim(NAME)
    await store.keep(NAME, 1, 0, {"summary": {"decisions": 1}})
    again = LocalReviewStore(tmp_path)  # the process started again
    assert await again.kept(NAME) == {"summary": {"decisions": 1}}
    assert await again.standing(NAME) is None
    assert not await again.claim(NAME)


async def test_a_damaged_review_reads_as_none_and_is_made_again(tmp_path: Path) -> None:
    (tmp_path / f"{NAME}.json").write_text("{not json", encoding="utf-8")
    store = LocalReviewStore(tmp_path)
    assert await store.kept(NAME) is None
    assert await store.claim(NAME)
    assert not await store.report("never-claimed", 1, 2)  # nothing to report of
