// @ts-check
// The end of a round (every hand left and its points) and of the game (rematch, replay).
// Both keep the table's chat in reach (people say "gg" then): the chat panel moves into the
// dialog while it is open, and back when it closes (chat.js, `placeChat`).

import { t } from "./i18n.js";
import { cardElement, cardPoints } from "./cards.js";
import { show } from "./dialog.js";
import { placeChat } from "./chat.js";

/** @param {string} tag @param {string | Node} content */
function cell(tag, content) {
  const el = document.createElement(tag);
  if (content instanceof Node) el.append(content);
  else el.textContent = content;
  return el;
}

/** @param {string[]} hand */
function handCards(hand) {
  const cards = document.createElement("div");
  cards.className = "cards";
  for (const card of hand) cards.append(cardElement(card));
  if (!hand.length) cards.textContent = "—";
  return cards;
}

/** A table of the round's hands: player, cards left, their points, the score after.
 * @param {import("./view").RoundResult} result @param {string[]} names @param {number[]} [scores] */
export function roundTable(result, names, scores) {
  const table = document.createElement("table");
  table.className = "summary";
  const head = document.createElement("tr");
  for (const key of ["game.player", "game.hand_left", "game.points", "game.score"]) head.append(cell("th", t(key)));
  table.append(head);
  result.hands.forEach((hand, seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = String(seat);
    const points = hand.reduce((sum, card) => sum + cardPoints(card), 0);
    const name = names[seat] + (seat === result.winner ? ` — ${t("game.winner")}` : "");
    row.append(cell("th", name), cell("td", handCards(hand)),
      cell("td", seat === result.winner ? `+${result.points}` : String(points)),
      cell("td", scores ? String(scores[seat]) : ""));
    table.append(row);
  });
  return table;
}

/** The score sheet: every round's points per player (only the round's winner scores), and
 * the totals. @param {import("./view").RoundResult[]} results @param {string[]} names */
export function scoreSheet(results, names) {
  const table = document.createElement("table");
  table.className = "summary score-sheet";
  const caption = document.createElement("caption");
  caption.textContent = t("web.score_sheet");
  table.append(caption);
  const head = document.createElement("tr");
  head.append(cell("th", t("web.round_column")));
  for (const name of names) head.append(cell("th", name));
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  const totals = names.map(() => 0);
  for (const result of results) {
    const row = document.createElement("tr");
    row.dataset.round = String(result.round);
    row.append(cell("th", String(result.round)));
    names.forEach((_, seat) => {
      const points = seat === result.winner ? result.points : 0;
      totals[seat] += points;
      row.append(cell("td", String(points)));
    });
    tbody.append(row);
  }
  const foot = document.createElement("tr");
  foot.className = "total";
  foot.append(cell("th", t("web.total")));
  for (const total of totals) foot.append(cell("td", String(total)));
  const tfoot = document.createElement("tfoot");
  tfoot.append(foot);
  table.append(thead, tbody, tfoot);
  return table;
}

/** A place for the chat panel at the end of a dialog's body. */
function chatSlot() {
  const slot = document.createElement("div");
  slot.className = "chat-slot";
  return slot;
}

/** Shows the dialog with the chat in it; the chat goes back when it closes, whatever closed
 * it (a choice, Esc, the next dialog, the end of the pause). @template T @param {Promise<T>} shown */
function withChat(shown) {
  placeChat();
  shown.then(placeChat, placeChat);
  return shown;
}

/** @param {import("./view").RoundResult} result @param {string[]} names
 * @param {number[] | undefined} scores @param {import("./view").RoundResult[]} [results] */
export function showRound(result, names, scores, results = [result]) {
  const body = document.createElement("div");
  const intro = document.createElement("p");
  intro.textContent = t("game.log_round_won", { player: names[result.winner], points: result.points });
  const countdown = document.createElement("p");
  countdown.id = "pause-countdown";
  countdown.className = "pause-countdown";
  body.append(intro, roundTable(result, names, scores), scoreSheet(results, names), countdown,
    chatSlot());
  return withChat(show(t("web.round_summary", { round: result.round }), body,
    [{ label: t("web.continue"), value: "ok", id: "round-continue" }],
    { cancellable: false, kind: "round" }));
}

/** Game over: `top` (who won and how: the rule set's client says it, rulesets.js); rematch
 * (host), replay, back to the lobby.
 * @param {{top: Node, isHost: boolean, canReplay: boolean}} game */
export function showGameOver({ top, isHost, canReplay }) {
  const body = document.createElement("div");
  body.append(top);
  if (!isHost) {
    const wait = document.createElement("p");
    wait.textContent = t("web.rematch_wait");
    body.append(wait);
  }
  const choices = [];
  if (isHost) choices.push({ label: t("web.rematch"), value: "rematch", id: "rematch-button" });
  if (canReplay) choices.push({ label: t("web.replay"), value: "replay", id: "replay-button" });
  choices.push({ label: t("web.to_lobby"), value: "lobby", id: "lobby-button", secondary: true });
  body.append(chatSlot());
  return withChat(show(t("game.game_over"), body, choices, { cancellable: true, kind: "over" }));
}
