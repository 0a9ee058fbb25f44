// @ts-check
// The official rule set's table client (official.js loads it at its first table or replay):
// its actions in words (log.js), its cards (cards.js), where played cards fly, its end (the
// winner, the last round, the score sheet), the Center Row of a replayed step, and its table
// (table.js).

import { t } from "./i18n.js";
import { cardElement, cardLabel } from "./cards.js";
import { cardsMoved, parseAction } from "./notation.js";
import { describe, outcome } from "./log.js";
import { roundTable, scoreSheet } from "./summary.js";
import { TableView } from "./table.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The official rule set's table client. @type {import("./view").TableClient} */
export default {
  describe,
  outcome,
  cardLabel,
  cardElement: (card) => cardElement(card),
  cardsMoved,
  /** Where an action's cards land, beside the numbers they must leave in view: a match's,
   * in the row kept below its Center Row card for the cards matched onto it; a lay's or a
   * place's, just after the row's last card, where the new card will be. */
  flyTarget(action) {
    const parsed = parseAction(String(action).replace(/^\d+:\s*/, ""));
    if (parsed.kind === "match") {
      const played = document.querySelector(`#center-${parsed.target} + .played`);
      return played ? played.getBoundingClientRect() : null;
    }
    const cards = $("center-row").querySelectorAll(":scope > .center-slot > .card");
    const last = cards.length ? cards[cards.length - 1].getBoundingClientRect() : null;
    return last && new DOMRect(last.right + last.width * 0.2, last.top, last.width, last.height);
  },
  makeTableView: (sendAction) => new TableView(sendAction),
  /** Game over: the winner and their score, the last round, the score sheet. */
  ending(view, names) {
    const results = view.round_results || [];
    const scores = view.scores || [];
    const winner = view.winner ?? scores.indexOf(Math.max(...scores));
    const top = document.createDocumentFragment();
    const intro = document.createElement("p");
    intro.className = "winner-line";
    intro.textContent = t("game.log_game_won", { player: names[winner], points: scores[winner] });
    top.append(intro);
    if (results.length) top.append(roundTable(results[results.length - 1], names, scores), scoreSheet(results, names));
    return top;
  },
  replayCenter(position) {
    const title = document.createElement("h3");
    title.textContent = t("game.center_row");
    const row = document.createElement("div");
    row.className = "center-row";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", t("game.center_row"));
    for (const card of position.center || []) row.append(cardElement(card));
    return [title, row];
  },
};
