"""The rules page explains every official rule with a worked example, its cards drawn
with the game's own faces, and links to the tutorial; in the player's language.

The examples' truth is checked in the engine by ``test_rule_examples_engine.py``; here the
page must draw each one: the Center Row with the target lit, the cards played, the kind of
match in the catalog's words, the caption.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, PHONE, Server
from .pages import open_page, set_language

EXAMPLES: list[dict[str, Any]] = json.loads(
    resources.files("dos.web")
    .joinpath("static", "js", "rule_examples.json")
    .read_text(encoding="utf-8")
)


def open_rules(page: Page) -> None:
    page.click("#nav-rules")
    expect(page.locator("#view-rules")).to_be_visible()


def drawn(page: Page, selector: str) -> list[str]:
    """The cards (in notation) drawn under ``selector``, each with its face."""
    cards = page.locator(f"{selector} .card")
    assert cards.evaluate_all("els => els.every(e => e.querySelector('.face'))")
    return cards.evaluate_all("els => els.map(e => e.dataset.card)")


def check_examples(page: Page, lang: str) -> None:
    figures = page.locator("#rules-body figure.rule-example")
    expect(figures).to_have_count(len(EXAMPLES))
    for example in EXAMPLES:
        section = f"#rules-body section.rule[data-rule='{example['rule']}']"
        figure = f"{section} figure[data-example='{example['id']}']"
        expect(page.locator(figure)).to_be_visible()
        expect(page.locator(f"{figure} figcaption")).to_have_text(
            text(lang, f"guide.example_{example['id']}")
        )
        center = page.locator(f"{figure} [data-line='center'] .card")
        assert center.evaluate_all("els => els.map(e => e.dataset.card)") == example["center"]
        every = drawn(page, figure)
        for card in example["hand"]:
            assert card in every, (example["id"], card)
        moves = example.get("moves", [])
        if moves and "@" in moves[0]:
            target = int(moves[0].split("@")[1])
            lit = page.locator(f"{figure} [data-line='center'] .card.ex-target")
            expect(lit).to_have_count(1)
            expect(lit).to_have_attribute("data-card", example["center"][target])
        if "kind" in example:
            expect(page.locator(f"{figure} .ex-kind")).to_contain_text(
                text(lang, f"game.{example['kind']}")
            )
        if "center_after" in example:
            after = page.locator(f"{figure} [data-line='after'] .card")
            assert (
                after.evaluate_all("els => els.map(e => e.dataset.card)") == example["center_after"]
            )
        if "points" in example:
            expect(page.locator(f"{figure} [data-line='points']")).to_have_text(
                text(lang, "guide.ex_points", points=example["points"])
            )


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_rule_has_its_example_drawn_with_card_faces(
    browser: Browser, server: Server, lang: str
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        set_language(page, lang)
        open_rules(page)
        check_examples(page, lang)
        # Words in the player's language, not the English ones.
        if lang != "en":
            assert text(lang, "guide.example_double") != text("en", "guide.example_double")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


def test_the_rules_link_to_the_tutorial_at_the_top_and_from_rules(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, PHONE)
    try:
        open_rules(page)
        top = page.locator("#rules-body > p.learn-intro a")
        expect(top).to_have_attribute("href", "/learn")
        expect(top).to_have_text(text("en", "guide.learn_link"))
        # The top link comes before every rule.
        assert page.evaluate(
            "() => document.querySelector('#rules-body').firstElementChild.matches('p.learn-intro')"
        )
        for rule in ("double", "double_color", "dos"):
            link = page.locator(f"section.rule[data-rule='{rule}'] a.learn-link")
            expect(link).to_have_attribute("href", "/learn")
            expect(link).to_have_text(text("en", "guide.learn_try"))
        set_language(page, "fr")  # the page is drawn again in the new language
        expect(top).to_have_text(text("fr", "guide.learn_link"))
        expect(page.locator("section.rule[data-rule='dos'] a.learn-link")).to_have_text(
            text("fr", "guide.learn_try")
        )
        check_examples(page, "fr")
    finally:
        context.close()
