"""Your player on any device, in Chromium: a guest keeps their player with a
passkey in one browser, and a cleared browser (a new context: nothing in its storage) signs
in with that passkey and is the same player, with its results and ratings; a recovery code
does the same where no passkey is at hand, once.

The passkey lives in Chromium's virtual authenticator (DevTools protocol, ``WebAuthn``
domain: CTAP2, internal transport, resident keys, user verification that succeeds). The
second browser gets the same credential through ``WebAuthn.addCredential``, as a passkey
synced to a second device would be. Passkeys need the server's relying-party domain, so
those pages open ``localhost`` (the default relying party), not ``127.0.0.1``. Every state of
the panel passes axe-core, as every other screen does (``test_accessibility``).
"""

from __future__ import annotations

import itertools
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from dos.i18n import text
from dos.ratings.policy import MIN_TARGET
from dos.server.storage.database import Database
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    StoredTable,
    finish_game,
    insert_game,
    insert_table,
)

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, open_page
from .test_accessibility import axe_path, axe_violations  # noqa: F401  (axe_path: a fixture)

_codes = itertools.count(1)


def _authenticator(context: BrowserContext, page: Page) -> tuple[CDPSession, str]:
    """A virtual platform authenticator for ``page``: a passkey provider with a fingerprint
    that always matches."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
        "automaticPresenceSimulation": True,
    }
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
    return cdp, str(added["authenticatorId"])


def _guest(page: Page) -> str:
    """The page's guest creates a table and comes back to the lobby; their player id."""
    create_table(page, "Ada", seats=2, bots=1)
    page.click("#leave-button")
    panel = page.locator("#account-panel")
    expect(panel).to_have_attribute("data-state", "guest")
    player = panel.get_attribute("data-player")
    assert player and player.startswith("p_"), player
    return player


def _a_won_game(server: Server, player_id: str) -> None:
    """A rated game the player won against a hard bot, in the server's database."""
    db = Database(f"sqlite:///{server.data / 'dos.sqlite3'}")
    seats = [StoredSeat(0, "Ada", None, player_id), StoredSeat(1, None, "hard", None)]
    code = f"PK{next(_codes):04d}"
    table = StoredTable(code, "official", {}, False, "lobby", 0, None, 0, 1.0, seats)
    game = StoredGame(
        0, 1, "official", {"players": 2, "target_score": MIN_TARGET}, 7, ["Ada", "hard"], "", None
    )
    try:
        db.run_sync(insert_table, table)
        game_id = db.run_sync(insert_game, code, game, seats)
        db.run_sync(
            finish_game, code, game_id, {"winner": 0, "scores": [MIN_TARGET, 0]}, time.time()
        )
    finally:
        db.close()


def _stored(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        "() => ({player: localStorage.getItem('dos.player_id'),"
        " token: localStorage.getItem('dos.player_token')})"
    )
    return found


def test_a_passkey_keeps_the_player_on_a_cleared_browser(browser: Browser, server: Server) -> None:
    url = server.url.replace("127.0.0.1", "localhost")
    first, page = open_page(browser, url, DESKTOP)
    second: BrowserContext | None = None
    try:
        cdp, authenticator = _authenticator(first, page)
        player_id = _guest(page)
        _a_won_game(server, player_id)
        page.click("#account-keep")
        panel = page.locator("#account-panel")
        expect(panel).to_have_attribute("data-state", "registered")
        expect(page.locator("#account-passkeys li")).to_have_count(1)
        expect(page.locator("#account-message")).to_have_text(text("en", "web.account_kept"))
        credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        [passkey] = credentials["credentials"]
        assert passkey["isResidentCredential"] and passkey["rpId"] == "localhost"

        # A cleared browser (a new context) with the same passkey, synced to it.
        second, other = open_page(browser, url, DESKTOP)
        other_cdp, other_authenticator = _authenticator(second, other)
        other_cdp.send(
            "WebAuthn.addCredential",
            {"authenticatorId": other_authenticator, "credential": passkey},
        )
        other_panel = other.locator("#account-panel")
        expect(other_panel).to_have_attribute("data-state", "anonymous")
        assert _stored(other)["player"] is None
        other.click("#account-sign-in")
        expect(other_panel).to_have_attribute("data-state", "registered")
        expect(other_panel).to_have_attribute("data-player", player_id)
        expect(other.locator("#player-name")).to_have_value("Ada")  # the name of the last game
        assert _stored(other)["player"] == player_id
        results = other.request.get(f"{url}/api/players/{player_id}/results").json()
        assert results["games"] == 1 and results["wins"] == 1
        assert other.request.get(f"{url}/api/players/{player_id}").status == 200  # rated

        # The new device plays as that player.
        create_table(other, "Ada", seats=2, bots=1)
        assert _stored(other)["player"] == player_id

        # Signing out there forgets the player on that device only.
        other.click("#leave-button")
        other.click("#account-sign-out")
        expect(other_panel).to_have_attribute("data-state", "anonymous")
        assert _stored(other) == {"player": None, "token": None}
        page.reload()
        expect(panel).to_have_attribute("data-state", "registered")
        assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]
    finally:
        first.close()
        if second is not None:
            second.close()


def test_a_recovery_code_signs_in_once_where_passkeys_are_not_at_hand(
    browser: Browser, server: Server
) -> None:
    """On ``127.0.0.1`` passkeys cannot work (it is not the relying party's domain): the
    passkey buttons are hidden, and the recovery code is the way."""
    first, page = open_page(browser, server.url, DESKTOP)
    second: BrowserContext | None = None
    try:
        player_id = _guest(page)
        expect(page.locator("#account-keep")).to_have_count(0)
        hint = text("en", "web.account_passkeys_elsewhere", host="localhost")
        expect(page.locator("#account-panel")).to_contain_text(hint)
        page.click("#account-recovery-new")
        code = page.locator("#recovery-code").inner_text()
        assert len(code.replace("-", "")) == 20, code
        expect(page.locator("#account-panel")).to_have_attribute("data-state", "registered")

        second, other = open_page(browser, server.url, DESKTOP)
        other_panel = other.locator("#account-panel")
        expect(other_panel).to_have_attribute("data-state", "anonymous")
        other.fill("#account-recovery-code", code.lower())
        other.click("#account-recovery-sign-in")
        expect(other_panel).to_have_attribute("data-player", player_id)
        # Used up, and nothing else keeps the player: a guest again, told to make a new code.
        expect(other_panel).to_have_attribute("data-state", "guest")
        used = text("en", "web.account_recovery_used")
        expect(other.locator("#account-message")).to_contain_text(used)
        assert _stored(other)["player"] == player_id

        other.click("#account-panel details.account-other summary")
        other.fill("#account-recovery-code", code)
        other.click("#account-recovery-sign-in")
        refusal = text("en", "web.err_unknown_recovery_code")
        expect(other.locator("#account-message")).to_have_text(refusal)
        expect(other_panel).to_have_attribute("data-player", player_id)
        assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]
    finally:
        first.close()
        if second is not None:
            second.close()


@pytest.mark.usefixtures("axe_path")
def test_the_player_panel_has_no_axe_violations(
    browser: Browser, server: Server, output_dir: Path
) -> None:
    """Every state of the panel (as for every screen): no player, a guest, a
    player kept on a passkey with a recovery code on show, and a refusal."""
    found: dict[str, Any] = {}
    context, page = open_page(browser, server.url.replace("127.0.0.1", "localhost"), PHONE)
    try:
        _authenticator(context, page)
        expect(page.locator("#account-panel")).to_have_attribute("data-state", "anonymous")
        page.click("#account-panel details summary")
        page.fill("#account-recovery-code", "0" * 20)
        page.click("#account-recovery-sign-in")
        expect(page.locator("#account-message")).to_have_class(re.compile("account-error"))
        axe_violations(page, "no player, a refusal", found)
        _guest(page)
        page.click("#account-panel details.account-other summary")
        axe_violations(page, "guest", found)
        page.click("#account-keep")
        expect(page.locator("#account-panel")).to_have_attribute("data-state", "registered")
        page.click("#account-recovery-new")
        expect(page.locator("#recovery-code")).to_be_visible()
        axe_violations(page, "registered", found)
    finally:
        context.close()
    report = output_dir / "axe-account.json"
    report.write_text(json.dumps(found, indent=1))
    assert found == {}, f"{sorted(found)}: see {report}"
