"""The last lesson's points come from cards it shows, and DOS! is lit only when a step asks.

The round ends with the learner going out: the points scored are the cards left in the other
hand, which the lesson never showed; its last words name those cards. The DOS! button stands
in every lesson, and looks like the other buttons until a step lights it.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from dos import learn
from dos.i18n.describe import card_name
from dos.rules.official.cards import parse_card

from .conftest import PHONE, Server
from .test_tutorial import follow_prompt, open_learn

BACKGROUND_JS = "id => getComputedStyle(document.getElementById(id)).backgroundColor"


def test_the_last_lesson_names_the_cards_it_scores(browser: Browser, server: Server) -> None:
    lesson = learn.lessons()[-1]
    page = open_learn(browser, server, PHONE, "ja")
    try:
        page.locator(f"#learn-lessons button[data-lesson='{lesson.id}']").click()
        view = page.locator("#view-learn")
        expect(view).to_have_attribute("data-lesson", lesson.id)
        # Nothing asks for DOS! here: it looks like Draw, not lit.
        assert page.evaluate(BACKGROUND_JS, "learn-dos") == page.evaluate(
            BACKGROUND_JS, "learn-draw"
        )
        follow_prompt(page)
        expect(view).to_have_attribute("data-status", "finished")
        said = page.locator("#learn-prompt").inner_text()
        others = [h for seat, h in enumerate(lesson.position["hands"]) if seat != lesson.seat]
        for card in [c for hand in others for c in hand]:
            assert card_name("ja", parse_card(card)) in said, (card, said)
        assert "..." not in said and "。。" not in said
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
