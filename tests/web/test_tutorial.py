"""The tutorial (/learn) in headless Chromium: a learner walks every lesson by
following its prompts only (pressing the lit cards and buttons), in English on a desktop and
in French on a phone; a wrong move is refused and explained in the rule's words; a reload
resumes where the learner was; the keyboard plays a step as in the game."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from dos import learn
from dos.i18n import text
from dos.i18n.explain import render

from .conftest import DESKTOP, PHONE, Server
from .pages import WAIT_MS, open_page, set_language
from .test_accessibility import AXE, axe_violations


def answers(page: Page) -> int:
    """How many answers of the lesson runner the page has shown."""
    return int(page.locator("#view-learn").get_attribute("data-answers") or "0")


def wait_answer(page: Page, before: int) -> None:
    """Waits until an answer after the ``before``-th one shows."""
    page.wait_for_function(
        "n => Number(document.getElementById('view-learn').dataset.answers || 0) > n",
        arg=before,
        timeout=WAIT_MS,
    )


def open_learn(browser: Browser, server: Server, viewport: dict[str, int], lang: str) -> Page:
    _context, page = open_page(browser, server.url + "/learn", viewport)
    expect(page.locator("#view-learn")).to_be_visible()
    expect(page.locator("#view-learn")).to_have_attribute("data-status", "play")
    set_language(page, lang)
    return page


# The toggle "DOS! with this move" is offered, not the step itself (its move is lit).
LIT_BUTTONS = "#learn-actions button.lit:not(#learn-dos-move)"
LIT_HAND = "#learn-hand button.card.lit"

# At one instant: the answers shown, the first lit button's id ('' for none, null when no
# button is lit) and how many cards of the hand are lit.
PROMPT_JS = f"""() => {{
  const button = document.querySelector('{LIT_BUTTONS}');
  return [Number(document.getElementById('view-learn').dataset.answers || 0),
          button ? button.id : null, document.querySelectorAll('{LIT_HAND}').length];
}}"""


def follow_prompt(page: Page) -> None:
    """Does the step the page asks for, by its lit cards and buttons only."""
    before, kind, lit_cards = page.evaluate(PROMPT_JS)
    lit_hand = page.locator(LIT_HAND)
    if kind is not None:
        if kind in ("learn-lay", "learn-place"):
            lit_hand.first.click()
        page.locator(LIT_BUTTONS).first.click()
    else:
        for index in range(lit_cards):
            lit_hand.nth(index).click()
        page.locator("#learn-center button.card.lit").first.click()
    wait_answer(page, before)


def no_axe_violations(page: Page, screen: str) -> None:
    """axe-core (as tests/web/test_accessibility.py runs it) finds nothing on the page."""
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `npm ci` (make test does)")
    found: dict[str, object] = {}
    axe_violations(page, screen, found)
    assert found == {}


def walk(page: Page, lang: str) -> None:
    """Every lesson, in order, by the prompts; each prompt is the catalog's in ``lang``."""
    lessons = learn.lessons()
    no_axe_violations(page, "a lesson")
    for number, lesson in enumerate(lessons, start=1):
        view = page.locator("#view-learn")
        expect(view).to_have_attribute("data-lesson", lesson.id)
        expect(page.locator("#learn-lesson-title")).to_have_text(text(lang, lesson.title))
        for step_number, step in enumerate(lesson.steps):
            expect(view).to_have_attribute("data-step", str(step_number))
            expect(view).to_have_attribute("data-status", "play")
            expect(page.locator("#learn-prompt")).to_have_text(text(lang, step.prompt))
            follow_prompt(page)
        expect(view).to_have_attribute("data-status", "finished")
        expect(page.locator("#learn-wrong")).to_be_hidden()
        if number < len(lessons):
            page.locator("#learn-next").click()
    finished = learn.run(lessons[-1], [s.goals[0] for s in lessons[-1].steps])
    done = render(lang, finished.prompt)
    expect(page.locator("#learn-prompt")).to_have_text(f"{done} {text(lang, 'learn.all_done')}")
    expect(page.locator("#learn-play")).to_be_visible()
    marks = page.locator("#learn-lessons .learn-done")
    expect(marks).to_have_count(len(lessons))
    no_axe_violations(page, "the tutorial finished")


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("fr", PHONE)])
def test_the_whole_tutorial_walked_by_its_prompts(
    browser: Browser, server: Server, lang: str, viewport: dict[str, int]
) -> None:
    page = open_learn(browser, server, viewport, lang)
    walk(page, lang)
    # A phone shows it all without sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_wrong_move_is_refused_and_explained_then_resumed(
    browser: Browser, server: Server
) -> None:
    lang = "de"
    page = open_learn(browser, server, DESKTOP, lang)
    first = learn.lessons()[0]
    wrong = page.locator("#learn-wrong")
    # A legal move that is not the step's: the step's own explanation.
    before = answers(page)
    page.locator("#learn-draw").click()
    wait_answer(page, before)
    expect(wrong).to_have_text(f"{text(lang, 'learn.wrong')} {text(lang, first.steps[0].wrong)}")
    expect(page.locator("#view-learn")).to_have_attribute("data-step", "0")
    expect(page.locator("#learn-hand button.card")).to_have_count(6)  # nothing was drawn
    # An illegal one: the engine's refusal, in the rule's words.
    refusal = learn.run(first, ["B7@1"]).explanation
    assert refusal is not None and refusal.key == "game.err_no_number_match"
    before = answers(page)
    page.locator("#learn-hand button.card.lit").first.click()
    page.locator("#learn-center-1").click()
    wait_answer(page, before)
    expect(wrong).to_have_text(f"{text(lang, 'learn.wrong')} {render(lang, refusal)}")
    no_axe_violations(page, "a refused move")
    # The keyboard, as in the game: the lit card's number, T to the lit target, Enter.
    lit = page.locator("#learn-hand button.card.lit").first.get_attribute("data-index")
    before = answers(page)
    page.keyboard.press(str(int(lit or "0") + 1))
    page.keyboard.press("t")
    expect(page.locator("#learn-center-0")).to_be_focused()
    page.keyboard.press("Enter")
    wait_answer(page, before)
    expect(wrong).to_be_hidden()
    expect(page.locator("#learn-prompt")).to_have_text(text(lang, first.steps[1].prompt))
    # Leave and come back: the lesson resumes at the step it was on.
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#view-learn")).to_have_attribute("data-step", "1")
    expect(page.locator("#learn-prompt")).to_have_text(text(lang, first.steps[1].prompt))
    page.locator("#learn-leave").click()
    expect(page.locator("#view-lobby")).to_be_visible()
    page.locator("#nav-learn").click()
    expect(page.locator("#view-learn")).to_have_attribute("data-step", "1")
    assert page.errors == []  # type: ignore[attr-defined]
