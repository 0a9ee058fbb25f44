// @ts-check
// A newcomer's first steps: the tutorial offered in the lobby to a visitor who has
// never played, until they follow or dismiss it; and the bots' level for someone who has not
// finished a game yet: easy unless they chose another, each level's strength said in words.
// What it remembers is in localStorage, beside the rest of the browser's memory (session.js).

import { t, has } from "./i18n.js";
import * as session from "./session.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const OFFER = "dos.guide.offer";  // "dismissed" or "followed": the offer is answered
const FINISHED = "dos.guide.finished";  // "1": this browser's player finished a game

/** A first table's level: the bots lose, so the first game teaches rather than punishes. */
export const NEWCOMER_LEVEL = "easy";
/** The level offered to whoever has finished a game and chose none. */
export const RETURNING_LEVEL = "medium";

/** Where the tutorial lives (another page of the same server). */
export const LEARN_URL = "/learn";

export const hasFinished = () => localStorage.getItem(FINISHED) === "1";

/** This browser's player finished a game (a seat at a table whose game ended). */
export function markFinished() {
  localStorage.setItem(FINISHED, "1");
}

/** Whether this browser shows a sign of having played: a finished game, a seat it keeps, or
 * a player (session.js keeps those from the first table on). */
export function hasPlayed() {
  if (hasFinished() || localStorage.getItem("dos.player_id")) return true;
  for (let i = 0; i < localStorage.length; i++) {
    if ((localStorage.key(i) || "").startsWith("dos.seat.")) return true;
  }
  return false;
}

/** The level a bot menu starts at: the player's last choice remembered under `key` while it
 * is still offered, else easy until a game is finished, then medium.
 * @param {string[]} levels @param {string | null} key */
export function defaultLevel(levels, key) {
  const kept = key ? localStorage.getItem(key) : null;
  if (kept && levels.includes(kept)) return kept;
  const wanted = hasFinished() ? RETURNING_LEVEL : NEWCOMER_LEVEL;
  return levels.includes(wanted) ? wanted : levels[0];
}

/** A level's strength in words for a rule set ("easy: plays any legal move at random; ...");
 * a level the catalog does not describe (a server's own) by its name alone.
 * @param {string} level @param {string} rules */
export function levelWords(level, rules) {
  // A rule set whose levels play differently has words of its own for them.
  const own = `guide.level_words_${rules}_${level}`;
  const key = has(own) ? own : `guide.level_words_${level}`;
  const name = has(`web.level_${level}`) ? t(`web.level_${level}`) : level;
  return has(key) ? t("guide.level_said", { level: name, words: t(key) }) : name;
}

/** The words under a level menu of rule set `rules`: a paragraph after `anchor`, which
 * describes `select`. @param {HTMLSelectElement} select @param {Element} anchor
 * @param {string} id @param {string} rules */
export function describeLevel(select, anchor, id, rules) {
  let words = $(id);
  if (!words) {
    words = document.createElement("p");
    words.id = id;
    words.className = "level-words";
    anchor.after(words);
    select.setAttribute("aria-describedby", id);
  }
  words.textContent = levelWords(select.value, rules);
  return words;
}

/** The offer of the tutorial at the top of the lobby: a panel with a link and "No, thanks",
 * never a modal. Shown while the visitor has neither played nor answered it. */
export class TutorialOffer {
  constructor() {
    session.onChange(() => this.render());  // seated at a first table: the offer goes
  }

  render() {
    const shown = $("tutorial-offer");
    if (localStorage.getItem(OFFER) || hasPlayed()) {
      if (shown) shown.remove();
      return;
    }
    const box = /** @type {HTMLElement} */ (shown || this.build());
    /** @param {string} selector */
    const part = (selector) => /** @type {HTMLElement} */ (box.querySelector(selector));
    part("h3").textContent = t("guide.offer_title");
    part("p").textContent = t("guide.offer_text");
    part("a").textContent = t("guide.offer_start");
    part("button").textContent = t("guide.offer_dismiss");
  }

  build() {
    const box = document.createElement("section");
    box.id = "tutorial-offer";
    box.className = "panel tutorial-offer";
    box.setAttribute("aria-labelledby", "tutorial-offer-title");
    const title = document.createElement("h3");
    title.id = "tutorial-offer-title";
    const text = document.createElement("p");
    const start = document.createElement("a");
    start.href = LEARN_URL;
    start.id = "tutorial-offer-start";
    start.className = "offer-start";
    // Followed: remembered before the page goes, so that the lobby never offers it again.
    start.addEventListener("click", () => localStorage.setItem(OFFER, "followed"));
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.id = "tutorial-offer-dismiss";
    dismiss.className = "secondary";
    dismiss.addEventListener("click", () => {
      localStorage.setItem(OFFER, "dismissed");
      box.remove();
      // The keyboard goes on from the lobby's title, not from the page's start.
      const heading = $("lobby-title");
      heading.tabIndex = -1;
      heading.focus();
    });
    box.append(title, text, start, dismiss);
    $("lobby-title").after(box);
    return box;
  }
}
