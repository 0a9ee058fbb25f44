// @ts-check
// The draw pile and the discard pile, drawn as piles beside the Center Row (or the draw pile
// alone, beside a table's own discard): a stack of card backs with its count, and the discard
// pile's top card.

import { t } from "./i18n.js";
import { cardElement, cardLabel } from "./cards.js";

function back() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");  // its "DOS" logo is drawn by CSS: a picture
  return el;
}

/** @param {string} kind @param {string} title @param {number} count @param {string | null} top */
function pile(kind, title, count, top) {
  const box = document.createElement("div");
  box.className = `pile ${kind}`;
  box.setAttribute("role", "img");
  const stack = document.createElement("div");
  stack.className = "stack";
  const layers = Math.min(3, Math.max(count, 0));
  for (let i = 0; i < layers; i++) stack.append(i === layers - 1 && top ? cardElement(top) : back());
  if (!layers) stack.classList.add("empty");
  for (const card of stack.querySelectorAll(".card")) {
    card.setAttribute("aria-hidden", "true");
    card.removeAttribute("role");
    card.removeAttribute("aria-label");
    card.removeAttribute("data-card");  // a picture of the pile, not a card to play
  }
  const caption = document.createElement("span");
  caption.className = "pile-count";
  const name = document.createElement("span");
  name.className = "pile-name";
  name.textContent = title;
  const number = document.createElement("strong");
  number.textContent = String(count);
  caption.append(name, number);
  caption.setAttribute("aria-hidden", "true");
  box.setAttribute("aria-label", `${title}: ${t("game.cards_count", { count })}`
    + (top ? `, ${cardLabel(top)}` : ""));
  box.append(stack, caption);
  return box;
}

/** Fills #piles: the draw pile, and the discard pile when `discard` is given.
 * @param {number} drawCount @param {string[] | null} [discard] */
export function renderPiles(drawCount, discard = null) {
  const box = /** @type {HTMLElement} */ (document.getElementById("piles"));
  box.replaceChildren(pile("draw", t("game.draw_pile"), drawCount, null));
  if (discard) box.append(pile("discard", t("game.discard_pile"), discard.length, discard[discard.length - 1]));
}
