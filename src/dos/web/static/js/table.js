// @ts-check
// The official table: the status bar, the action buttons and the keys, and what the player
// has selected. Plays by selection: one or two hand cards, then a lit Center Row card (the
// board itself is drawn by board.js). DOS! and Catch! follow the newest state received.

import { t, tn } from "./i18n.js";
import { cardPoints } from "./cards.js";
import {
  targetsFor, matchKindKey, dosWithMove, callsDos, race, catchToSend, matchOfSelection,
  layOfSelection,
} from "./actions.js";
import { parseAction } from "./notation.js";
import { ask, moveBody } from "./dialog.js";
import { drawPlayers, drawCenter, drawHand } from "./board.js";
import { playerName, turnText, renderTimer } from "./turn.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** A button of the page by id. @param {string} id */
const $button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** The element with the keyboard, if it is one of the page's (not the body). */
const active = () => /** @type {HTMLElement | null} */ (document.activeElement);

/** @typedef {import("./view").OfficialView} OfficialView */
/** @typedef {import("./view").TableModel} TableModel */
/** @typedef {import("./view").ParsedAction} ParsedAction */

/** @typedef {import("./view").TableViewLike} TableViewLike */

/** @implements {TableViewLike} */
export class TableView {
  /** @param {import("./view").SendAction} sendAction  sends one action in notation */
  constructor(sendAction) {
    this.sendAction = sendAction;
    /** @type {TableModel | null} */
    this.model = null;
    this.active = false;  // the table on show is an official one: the buttons and keys act
    /** @type {number[]} the hand's selected cards, by index */
    this.selected = [];
    // "DOS! with this move": the next move that leaves two cards carries the call.
    this.dosWithMove = false;
    // Caught since one's last move: the hint says that "DOS! with this move" exists.
    this.caught = false;
    /** @type {number | null} how much of the game's history was drawn (null: none yet) */
    this.historyDrawn = null;
    /** @type {{seat: number, version: number | null} | null} */
    this.pressed = null;  // the Catch! pressed: {seat, version of the newest state then}
    this.handKey = "";
    this.centerKey = "";
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timerHandle = undefined;
    // The buttons are the page's, shared by every rule set's table: they act while this one is
    // on show.
    /** @param {() => void} handler */
    const mine = (handler) => () => {
      if (this.active) handler();
    };
    $("btn-draw").addEventListener("click", mine(() => this.act("draw")));
    $("btn-end").addEventListener("click", mine(() => this.act("end")));
    $("btn-lay").addEventListener("click", mine(() => this.layOrPlace("lay")));
    $("btn-place").addEventListener("click", mine(() => this.layOrPlace("place")));
    $("btn-dos").addEventListener("click", mine(() => this.act("dos")));
    $("btn-dos-move").addEventListener("click", mine(() => this.toggleDosWithMove()));
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** The view on show (official rules; null before the first render: callers check). */
  get view() {
    return /** @type {OfficialView} */ (this.model && this.model.view);
  }

  /** @returns {ParsedAction[]} */
  get legal() {
    return ((this.view && this.view.legal) || []).map(parseAction);
  }

  /** @param {number} seat */
  playerName(seat) {
    return playerName(this.model, seat);
  }

  /** Draws everything from the model {view, players, me, timer...}. @param {TableModel} model */
  render(model) {
    this.model = model;
    const view = model.view;
    if (!view) return;
    const handKey = view.hand.join(",");
    if (handKey !== this.handKey) {
      this.selected = [];
      this.dosWithMove = false;
    }
    this.noticeCatches();
    this.renderStatus();
    drawPlayers(this.view, model);
    this.centerKey = drawCenter(this.view, this.legal, this.selected, this.centerKey, (i) => this.matchOn(i));
    drawHand(this.view, this.legal, this.selected, handKey, this.handKey, (i) => this.toggle(i));
    this.renderButtons();
    this.renderHint();
    this.handKey = handKey;
  }

  renderStatus() {
    const view = this.view;
    $("round-info").textContent = t("game.round_number", { round: view.round });
    $("turn-info").textContent = turnText(/** @type {TableModel} */ (this.model), view);
    // At the end the turn line already says "Game over": no second "game over".
    $("phase-info").textContent = view.phase === "over" ? "" : t(`game.phase_${view.phase}`);
    $("pile-info").textContent = t("web.draw_pile_n", { count: view.draw_pile_size });
    $("center-title").textContent = t("game.center_row");
    $("hand-label").textContent = t("game.your_hand");
    // The score is the game's, named so; the hand's value is its cards' points (RULES.md §7).
    const points = view.hand.reduce((sum, card) => sum + cardPoints(card), 0);
    $("hand-points").textContent = tn("web.hand_points", points, { points });
    $("my-score").textContent = t("web.your_score", { score: view.scores[view.seat ?? -1] });
    this.renderTimer();
  }

  renderTimer() {
    this.timerHandle = renderTimer(/** @type {TableModel} */ (this.model), this.timerHandle);
  }

  renderButtons() {
    const legal = this.legal;
    const kinds = new Set(legal.map((a) => a.kind));
    const one = this.selected.length === 1 ? this.view.hand[this.selected[0]] : null;
    /** @param {string} kind */
    const canWith = (kind) => one !== null && legal.some((a) => a.kind === kind && a.cards[0] === one);
    $("btn-draw").hidden = false;
    $button("btn-draw").disabled = !kinds.has("draw");
    $("btn-end").hidden = false;
    $button("btn-end").disabled = !kinds.has("end");
    // Lay and Place are offered as soon as they are legal: pressed with no card selected,
    // they say to pick one and take the keyboard to the first card that can go.
    $("btn-lay").hidden = !kinds.has("lay");
    $button("btn-lay").disabled = !kinds.has("lay");
    $("btn-lay").classList.toggle("ready", canWith("lay"));
    $("btn-place").hidden = !kinds.has("place");
    $button("btn-place").disabled = !kinds.has("place");
    $("btn-place").classList.toggle("ready", canWith("place"));
    this.renderDosWithMove();
    this.renderRace();
  }

  /** A newer state has arrived (not yet on show): DOS! and Catch! follow it at once. */
  received() {
    if (this.active) this.renderRace();
  }

  /** The newest state the page has received (motion.js: maybe not yet on show): its version
   * and its legal actions, parsed. */
  get newest() {
    const latest = this.model && this.model.latest ? this.model.latest() : null;
    if (!latest || !latest.view) return { version: null, legal: this.legal };
    return { version: latest.version, legal: (latest.view.legal || []).map(parseAction) };
  }

  /**
   * DOS! and Catch! (RULES.md §6, a race), decided on the newest state received, not on the
   * one the animation has reached: Catch! shows only while a catch can succeed, and goes the
   * moment the call (or another catch) arrives. A pressed Catch! shows pressed, and is not
   * sent twice, until the state moves on. Buttons that stay are kept (a click is not lost).
   */
  renderRace() {
    if (!this.view) return;
    const { version, legal } = this.newest;
    const state = race(legal, this.view.hand.length, this.pressed, version);
    const dos = $button("btn-dos");
    dos.hidden = state.dos.hidden;
    dos.disabled = state.dos.disabled;
    dos.classList.toggle("urgent", state.dos.urgent);
    const catches = $("catch-buttons");
    const seats = new Set(state.catches.map((c) => String(c.seat)));
    for (const old of [...catches.children]) {
      if (!seats.has(/** @type {HTMLElement} */ (old).dataset.seat || "")) old.remove();
    }
    for (const { seat, waiting, pressed } of state.catches) {
      let button = catches.querySelector(`[data-seat="${seat}"]`);
      if (!button) {
        const made = document.createElement("button");
        made.type = "button";
        made.className = "catch-button";
        made.dataset.seat = String(seat);
        made.setAttribute("aria-keyshortcuts", "C");
        made.addEventListener("click", () => this.catch(seat));
        catches.append(made);
        button = made;
      }
      button.textContent = t("web.catch_name", { name: this.playerName(seat) });
      // One catch at a time: on the same state a second one could only be refused.
      button.classList.toggle("pressed", pressed);
      button.setAttribute("aria-pressed", String(pressed));
      button.setAttribute("aria-disabled", String(waiting));
    }
  }

  /** Catch! (of `seat`, or of the first player who can be caught) on the newest state.
   * @param {number | null} [seat] */
  catch(seat = null) {
    const { version, legal } = this.newest;
    const action = catchToSend(legal, seat, this.pressed, version);
    if (!action) return;
    this.pressed = { seat: action.target, version };
    this.sendAction(action.text, { caught: action.target });
    this.renderRace();
  }

  /** The toggle "DOS! with this move": offered while a legal move would leave two cards in
   * hand (a hand of 3 or 4, and a match of 1 or 2 cards, a lay or a place; a hand of one that
   * draws); disabled while the cards selected cannot make such a move. */
  renderDosWithMove() {
    const button = $button("btn-dos-move");
    const state = dosWithMove(this.legal, this.view.hand.length, this.selected.length, this.dosWithMove);
    this.dosWithMove = state.armed;
    button.hidden = state.hidden;
    button.disabled = state.disabled;
    button.setAttribute("aria-pressed", String(this.dosWithMove));
  }

  toggleDosWithMove() {
    if ($("btn-dos-move").hidden) return;
    this.dosWithMove = !this.dosWithMove;
    this.renderDosWithMove();
    this.renderHint();
  }

  /** Sends a move, with the DOS! call when it is asked for and the move leaves two cards.
   * @param {string} text */
  send(text) {
    const dos = callsDos(parseAction(text), this.view.hand.length, this.dosWithMove);
    if (dos) this.dosWithMove = false;
    this.caught = false;
    this.sendAction(text, { dos });
  }

  /** Whether this player was caught in the actions drawn for the first time (the history of
   * the game on show when the page opened is not news). */
  noticeCatches() {
    const view = this.view;
    const history = view.history || [];
    if (this.historyDrawn !== null && history.length >= this.historyDrawn) {
      for (const text of history.slice(this.historyDrawn)) {
        const action = parseAction(text);
        if (action.kind === "catch" && action.target === view.seat) this.caught = true;
      }
    }
    this.historyDrawn = history.length;
  }

  renderHint() {
    const view = this.view;
    const legal = this.legal;
    const kinds = new Set(legal.map((a) => a.kind));
    let hint = "";
    if (view.phase === "over") hint = "";
    else if (view.turn !== view.seat) hint = t("web.hint_wait", { name: this.playerName(view.turn) });
    else if (view.phase === "placing") hint = t("web.hint_place", { count: view.placements_left });
    else if (this.selected.length) {
      const cards = this.selected.map((i) => view.hand[i]);
      const targets = targetsFor(legal, cards);
      if (targets.size) hint = t("web.hint_pick_target");
      else if (kinds.has("lay") && this.selected.length === 1) hint = t("web.hint_lay");
      else hint = t("web.hint_no_target");
    } else if (kinds.has("lay")) hint = t("web.hint_drawn_lay");
    else if (kinds.has("match")) hint = t("web.hint_select");
    else if (kinds.has("end")) hint = t("web.hint_end");
    else if (kinds.has("draw")) hint = t("web.hint_must_draw");
    if (this.dosWithMove) hint = [hint, t("web.dos_with_move_armed")].filter(Boolean).join(" ");
    if (this.caught && view.phase !== "over") hint = [t("game.caught_dos_with_move"), hint].filter(Boolean).join(" ");
    $("hint").textContent = hint;
  }

  /** @param {number} index */
  toggle(index) {
    const at = this.selected.indexOf(index);
    if (at >= 0) this.selected.splice(at, 1);
    else {
      this.selected.push(index);
      if (this.selected.length > 2) this.selected.shift();
    }
    this.rerender();
  }

  rerender() {
    const view = this.view;
    const handKey = view.hand.join(",");
    drawCenter(view, this.legal, this.selected, "", (i) => this.matchOn(i));
    drawHand(view, this.legal, this.selected, handKey, this.handKey, (i) => this.toggle(i));
    this.renderButtons();
    this.renderHint();
  }

  clearSelection() {
    this.selected = [];
    this.rerender();
  }

  /** @param {string} kind */
  act(kind) {
    const legal = kind === "dos" ? this.newest.legal : this.legal;  // DOS!: the race's newest
    const action = legal.find((a) => a.kind === kind);
    if (!action) return;
    if (kind === "draw") this.send(action.text);  // a draw to a hand of two may carry the call
    else this.sendAction(action.text);
  }

  /** @param {"lay" | "place"} kind */
  layOrPlace(kind) {
    const made = layOfSelection(this.legal, this.view.hand, this.selected, kind);
    if (made && "hint" in made) {
      $("hint").textContent = t(made.hint);
      const first = /** @type {HTMLElement | null} */ (document.querySelector("#hand button.card.layable"));
      if (first) first.focus();
      return;
    }
    if (made) this.send(made.action.text);
  }

  /** @param {number} index */
  async matchOn(index) {
    const view = this.view;
    const made = matchOfSelection(this.legal, view.hand, this.selected, index, view.center, view.options);
    if ("hint" in made) {
      $("hint").textContent = t(made.hint);
      return;
    }
    const cards = this.selected.map((i) => view.hand[i]);
    const { match, outcomes } = made;
    let text = match.text;
    if (outcomes.length > 1) {
      // The dialog covers the board: it shows the cards played and their target itself.
      const body = moveBody(t("web.designation_body"), cards, view.center[index]);
      const choice = await ask(t("web.designation_title"), body,
        outcomes.map((o) => ({ label: t(matchKindKey(match.cards, o.bonus)), value: o.text })),
        true);
      if (!choice) return;
      text = choice;
    }
    this.selected = [];
    this.send(text);
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    if ($("view-table").hidden || !this.view || !this.active) return;
    if ((event.target instanceof Element ? event.target : document.body).closest("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    const handled = () => event.preventDefault();
    if (/^[1-9]$/.test(key)) {
      const index = Number(key) - 1;
      if (index < this.view.hand.length) {
        this.toggle(index);
        const el = $(`hand-${index}`);
        if (el) el.focus();
        handled();
      }
    } else if (key === "d") { this.act("draw"); handled(); }
    else if (key === "e") { this.act("end"); handled(); }
    else if (key === "l") { this.layOrPlace("lay"); handled(); }
    else if (key === "p") { this.layOrPlace("place"); handled(); }
    else if (key === "s") { this.act("dos"); handled(); }
    else if (key === "w") { this.toggleDosWithMove(); handled(); }
    else if (key === "c") {
      this.catch();
      handled();
    } else if (key === "escape") { this.clearSelection(); handled(); }
    else if (key === "arrowright" || key === "arrowleft") {
      const el = active();
      const row = el && el.closest(".hand, .center-row");
      if (el && row && el.classList.contains("card") && el.parentElement) {
        const cards = [.../** @type {NodeListOf<HTMLElement>} */ (row.querySelectorAll("button.card"))];
        const at = cards.indexOf(el) + (key === "arrowright" ? 1 : -1);
        if (cards[at]) cards[at].focus();
        handled();
      }
    } else if (key === "t") {
      const first = /** @type {HTMLElement | null} */ (document.querySelector("#center-row .card.target"));
      if (first) first.focus();
      handled();
    } else if (key === "h") {
      const first = $("hand-0");
      if (first) first.focus();
      handled();
    }
  }
}
