"""Delivery: responses are compressed and the client's files are cacheable with
validators, so a repeat visit costs little. Bytes are counted as Chromium received them
(the DevTools protocol's encoded lengths, headers included) for the lobby's first load, then
for a second visit with the browser's cache. ``first_and_repeat_bytes`` gives the README's
figures."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, Server


def _load_counting(page: Page, url: str) -> tuple[int, list[dict[str, Any]]]:
    """Loads ``url`` until the lobby is ready; the bytes received and each response."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: dict[str, int] = {}
    responses: dict[str, dict[str, Any]] = {}
    raw: dict[str, int] = {}  # the status on the wire (304 for a revalidated copy)
    cdp.on(
        "Network.responseReceivedExtraInfo",
        lambda e: raw.__setitem__(e["requestId"], int(e["statusCode"])),
    )
    cdp.on("Network.responseReceived", lambda e: responses.__setitem__(e["requestId"], e))
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])),
    )
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#table-list li").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    cdp.detach()
    return sum(sizes.values()), [
        {
            "url": r["response"]["url"],
            "status": raw.get(r["requestId"], r["response"]["status"]),
            "encoding": {k.lower(): v for k, v in r["response"]["headers"].items()}.get(
                "content-encoding", ""
            ),
            "cached": r["response"].get("fromDiskCache", False),
        }
        for r in responses.values()
    ]


def first_and_repeat_bytes(browser: Browser, url: str) -> tuple[int, int, list[Any], list[Any]]:
    """Bytes of a first visit (empty cache) and of a repeat visit (same browser profile)."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        first, first_responses = _load_counting(page, url)
        again = context.new_page()
        repeat, repeat_responses = _load_counting(again, url)
    finally:
        context.close()
    return first, repeat, first_responses, repeat_responses


def test_compressed_and_cacheable(browser: Browser, server: Server) -> None:
    first, repeat, responses, again = first_and_repeat_bytes(browser, server.url)
    files = [r for r in responses if "/static/" in r["url"] or r["url"].endswith("/")]
    assert files
    for response in files + [r for r in responses if "/api/i18n/" in r["url"]]:
        assert response["encoding"] == "gzip", response
    # The second visit asks again and gets "not modified" for every file and catalog.
    revalidated = [r for r in again if "/static/" in r["url"] or "/api/i18n/" in r["url"]]
    assert revalidated and all(r["status"] == 304 for r in revalidated), revalidated
    # Compressed, the first visit loads the page, its style, the catalog of its language, the
    # lobby's modules (the lobby, Play now, the account panel, the chat's and the invite's,
    # the official rule set's option fields) and the server's answers (/api/info, the tables);
    # the table's modules (its drawing, messages, log, host controls, the rule sets' tables)
    # load only when a table opens (tableload.js), friends, Play people, tournaments and
    # moderation when asked for.
    assert first <= 96_000, first
    assert repeat < first / 3, (first, repeat)
