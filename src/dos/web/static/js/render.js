// @ts-check
// The table as the store says it: the waiting room until the game starts, then the rule set's
// table view (its client's, rulesets.js: made at the first table of that rule set), the
// state the page shows on <body> for people and tests, the host's controls, hints where the
// rule set and the table allow them, and the ends: each round's summary, the game over.

import { store } from "./store.js";
import { endToShow, endShown, myTurn, isOver } from "./game.js";
import { showRound, showGameOver } from "./summary.js";
import { isOpen } from "./dialog.js";
import * as host from "./host.js";
import { turnChanged } from "./attention.js";
import { seatName, seatLevel, seatText } from "./seats.js";
import { markFinished } from "./newcomer.js";
import { tableClientFor, loadedTableClient, levelsOf, can } from "./rulesets.js";
import { showView, showError, openReplay } from "./views.js";
import { send, sendAction, leaveSeat } from "./connection.js";

/** @typedef {import("./view").View} View */
/** @typedef {import("./protocol").TableInfo} TableInfo */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The seats' names in running text, "Bot 2 (easy)" for a bot (seats.js: one naming). */
export function names() {
  const table = store.game.table;
  return (table ? table.seats : []).map((s, seat) => seatText(s, seat));
}

/** What a table view draws (view.d.ts `TableModel`). @returns {import("./view").TableModel} */
export function model() {
  const game = store.game;
  const seats = names();
  return {
    view: game.view,
    players: (game.table ? game.table.seats : []).map((s, i) => ({
      ...s, name: seats[i], seatName: seatName(s, i), level: seatLevel(s),
    })),
    deadline: game.deadline,
    timerSeat: game.timerSeat,
    timerPhase: game.timerPhase,
    // The newest state received (the race is decided on it).
    latest: () => (store.parts.pacer ? store.parts.pacer.latest : null),
    receivedAt: game.receivedAt,  // when the state on show arrived (performance.now())
  };
}

/** The client and table view of rule set `rules`, made once; the table is drawn again once
 * they are there. @param {string} rules @returns {Promise<void>} */
export function prepareTable(rules) {
  const tables = store.tables;
  tables.loading[rules] ||= tableClientFor(rules)
    .then((client) => client.makeTableView(sendAction))
    .then((view) => {
      tables.views[rules] = view;
      renderTable();
    })
    .catch((error) => {
      delete tables.loading[rules];  // not loaded (offline): the next render tries again
      showError(error.message);
    });
  return tables.loading[rules];
}

/** The table view on show, if there is one. */
export function shownTableView() {
  const table = store.game.table;
  const view = table ? store.tables.views[table.rules] : null;
  return view && view === store.parts.table ? view : null;
}

/** The waiting room: who is seated; the host's controls; Play now's table starts at once. */
function renderWaiting() {
  const { seat, code, autostart } = store.game;
  const table = /** @type {TableInfo} */ (store.game.table);
  if (store.page.shown !== "rules") showView("waiting");
  if (store.parts.lobby) store.parts.lobby.renderWaiting(table, seat);
  host.renderWaiting(table, seat, send, levelsOf(table.rules));
  if (autostart === code && seat === table.host) {
    store.game = { ...store.game, autostart: null };  // Play now: the table starts as soon as it shows
    send({ type: "start" });
  }
  // The host's Start shows once the table is known: the keyboard goes there.
  if (document.activeElement === $("waiting-title") && !$("start-button").hidden) $("start-button").focus();
}

/** The table view of `rules` takes the table (another rule set's leaves it).
 * @param {import("./view").TableViewLike} view */
function takeTable(view) {
  const before = store.parts.table;
  if (before === view) return;
  if (before) {
    before.active = false;
    if (before.leave) before.leave();
  }
  view.active = true;
  store.parts.table = view;
}

export function renderTable() {
  const game = store.game;
  const table = game.table;
  if (!table) return;
  if (table.status === "lobby") {
    renderWaiting();
    return;
  }
  if (!game.view) return;
  const view = store.tables.views[table.rules];
  if (!view) {
    // The rule set's table loads at its first table, which shows once it is drawn: until
    // then this page shows no state of the game, and <body> says none (a test or a person
    // acting on it would find no hand to act with).
    prepareTable(table.rules);
    return;
  }
  if (store.page.shown !== "rules" && store.page.shown !== "replay") showView("table");
  // For people and tests alike: the state this page shows, on <body>.
  const body = document.body.dataset;
  body.version = String(game.version);
  body.phase = game.view.phase;
  body.myTurn = String(myTurn(game));
  turnChanged(myTurn(game) && !(store.parts.pause && store.parts.pause.active));
  body.round = String(game.view.round);
  body.seat = String(game.seat);
  const me = game.seat !== null && table.seats[game.seat];
  $("back-button").hidden = !(me && me.away);
  /** @type {HTMLElement} */ (document.querySelector(".hand-area")).hidden = game.seat === null;  // a spectator has no hand
  $("watching-note").hidden = game.seat !== null;
  const over = isOver(game);
  $("over-actions").hidden = !over;
  $("actions").hidden = over;
  $("btn-rematch").hidden = game.seat !== table.host;
  $("btn-replay").hidden = table.game_id === null || table.game_id === undefined;
  $("leave-table").hidden = game.seat === null || over;  // after a game: the button below
  host.renderTable(table, game.seat, send, levelsOf(table.rules), can(table.rules, "hints"));
  body.rules = table.rules;
  takeTable(view);
  view.render(model());
  renderHints();
  showEnd();
}

/** The turn timer of the table on show. */
export function renderTimer() {
  const view = shownTableView();
  if (!view || !store.game.view) return;
  view.model = model();
  view.renderTimer();
}

/** Hints (hint.js, loaded with the first table that allows them). */
function renderHints() {
  const { table, view, version, seat } = store.game;
  if (!table || !view) return;
  const hints = store.parts.hints;
  if (hints) hints.render(table, view, version, seat, can(table.rules, "hints"));
  else if (table.hints && !store.loading.hints) {
    store.loading.hints = import("./hint.js").then(({ HintControl }) => {
      store.parts.hints = new HintControl(send);
      renderTable();
    });
  }
}

// --- the ends ----------------------------------------------------------------------------

/** The round summaries of the table's game this tab has opened and closed (their rounds'
 * count), kept through a reload (sessionStorage): a summary opened and not yet closed opens
 * again after a reload, during the pause or once the next round is dealt (the server stops
 * waiting for a seat whose page went). @param {TableInfo} table
 * @returns {{game: number, opened: number, read: number}} */
function summariesSeen(table) {
  const none = { game: table.game, opened: 0, read: 0 };
  try {
    const kept = JSON.parse(sessionStorage.getItem(`dos.summaries.${table.code}`) || "null");
    return kept && kept.game === table.game ? { ...none, ...kept } : none;
  } catch {
    return none;
  }
}

/** @param {TableInfo} table @param {{opened?: number, read?: number}} change */
function noteSummaries(table, change) {
  const seen = { ...summariesSeen(table), ...change };
  sessionStorage.setItem(`dos.summaries.${table.code}`, JSON.stringify(seen));
}

/** The end the game has reached, once: a round's summary, or the game over; a seat's round
 * summary it opened and has not closed, again after a reload. */
function showEnd() {
  const { table, view, seat } = store.game;
  if (table && view && seat !== null && !isOver(store.game)) {
    const seen = summariesSeen(table);
    const rounds = (view.round_results || []).length;
    if (seen.opened > seen.read && seen.opened === rounds && !endToShow(store.game) && !isOpen()) {
      openRoundSummary();
      return;
    }
  }
  const end = endToShow(store.game);
  if (!end) return;
  store.game = endShown(store.game, end);
  if (end === "round") openRoundSummary();
  else showOver();
}

/** The game over: who won and how (the rule set's client), rematch, replay, the lobby. */
function showOver() {
  const { seat, result } = store.game;
  const table = /** @type {TableInfo} */ (store.game.table);
  const view = /** @type {View} */ (store.game.view);
  const client = loadedTableClient(table.rules);
  if (!client) return;
  if (seat !== null) markFinished();  // a player's first game is over: no more newcomer
  showGameOver({
    top: client.ending(view, names(), result),
    isHost: seat === table.host,
    canReplay: table.game_id !== null && table.game_id !== undefined,
  }).then((choice) => {
    if (choice === "rematch") send({ type: "rematch" });
    else if (choice === "replay") openReplay(/** @type {TableInfo} */ (store.game.table).game_id);
    else if (choice === "lobby") leaveSeat();
  });
}

/** The last round's summary; the next round waits until this player continues (`pause`). */
export function openRoundSummary() {
  const view = /** @type {View} */ (store.game.view);
  const results = view.round_results || [];
  if (!results.length) return;
  const table = /** @type {TableInfo} */ (store.game.table);
  if (store.game.seat !== null) noteSummaries(table, { opened: results.length });
  showRound(results[results.length - 1], names(), view.scores, results).then(() => {
    if (store.game.seat !== null) noteSummaries(table, { read: results.length });
    if (store.parts.conn && store.game.seat !== null) send({ type: "continue" });
  });
  if (store.parts.pause) store.parts.pause.render();
}
