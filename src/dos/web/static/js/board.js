// @ts-check
// The official table's board, drawn from the view on show (table.js keeps what is selected and
// acts): the players around the table top, the Center Row with the cards matched this turn
// and the targets the selection can match, and the hand with what can be played or laid.
// Where the keyboard was stays where it was: the same card, else its neighbour.

import { t } from "./i18n.js";
import { cardElement, cardLabel } from "./cards.js";
import { targetsFor, playableCards } from "./actions.js";
import { renderPiles } from "./piles.js";
import { fan, placeSeats, nameTag } from "./seats.js";
import { playerName } from "./turn.js";
import { moderationButton } from "./moderationbutton.js";

/** @typedef {import("./view").OfficialView} OfficialView */
/** @typedef {import("./view").TableModel} TableModel */
/** @typedef {import("./view").ParsedAction} ParsedAction */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** The element with the keyboard, if it is one of the page's (not the body). */
const active = () => /** @type {HTMLElement | null} */ (document.activeElement);

/** Each seat around the table top: name (a bot's level apart), cards, score, connection, an
 * open DOS obligation; the turn marked. @param {OfficialView} view @param {TableModel} model */
export function drawPlayers(view, model) {
  const list = $("opponents");
  list.replaceChildren();
  list.setAttribute("aria-label", t("game.players"));
  view.hand_sizes.forEach((size, seat) => {
    const player = /** @type {Partial<import("./view").Player>} */ (model.players[seat] || {});
    const li = document.createElement("li");
    li.className = "opponent";
    li.dataset.seat = String(seat);
    if (seat === view.seat) li.classList.add("me");
    if (seat === view.turn && view.phase !== "over") {
      li.classList.add("turn");
      li.setAttribute("aria-current", "true");
    }
    // The name, and a bot's level apart from it (seats.js): neither cuts the other.
    const you = seat === view.seat ? ` (${t("game.you")})` : "";
    const name = nameTag(player.seatName || playerName(model, seat), player.level, you);
    const meta = document.createElement("span");
    meta.className = "meta";
    const cards = document.createElement("span");
    cards.className = "hand-size";
    cards.textContent = t("game.cards_count", { count: size });
    const score = document.createElement("span");
    score.textContent = t("web.score_n", { score: view.scores[seat] });
    const conn = document.createElement("span");
    conn.className = "conn";
    if (player.away) {
      conn.textContent = t("web.away");
      conn.classList.add("off");
    } else if (player.bot) conn.textContent = t("web.bot");
    else if (player.connected === false) {
      conn.textContent = t("web.disconnected");
      conn.classList.add("off");
    } else conn.textContent = t("web.connected");
    meta.append(cards, score, conn);
    if ((view.dos_open || []).includes(seat)) {
      const flag = document.createElement("span");
      flag.className = "dosflag";
      flag.textContent = t("web.two_cards_flag");
      meta.append(flag);
    }
    li.append(name, fan(size), meta);
    // Mute, block or report another person (moderationbutton.js).
    if (seat !== view.seat && !player.bot) li.append(moderationButton({ name: playerName(model, seat), seat }));
    const turnWord = seat === view.turn && view.phase !== "over" ? `, ${t("web.their_turn")}` : "";
    li.setAttribute("aria-label", `${playerName(model, seat)}${you}: ${cards.textContent}, ${score.textContent}, ${conn.textContent}${turnWord}`);
    list.append(li);
  });
  placeSeats(list, view.seat);
}

/**
 * The piles and the Center Row: each card a button (a click matches the selection on it),
 * the cards matched on it this turn, lit when the selected cards can match it; a card new
 * since `previousKey` (the row drawn before, its cards joined) arrives.
 * @param {OfficialView} view @param {ParsedAction[]} legal @param {number[]} selected
 * @param {string} previousKey @param {(index: number) => void} onPick
 * @returns {string} this row's key
 */
export function drawCenter(view, legal, selected, previousKey, onPick) {
  renderPiles(view.draw_pile_size, view.discard || []);
  const row = $("center-row");
  row.setAttribute("aria-label", t("game.center_row"));
  const previous = new Set(previousKey ? previousKey.split(",") : []);
  const matched = new Map((view.matched || []).map((m) => [m.target, m.cards]));
  const selectedCards = selected.map((i) => view.hand[i]);
  const targets = selectedCards.length ? targetsFor(legal, selectedCards) : new Set();
  const focus = active();
  const focused = focus && focus.closest("#center-row") ? focus.dataset.index : null;
  row.replaceChildren();
  view.center.forEach((card, index) => {
    const slot = document.createElement("div");
    slot.className = "center-slot";
    const el = cardElement(card, { interactive: true });
    el.dataset.index = String(index);
    el.id = `center-${index}`;
    let label = `${index + 1}: ${cardLabel(card)}`;
    if (matched.has(index)) {
      el.classList.add("matched");
      label += `, ${t("web.matched_with", { cards: (matched.get(index) || []).map(cardLabel).join(", ") })}`;
    }
    if (targets.has(index)) {
      el.classList.add("target");
      label += `, ${t("web.can_match")}`;
    } else el.setAttribute("aria-disabled", "true");
    if (previousKey && !previous.has(card)) el.classList.add("arrive");
    el.setAttribute("aria-label", label);
    el.addEventListener("click", () => onPick(index));
    const number = document.createElement("span");
    number.className = "index";
    number.textContent = String(index + 1);
    number.setAttribute("aria-hidden", "true");
    // The number above the card, and a row below it kept for the cards matched onto it
    // (empty or not): the slot's size never changes, and nothing covers the number.
    const played = document.createElement("div");
    played.className = "played";
    for (const c of matched.get(index) || []) played.append(cardElement(c, { extraClass: "arrive" }));
    slot.append(number, el, played);
    row.append(slot);
  });
  if (focused !== null) {
    // Keep the keyboard where it was: the same Center Row place, else the hand.
    const again = /** @type {HTMLElement | null} */ (row.querySelector(`button[data-index="${focused}"]`)) || $("hand-0");
    if (again) again.focus();
  }
  return view.center.join(",");
}

/**
 * The hand: each card a button (a click selects it), marked when it takes part in a legal
 * match or can be laid (placed); a card new since `previousKey` (the hand drawn before)
 * arrives, unless the hand is the same (`handKey`).
 * @param {OfficialView} view @param {ParsedAction[]} legal @param {number[]} selected
 * @param {string} handKey @param {string} previousKey @param {(index: number) => void} onToggle
 */
export function drawHand(view, legal, selected, handKey, previousKey, onToggle) {
  const hand = $("hand");
  hand.setAttribute("aria-label", t("web.your_hand_n", { count: view.hand.length }));
  const playable = playableCards(legal);
  // After a fruitless draw (or for a bonus): the cards that can be laid (placed) are marked.
  const layable = new Set(legal.filter((a) => a.kind === "lay" || a.kind === "place")
    .map((a) => a.cards[0]));
  const before = previousKey ? previousKey.split(",") : [];
  /** @type {(string | null)[]} the cards new in the hand (the others null) */
  const fresh = [...view.hand];
  for (const card of before) {
    const at = fresh.indexOf(card);
    if (at >= 0) fresh[at] = null;
  }
  const focus = active();
  const focused = focus && focus.closest("#hand") ? focus.dataset.index : null;
  hand.replaceChildren();
  view.hand.forEach((card, index) => {
    const el = cardElement(card, { interactive: true });
    el.dataset.index = String(index);
    el.id = `hand-${index}`;
    const isSelected = selected.includes(index);
    el.setAttribute("aria-pressed", isSelected ? "true" : "false");
    if (isSelected) el.classList.add("selected");
    if (playable.has(card.split("=")[0])) el.classList.add("playable");
    if (layable.has(card)) el.classList.add("layable");
    if (handKey !== previousKey && previousKey && fresh[index] !== null) el.classList.add("arrive");
    el.setAttribute("aria-label", `${index < 9 ? `${index + 1}: ` : ""}${cardLabel(card)}`
      + (layable.has(card) ? `, ${t("web.can_lay")}` : ""));
    el.addEventListener("click", () => onToggle(index));
    hand.append(el);
  });
  if (focused !== null) {
    const again = /** @type {HTMLElement | null} */ (
      hand.querySelector(`[data-index="${focused}"]`) || hand.lastElementChild);
    if (again) again.focus();
  }
}
