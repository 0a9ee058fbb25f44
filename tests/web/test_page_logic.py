"""The page's own logic, run in Chromium on the page's modules: the log says every action
in the same words as the terminal client (``dos.i18n.describe``), in all seven languages, and
a refusal is said as the terminal client says it. (Which designations of a wild card are asked
is a pure decision, tested in node: tests/js/actions.test.js.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from dos import ruleset
from dos.i18n import LANGS
from dos.i18n.describe import Before, describe
from dos.i18n.explain import reason_for, render
from dos.rules.official import Phase, parse_action
from dos.rules.official.cards import parse_card

from .conftest import DESKTOP, Server
from .pages import open_page

CENTER = ["R7", "B3", "DOS", "Y#"]
NAMES = ["Ada", "Bo", "Cy"]
ACTIONS = [
    "R7@0",
    "B7@0",
    "R5+DOS@0",
    "B5+DOS@0",
    "B1+G1@2",
    "R#@2",
    "B3+R#=4@0",
    "R3+R#@0",
    "Y4@3",
    "draw",
    "lay B3",
    "end",
    "place G7",
    "dos",
    "2: dos",
    "1: catch 0",
]


@pytest.fixture(scope="module")
def page(browser: Browser, server: Server) -> Iterator[Page]:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        yield page
    finally:
        context.close()


def run(page: Page, script: str, arg: Any = None) -> Any:
    """Runs `script` (an async function body with `arg`, the modules `i18n`, `log`, `actions`)."""
    return page.evaluate(
        f"""async (arg) => {{
          const i18n = await import('/static/js/i18n.js');
          const log = await import('/static/js/log.js');
          const actions = await import('/static/js/actions.js');
          {script}
        }}""",
        arg,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_log_says_each_action_as_the_terminal_client_does(page: Page, lang: str) -> None:
    written = run(
        page,
        """await i18n.setLang(arg.lang);
        return arg.actions.map((a) => log.describe(a, 0, {center: arg.center, phase: 'matching'},
                                                   arg.names));""",
        {"lang": lang, "actions": ACTIONS, "center": CENTER, "names": NAMES},
    )
    center = [parse_card(c) for c in CENTER]
    expected = [
        describe(lang, parse_action(a), Before(center, turn=0, phase=Phase.TURN), NAMES)
        for a in ACTIONS
    ]
    assert written == expected


REFUSALS = [
    ("official", "R7@9", "game.err_no_such_target"),
    ("official", "G10@0", "game.err_not_in_hand"),
    ("official", "B7+B8@0", "game.err_no_number_match"),
    ("official", "1: draw", "game.err_not_your_turn"),
    ("classic", "draw", "classic.err_must_play"),
]


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_from_the_server_is_said_as_the_terminal_client_says_it(
    page: Page, lang: str
) -> None:
    reasons = []
    for rules, written, key in REFUSALS:
        rule_set = ruleset.get(rules)
        state = rule_set.new_game(None, 1)
        action = rule_set.parse_action(written)
        seat = action.seat if action.seat is not None else rule_set.turn(state)
        reason = reason_for(rules, state, seat, action)
        assert reason.key == key
        reasons.append(reason)
    said = run(
        page,
        "await i18n.setLang(arg.lang); return arg.reasons.map((r) => i18n.tWords(r));",
        {"lang": lang, "reasons": [r.json() for r in reasons]},
    )
    assert said == [render(lang, r) for r in reasons]
