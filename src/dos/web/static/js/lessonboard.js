// @ts-check
// The tutorial's table (tutorial.js): the players, the Center Row, the hand and the buttons of a
// lesson's step, drawn from the lesson runner's answer, with what does the step lit (cards,
// targets, buttons, the seats to catch).

import { t } from "./i18n.js";
import { cardElement, cardLabel } from "./cards.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @template {keyof HTMLElementTagNameMap} K @param {K} tag */
function el(tag, { className = "", text = "" } = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** The players: names, cards, scores, an open DOS obligation; the turn marked.
 * @param {any} answer  the lesson runner's answer @param {string[]} names */
export function drawPlayers(answer, names) {
  const view = answer.view;
  const list = $("learn-players");
  list.replaceChildren();
  list.setAttribute("aria-label", t("game.players"));
  view.hand_sizes.forEach((/** @type {number} */ size, /** @type {number} */ seat) => {
    const li = el("li", { className: "learn-player" });
    li.dataset.seat = String(seat);
    if (seat === view.turn && view.phase !== "over") {
      li.classList.add("turn");
      li.setAttribute("aria-current", "true");
    }
    const parts = [names[seat], t("game.cards_count", { count: size }), t("web.score_n", { score: view.scores[seat] })];
    if ((view.dos_open || []).includes(seat)) parts.push(t("web.two_cards_flag"));
    li.textContent = parts.join(" · ");
    list.append(li);
  });
}

/** The Center Row: the cards matched this turn, the step's targets lit.
 * @param {any} answer @param {(index: number) => void} onPick */
export function drawCenter(answer, onPick) {
  const view = answer.view;
  const lit = new Set(answer.lit.center);
  const matched = new Map((view.matched || []).map((/** @type {{target: number, cards: string[]}} */ m) => [m.target, m.cards]));
  const row = $("learn-center");
  $("learn-center-title").textContent = t("game.center_row");
  row.replaceChildren();
  view.center.forEach((/** @type {string} */ card, /** @type {number} */ index) => {
    const slot = el("div", { className: "center-slot" });
    const b = cardElement(card, { interactive: true });
    b.id = `learn-center-${index}`;
    b.dataset.index = String(index);
    let label = `${index + 1}: ${cardLabel(card)}`;
    if (matched.has(index)) {
      b.classList.add("matched");
      label += `, ${t("web.matched_with", { cards: matched.get(index).map(cardLabel).join(", ") })}`;
    }
    if (lit.has(index)) {
      b.classList.add("target", "lit");
      label += `, ${t("web.can_match")}`;
    }
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => onPick(index));
    slot.append(b);
    if (matched.has(index)) {
      const played = el("div", { className: "played" });
      for (const c of matched.get(index)) played.append(cardElement(c));
      slot.append(played);
    }
    row.append(slot);
  });
}

/** The hand: the cards selected, the step's cards lit.
 * @param {any} answer @param {number[]} selected @param {(index: number) => void} onToggle */
export function drawHand(answer, selected, onToggle) {
  const view = answer.view;
  const lit = new Set(answer.lit.hand);
  const hand = $("learn-hand");
  $("learn-hand-title").textContent = t("game.your_hand");
  hand.replaceChildren();
  view.hand.forEach((/** @type {string} */ card, /** @type {number} */ index) => {
    const b = cardElement(card, { interactive: true });
    b.id = `learn-hand-${index}`;
    b.dataset.index = String(index);
    const chosen = selected.includes(index);
    b.setAttribute("aria-pressed", String(chosen));
    if (chosen) b.classList.add("selected");
    if (lit.has(index)) b.classList.add("playable", "lit");
    b.setAttribute("aria-label", `${index < 9 ? `${index + 1}: ` : ""}${cardLabel(card)}`);
    b.addEventListener("click", () => onToggle(index));
    hand.append(b);
  });
}

/** The buttons, the step's lit, none once the lesson is done; Catch! for each player with an
 * open DOS! (and each seat the step asks to catch). @param {any} answer @param {string[]} names
 * @param {(seat: number) => void} onCatch */
export function drawButtons(answer, names, onCatch) {
  const lit = new Set(answer.lit.buttons);
  const finished = answer.status === "finished";
  for (const [id, kind] of [["learn-draw", "draw"], ["learn-lay", "lay"], ["learn-place", "place"],
    ["learn-end", "end"], ["learn-dos", "dos"]]) {
    const b = /** @type {HTMLButtonElement} */ ($(id));
    b.disabled = finished;
    b.classList.toggle("lit", lit.has(kind));
    b.classList.toggle("urgent", lit.has(kind) && kind === "dos");
  }
  const view = answer.view;
  const seats = new Set([...(view.dos_open || []).filter((/** @type {number} */ s) => s !== answer.seat), ...answer.lit.seats]);
  const box = $("learn-catches");
  box.replaceChildren();
  for (const seat of [...seats].sort()) {
    const b = el("button", { className: "catch-button", text: t("web.catch_name", { name: names[seat] }) });
    b.type = "button";
    b.dataset.seat = seat;
    b.disabled = finished;
    if (answer.lit.seats.includes(seat)) b.classList.add("lit");
    b.addEventListener("click", () => onCatch(seat));
    box.append(b);
  }
}
