// @ts-check
// The client of a rule set the server offers and the page has no client of its own for
// (rulesets.js): it knows nothing of its cards or rules, and reads only what every rule set's
// view has (docs/protocol.md): whose turn it is, the phase, and the seat's legal actions in
// notation. The table shows the view's public fields as a list of names and values, and each
// legal action as a button that sends it; the log says each action in notation; the end says
// who won, when the view or the result names a winner.

import { t } from "./i18n.js";
import { cardElement as anyCardElement } from "./cards.js";
import { fan, placeSeats, nameTag } from "./seats.js";
import { playerName, turnText, renderTimer } from "./turn.js";
import { moderationButton } from "./moderationbutton.js";

/** @typedef {import("./view").TableModel} TableModel */
/** @typedef {import("./view").View} View */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** The page's buttons of the rule sets with a client of their own: none of them here. */
const THEIRS = ["btn-draw", "btn-lay", "btn-place", "btn-end", "btn-dos", "btn-dos-move"];
/** A view's fields that are not the table's to show: the seat's own, the long history, and a
 * replayed position's hands (the replay viewer shows them around it). */
const UNSHOWN = new Set(["seat", "hand", "legal", "history", "hands"]);

/** A card of an unknown deck: its notation, as it is. @type {import("./view").Deck} */
const TEXT_DECK = { parse: () => null, label: (text) => String(text), sign: (card) => card.rank };

/** A value of a view, readable: a list joined, an object as JSON, nothing as a dash.
 * @param {unknown} value @returns {string} */
export function shownValue(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.length ? value.map(shownValue).join(", ") : "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The fields of a view the table shows, in its order: [name, value] (tests/js).
 * @param {object} view */
export function shownFields(view) {
  return Object.entries(view).filter(([name]) => !UNSHOWN.has(name))
    .map(([name, value]) => [name, shownValue(value)]);
}

/** A view's fields as a definition list. @param {object} view */
function fieldList(view) {
  const list = document.createElement("dl");
  list.className = "generic-view";
  for (const [name, value] of shownFields(view)) {
    const term = document.createElement("dt");
    term.textContent = name;
    const detail = document.createElement("dd");
    detail.textContent = value;
    list.append(term, detail);
  }
  return list;
}

/** The winner a finished game names (its view's or its result's `winner`), or null.
 * @param {Partial<View> | null} view @param {{[key: string]: unknown} | null} [result] */
export function winnerOf(view, result = null) {
  for (const winner of [view && view.winner, result && result.winner]) {
    if (typeof winner === "number") return winner;
  }
  return null;
}

/** The end in words: who won, or that the game is over.
 * @param {number | null} winner @param {string[]} names */
function overText(winner, names) {
  return winner === null ? t("web.generic_over")
    : t("web.generic_winner", { player: names[winner] ?? `#${winner + 1}` });
}

/** @typedef {import("./view").TableViewLike} TableViewLike */

/** @implements {TableViewLike} */
export class GenericView {
  /** @param {import("./view").SendAction} sendAction */
  constructor(sendAction) {
    this.sendAction = sendAction;
    /** @type {TableModel | null} */
    this.model = null;
    this.active = false;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timerHandle = undefined;
  }

  /** @param {TableModel} model */
  render(model) {
    this.model = model;
    const view = /** @type {View} */ (model.view);
    $("round-info").textContent = "";
    $("turn-info").textContent = turnText(model, view);
    for (const id of ["phase-info", "pile-info", "hand-points", "my-score"]) $(id).textContent = "";
    $("hand-label").textContent = t("game.your_hand");
    this.renderPlayers(view);
    $("piles").replaceChildren();
    $("center-title").textContent = t("web.generic_view");
    const row = $("center-row");
    row.setAttribute("aria-label", t("web.generic_view"));
    row.replaceChildren(fieldList(view));
    const hand = $("hand");
    hand.setAttribute("aria-label", t("web.your_hand_n", { count: view.hand.length }));
    hand.replaceChildren(...view.hand.map((card) => anyCardElement(card, { deck: TEXT_DECK })));
    this.renderActions(view);
    const mine = view.turn === view.seat && view.phase !== "over";
    $("hint").textContent = mine && view.legal.length ? t("web.generic_hint") : "";
    this.renderTimer();
  }

  /** The seats around the table top, the turn marked. @param {View} view */
  renderPlayers(view) {
    const model = /** @type {TableModel} */ (this.model);
    const list = $("opponents");
    list.replaceChildren();
    list.setAttribute("aria-label", t("game.players"));
    model.players.forEach((player, seat) => {
      const li = document.createElement("li");
      li.className = "opponent";
      li.dataset.seat = String(seat);
      if (seat === view.seat) li.classList.add("me");
      if (seat === view.turn && view.phase !== "over") li.classList.add("turn");
      const you = seat === view.seat ? ` (${t("game.you")})` : "";
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = player.bot ? t("web.bot")
        : player.connected === false ? t("web.disconnected") : t("web.connected");
      const size = (view.hand_sizes || [])[seat];
      li.append(nameTag(player.seatName || playerName(model, seat), player.level, you),
        ...(size === undefined ? [] : [fan(size)]), meta);
      if (seat !== view.seat && !player.bot) li.append(moderationButton({ name: playerName(model, seat), seat }));
      li.setAttribute("aria-label", `${playerName(model, seat)}${you}: ${meta.textContent}`);
      list.append(li);
    });
    placeSeats(list, view.seat);
  }

  /** One button per legal action of the seat, in the server's order; the page's own buttons
   * (another rule set's) hide. @param {View} view */
  renderActions(view) {
    for (const id of THEIRS) $(id).hidden = true;
    $("catch-buttons").replaceChildren();
    let box = $("generic-actions");
    if (!box) {
      box = document.createElement("span");
      box.id = "generic-actions";
      box.className = "generic-actions";
      box.setAttribute("role", "group");
      $("actions").prepend(box);
    }
    box.setAttribute("aria-label", t("web.generic_actions"));
    const focused = document.activeElement instanceof HTMLElement && box.contains(document.activeElement)
      ? document.activeElement.dataset.action : null;
    box.replaceChildren(...view.legal.map((action) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = action;
      button.textContent = action;
      button.addEventListener("click", () => this.sendAction(action));
      return button;
    }));
    const again = focused === null ? null
      : [...box.querySelectorAll("button")].find((b) => b.dataset.action === focused);
    if (again) again.focus();
  }

  renderTimer() {
    this.timerHandle = renderTimer(/** @type {TableModel} */ (this.model), this.timerHandle);
  }

  /** Another rule set's table is on show: the action buttons go. */
  leave() {
    const box = $("generic-actions");
    if (box) box.remove();
    clearInterval(this.timerHandle);
  }
}

/** The table client of a rule set without one of its own. @type {import("./view").TableClient} */
const TABLE = {
  describe(action, seat, _before, names) {
    const prefix = /^(\d+)\s*:\s*(.*)$/.exec(String(action));
    const who = prefix ? Number(prefix[1]) : seat;
    return t("web.generic_log_action", { player: names[who] ?? `#${who + 1}`, action: prefix ? prefix[2] : action });
  },
  outcome(before, after, names) {
    if (after.phase !== "over" || before.phase === "over") return [];
    return [{ text: overText(winnerOf(after), names), kind: "round" }];
  },
  cardLabel: (card) => String(card),
  cardElement: (card) => anyCardElement(card, { deck: TEXT_DECK }),
  cardsMoved: () => null,
  flyTarget: () => null,
  makeTableView: (sendAction) => new GenericView(sendAction),
  ending(view, names, result) {
    const top = document.createDocumentFragment();
    const intro = document.createElement("p");
    intro.className = "winner-line";
    intro.textContent = overText(winnerOf(view, result), names);
    top.append(intro, fieldList(view));
    return top;
  },
  replayCenter: (position) => [fieldList(position)],
};

/** The client of a rule set without one of its own: no options, no rules in short. @type {import("./view").RulesClient} */
export default { table: async () => TABLE };
