// @ts-check
// The `classic` rule set's client (RULES.md §9, UNO-style; rulesets.js maps it): its option
// fields, its cards (0-9, Skip, Reverse, Draw Two, Wild, Wild Draw Four), its actions in
// words, its end (the ranking), and its table: the discard pile's top card, the wished
// colour, the pending penalty, the hand, and the reaction test's targets. Loaded at the first
// classic table (or the lobby's classic options, or the rules page).

import { t, tn } from "./i18n.js";
import { cardElement as anyCardElement, colourName, COLOURS } from "./cards.js";
import { parseAction } from "./notation.js";
import { ask } from "./dialog.js";
import { renderPiles } from "./piles.js";
import { fan, placeSeats, nameTag } from "./seats.js";
import { fieldset } from "./lobby.js";
import { playerName, turnText } from "./turn.js";
import { moderationButton } from "./moderationbutton.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @typedef {import("./view").TableModel} TableModel */
/** @typedef {import("./view").Card} Card */

// --- the cards --------------------------------------------------------------------------------

/** @type {Record<string, string>} */
const KEYS = { S: "web.classic_skip", R: "web.classic_reverse", "+2": "web.classic_draw_two" };
/** @type {Record<string, string>} */
const SIGNS = { S: "⊘", R: "⇄", "+2": "+2", W: "W", "+4": "+4" };

/** A classic card in notation ("R7", "GS", "B+2", "W", "W+4=R"), or null.
 * @param {string} text @returns {Card | null} */
export function parseCard(text) {
  const [name, designation = null] = String(text).trim().toUpperCase().split("=");
  if (name === "W" || name === "W+4") {
    return { name, colour: null, rank: name === "W" ? "W" : "+4", number: null, wild: true, designation };
  }
  const m = /^([BGRY])([0-9]|S|R|\+2)$/.exec(name);
  if (!m) return null;
  const number = /^[0-9]$/.test(m[2]) ? Number(m[2]) : null;
  return { name, colour: m[1], rank: m[2], number, wild: false, designation };
}

/** A classic card in words: "red 7", "red Skip", "Wild Draw Four". @param {string} text */
export function cardLabel(text) {
  const card = parseCard(text);
  if (!card) return String(text);
  if (card.name === "W") return t("web.classic_wild");
  if (card.name === "W+4") return t("web.classic_wild_four");
  const colour = COLOURS[String(card.colour)].name;
  if (card.number !== null) return t(`game.card_${colour}`, { number: card.number });
  return t(KEYS[card.rank], { colour: colourName(String(card.colour)) });
}

/** The classic deck (cards.js draws its faces). @type {import("./view").Deck} */
export const DECK = { parse: parseCard, label: cardLabel, sign: (card) => SIGNS[card.rank] ?? card.rank };

/** @param {string} card @param {{interactive?: boolean, extraClass?: string}} [how] */
export const cardElement = (card, how = {}) => anyCardElement(card, { ...how, deck: DECK });

// --- the actions ------------------------------------------------------------------------------

/** The cards an action moves to the discard pile, or null. @param {string} action */
export function cardsMoved(action) {
  const text = String(action).replace(/^\d+:\s*/, "");
  if (text === "draw" || text === "timeout" || text.startsWith("react")) return null;
  return [text.split("=")[0]];
}

/** A classic action in words: play a card (with a wish), draw (one card, or the pending Draw
 * Two / Wild Draw Four cards: `before.pending`), the reaction test.
 * @param {string} text @param {number} seat @param {Partial<import("./view").View> | null} before
 * @param {string[]} names */
export function describe(text, seat, before, names) {
  const who = parseAction(text).seat ?? seat;
  const player = names[who] ?? `#${who + 1}`;
  const action = String(text).replace(/^\d+:\s*/, "");
  if (action === "draw" && before && (before.pending ?? 0) > 0) {
    return t("classic.log_draw_pending", { player, count: before.pending });
  }
  if (action === "draw") return t("game.log_draw", { player });
  if (action === "timeout") return t("web.classic_log_timeout", { player });
  const react = /^react (\d+) (\d+)ms$/.exec(action);
  if (react) return tn("web.classic_log_react", react[1], { player, hits: react[1], ms: react[2] });
  const [card, wish] = action.split("=");
  const played = t("web.classic_log_play", { player, card: cardLabel(card) });
  return wish && COLOURS[wish] ? `${played} ${t("web.classic_log_wish", { colour: colourName(wish) })}` : played;
}

// --- the table --------------------------------------------------------------------------------

/** @typedef {import("./view").TableViewLike} TableViewLike */

/** @implements {TableViewLike} */
export class ClassicView {
  /** @param {import("./view").SendAction} sendAction */
  constructor(sendAction) {
    this.sendAction = sendAction;
    /** @type {TableModel | null} */
    this.model = null;
    this.active = false;  // a classic table is on show: the draw button and the keys act
    /** @type {string | null} */
    this.reactionKey = null;
    this.reactionStart = 0;
    this.hits = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.reactionTimer = undefined;
    $("btn-draw").addEventListener("click", () => {
      if (this.active) this.act("draw");
    });
    document.addEventListener("keydown", (event) => {
      if ($("view-table").hidden || !this.active || !this.view) return;
      const target = event.target instanceof Element ? event.target : document.body;
      if (target.closest("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === "d") {
        this.act("draw");
        event.preventDefault();
      } else if (/^[1-9]$/.test(key) && $("reaction-area")) {
        // The reaction test: the digit printed on a target hits it.
        const hit = /** @type {HTMLElement | null} */ (document.querySelector(`#reaction-area .reaction-target[data-number="${key}"]`));
        if (hit) hit.click();
        event.preventDefault();
      } else if (/^[1-9]$/.test(key)) {
        const card = $(`hand-${Number(key) - 1}`);
        if (card) card.focus();
        event.preventDefault();
      }
    });
  }

  /** The view on show (null before the first render: callers check). */
  get view() {
    return /** @type {import("./view").ClassicView} */ (this.model && this.model.view);
  }

  get legal() {
    return ((this.view && this.view.legal) || []).map((text) => parseAction(text));  // (its `text` is `text`)
  }

  /** @param {number} seat */
  playerName(seat) {
    return playerName(this.model, seat);
  }

  /** @param {TableModel} model */
  render(model) {
    this.model = model;
    const view = this.view;
    const mine = view.turn === view.seat;
    $("round-info").textContent = t("web.rules_classic");
    $("turn-info").textContent = turnText(model, view);
    $("phase-info").textContent = view.pending ? t("web.classic_pending", { count: view.pending }) : "";
    $("pile-info").textContent = t("web.draw_pile_n", { count: view.draw_pile_size });
    $("my-score").textContent = "";
    $("hand-points").textContent = "";  // classic hands score no points (RULES.md §9)
    $("hand-label").textContent = t("game.your_hand");
    this.renderPlayers();
    this.renderPile();
    this.renderHand();
    for (const id of ["btn-lay", "btn-place", "btn-end", "btn-dos", "btn-dos-move"]) $(id).hidden = true;
    $("btn-draw").hidden = false;
    $("catch-buttons").replaceChildren();
    $field("btn-draw").disabled = !this.legal.some((a) => a.text === "draw");
    $("hint").textContent = mine && view.phase !== "over" ? t("web.classic_hint") : "";
    this.renderReaction();
  }

  /** A classic table shows no turn timer. */
  renderTimer() {
    $("timer-info").hidden = true;
  }

  /** Another table is on show: the reaction test goes (its clocks too). */
  leave() {
    this.reactionKey = null;
    clearTimeout(this.reactionTimer);
    clearInterval(this.countdownTimer);
    const area = $("reaction-area");
    if (area) area.remove();
  }

  renderPlayers() {
    const view = this.view;
    const list = $("opponents");
    list.replaceChildren();
    view.hand_sizes.forEach((size, seat) => {
      const player = /** @type {Partial<import("./view").Player>} */ (
        /** @type {TableModel} */ (this.model).players[seat] || {});
      const li = document.createElement("li");
      li.className = "opponent";
      li.dataset.seat = String(seat);
      if (seat === view.seat) li.classList.add("me");
      if (seat === view.turn) li.classList.add("turn");
      const you = seat === view.seat ? ` (${t("game.you")})` : "";
      const name = nameTag(player.seatName || this.playerName(seat), player.level, you);
      const meta = document.createElement("span");
      meta.className = "meta";
      const place = (view.ranking || []).indexOf(seat);
      meta.textContent = [
        t("game.cards_count", { count: size }),
        place >= 0 ? t("web.classic_place", { place: place + 1 }) : "",
        player.bot ? t("web.bot") : player.connected === false ? t("web.disconnected") : t("web.connected"),
      ].filter(Boolean).join(" · ");
      li.append(name, fan(size), meta);
      if (seat !== view.seat && !player.bot) li.append(moderationButton({ name: this.playerName(seat), seat }));
      li.setAttribute("aria-label", `${this.playerName(seat)}${you}: ${meta.textContent}`);
      list.append(li);
    });
    placeSeats(list, view.seat);
  }

  renderPile() {
    const view = this.view;
    $("center-title").textContent = t("game.discard_pile");
    renderPiles(view.draw_pile_size);
    const row = $("center-row");
    row.replaceChildren();
    row.setAttribute("aria-label", t("game.discard_pile"));
    const top = cardElement(view.top, { extraClass: this.lastTop && this.lastTop !== view.top ? "arrive" : "" });
    this.lastTop = view.top;
    const wish = document.createElement("p");
    wish.className = "wish";
    wish.textContent = t("web.classic_colour", { colour: colourName(view.colour) })
      + ` ${COLOURS[view.colour].symbol} · ${view.direction > 0 ? "↻" : "↺"}`;
    row.append(top, wish);
  }

  renderHand() {
    const view = this.view;
    const hand = $("hand");
    hand.replaceChildren();
    hand.setAttribute("aria-label", t("web.your_hand_n", { count: view.hand.length }));
    const plays = this.legal.filter((a) => a.text !== "draw");
    view.hand.forEach((card, index) => {
      const el = cardElement(card, { interactive: true });
      el.id = `hand-${index}`;
      el.dataset.index = String(index);
      const options = plays.filter((a) => /** @type {string} */ (a.text.split(": ").pop()).split("=")[0] === card);
      if (options.length) el.classList.add("playable");
      el.setAttribute("aria-label", `${index < 9 ? `${index + 1}: ` : ""}${cardLabel(card)}`);
      el.addEventListener("click", () => this.play(card, options));
      hand.append(el);
    });
  }

  /** @param {string} card @param {import("./view").ParsedAction[]} options */
  async play(card, options) {
    if (!options.length) {
      $("hint").textContent = t("web.classic_cannot_play");
      return;
    }
    if (options.length === 1) {
      this.sendAction(options[0].text);
      return;
    }
    const choice = await ask(t("web.classic_wish"), cardLabel(card), options.map((a) => {
      const letter = /** @type {string} */ (a.text.split("=").pop());
      return { label: `${COLOURS[letter] ? COLOURS[letter].symbol : ""} ${colourName(letter)}`, value: a.text };
    }));
    if (choice) this.sendAction(choice);
  }

  /** @param {string} kind */
  act(kind) {
    const action = this.legal.find((a) => a.text === kind);
    if (action) this.sendAction(action.text);
  }

  /** The reaction test (RULES.md §9): hit every target before the time runs out. */
  renderReaction() {
    const view = this.view;
    const reaction = view.reaction;
    let area = $("reaction-area");
    if (!reaction || reaction.seat !== view.seat) {
      if (area) area.remove();
      clearTimeout(this.reactionTimer);
      clearInterval(this.countdownTimer);
      this.reactionKey = null;
      return;
    }
    const key = JSON.stringify(reaction.targets);
    if (key === this.reactionKey) return;
    this.reactionKey = key;
    // The server's clock runs from the sending of the state that starts the test: count from
    // its arrival (connection.js shows it at once), not from this drawing.
    this.reactionStart = Math.min(performance.now(), /** @type {TableModel} */ (this.model).receivedAt ?? Infinity);
    this.hits = 0;
    if (area) area.remove();
    area = document.createElement("div");
    area.id = "reaction-area";
    area.className = "reaction-area";
    area.setAttribute("role", "group");
    area.setAttribute("aria-label", t("web.classic_reaction"));
    const title = document.createElement("p");
    title.textContent = t("web.classic_reaction");
    const countdown = document.createElement("p");
    countdown.id = "reaction-countdown";
    countdown.className = "reaction-countdown";
    const bar = document.createElement("div");
    bar.className = "reaction-bar";
    bar.setAttribute("aria-hidden", "true");
    const fill = document.createElement("div");
    bar.append(fill);
    area.append(title, countdown, bar);
    const tick = () => {
      const left = Math.max(0, reaction.time_limit_ms - (performance.now() - this.reactionStart));
      countdown.textContent = t("classic.reaction_countdown", {
        seconds: (left / 1000).toFixed(1), hits: this.hits, targets: reaction.targets.length,
      });
      fill.style.width = `${(100 * left) / reaction.time_limit_ms}%`;
    };
    tick();
    clearInterval(this.countdownTimer);
    this.countdownTimer = setInterval(tick, 100);
    reaction.targets.forEach((target, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "reaction-target";
      button.style.left = `${target.x * 100}%`;
      button.style.top = `${target.y * 100}%`;
      button.textContent = String(index + 1);
      button.dataset.number = String(index + 1);
      button.setAttribute("aria-label", t("web.classic_target", { number: index + 1 }));
      button.addEventListener("click", () => {
        button.remove();
        this.hits += 1;
        if (this.hits === reaction.targets.length) this.finishReaction();
      });
      area.append(button);
    });
    $("view-table").append(area);
    const first = area.querySelector("button");
    if (first) first.focus();
    clearTimeout(this.reactionTimer);
    this.reactionTimer = setTimeout(() => this.finishReaction(), reaction.time_limit_ms + 250);
  }

  finishReaction() {
    clearTimeout(this.reactionTimer);
    clearInterval(this.countdownTimer);
    if (this.reactionKey === null) return;
    const elapsed = Math.round(performance.now() - this.reactionStart);
    const area = $("reaction-area");
    if (area) area.remove();
    this.reactionKey = "done";
    this.sendAction(this.hits ? `react ${this.hits} ${elapsed}ms` : "timeout");
  }
}

// --- the client ---------------------------------------------------------------------------------

/** The classic rule set's table client. @type {import("./view").TableClient} */
const TABLE = {
  describe,
  outcome: () => [],
  cardLabel,
  cardElement: (card) => cardElement(card),
  cardsMoved,
  flyTarget: () => {
    const card = $("center-row").querySelector(".card");
    return card ? card.getBoundingClientRect() : null;
  },
  makeTableView: (sendAction) => new ClassicView(sendAction),
  /** The end of a classic game: the ranking (RULES.md §9). */
  ending(view, names) {
    const list = document.createElement("ol");
    for (const seat of view.ranking || []) {
      const li = document.createElement("li");
      li.textContent = names[seat];
      list.append(li);
    }
    return list;
  },
  replayCenter(position) {
    const title = document.createElement("h3");
    title.textContent = t("game.discard_pile");
    const row = document.createElement("div");
    row.className = "center-row";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", t("game.discard_pile"));
    for (const card of (position.discard || []).slice(-1)) row.append(cardElement(card));
    return [title, row];
  },
};

/** The classic rule set's client (rulesets.js). @type {import("./view").RulesClient} */
export default {
  optionsPanel: () => fieldset([
    { name: "reaction_seconds", id: "create-reaction", key: "web.opt_reaction_seconds", min: 0.2, max: 60, step: 0.1, value: 3 },
    { name: "penalty_cards", id: "create-penalty", key: "web.opt_penalty_cards", min: 0, max: 10, value: 1 },
    { name: "stacking", id: "create-stacking", key: "web.opt_stacking", checked: true },
  ]),
  optionsOf: (form) => ({
    reaction_time_ms: Math.round(Number(form.reaction_seconds.value) * 1000),
    penalty_cards: Number(form.penalty_cards.value),
    stacking: form.stacking.checked,
  }),
  help: {
    title: "web.rules_classic_title",
    paragraphs: ["classic.help_goal", "classic.help_turn", "classic.help_special",
      "classic.help_wild", "classic.help_reaction"],
  },
  table: async () => TABLE,
};
