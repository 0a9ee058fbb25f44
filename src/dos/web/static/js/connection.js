// @ts-check
// The table's connection (docs/protocol.md): entering a table and leaving it, the connection's
// status, what this page sends, and the server's messages, shown one at a time at a pace a
// person can read (motion.js, Pacer) and applied by dispatch.js's handlers with the page's
// effects. The pace is for the eyes: the race (DOS!, Catch!) and the version an action is made
// on follow the newest state received, `pacer.latest`, at once. A table's messages wait for
// its rule set's client (rulesets.js) where they need it.

import { t } from "./i18n.js";
import { store } from "./store.js";
import { Connection, pageId } from "./net.js";
import { close as closeDialog, isOpen, ask } from "./dialog.js";
import { errorText } from "./errors.js";
import { flyCard } from "./motion.js";
import * as sound from "./sound.js";
import { turnChanged } from "./attention.js";
import * as session from "./session.js";
import { entered, left, playing, nextAction, catchSent, versionFor } from "./game.js";
import { handlers, apply } from "./dispatch.js";
import { loadedTableClient } from "./rulesets.js";
import { clearLog, logStep, rebuildLog, lateCatch } from "./gamelog.js";
import { names, renderTable, renderTimer, openRoundSummary, prepareTable } from "./render.js";
import { showView, showError, clearError, route } from "./views.js";
import { showNotice } from "./lobby.js";

/** @typedef {import("./view").Arrived} Arrived */
/** @typedef {import("./view").View} View */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Sends a message on the table's connection; whether it went.
 * @param {import("./protocol").ClientMessage} message */
export function send(message) {
  const conn = store.parts.conn;
  return Boolean(conn && conn.send(message));
}

/** What the table's messages do to this page (dispatch.js). @type {import("./view").Effects} */
const EFFECTS = {
  render: renderTable,
  renderTimer,
  clearError,
  refusal: (message, { game }) => showError(errorText(message), { game }),
  clearLog,
  logStep,
  rebuildLog,
  lateCatch,
  sound(action, before, after) {
    const table = store.game.table;
    const client = table && loadedTableClient(table.rules);
    const moved = Boolean(client && client.cardsMoved(action));
    const kind = sound.soundOf(action, before, after, store.game.seat, moved);
    if (kind) sound.play(kind);
  },
  isOpen,
  closeDialog,
  openRoundSummary,
  send,
  names,
  refused: (id) => { document.body.dataset.refused = id; },
  now: () => Date.now(),
};

/** The handlers of this page's table. */
const HANDLERS = handlers(store, EFFECTS);

/** Sends one action (docs/protocol.md, Actions); `dos`: call DOS! with it; `caught`: the
 * seat a catch tries to catch. @type {import("./view").SendAction} */
export function sendAction(text, { dos = false, caught } = {}) {
  const next = nextAction(store.game);
  store.game = next.game;
  const latest = store.parts.pacer ? store.parts.pacer.latest : null;
  /** @type {import("./protocol").ActionMessage} */
  const message = { type: "action", action: text, version: versionFor(store.game, latest, text), id: next.id };
  if (dos) message.dos = true;
  if (!send(message)) {
    showError(t("web.error_offline"));
    return;
  }
  if (caught !== undefined) store.game = catchSent(store.game, next.id, caught);
  // For tests, as the state on <body>: what went out last, and under which id.
  document.body.dataset.lastSent = text;
  document.body.dataset.lastSentDos = String(dos);
  document.body.dataset.sent = next.id;
  clearError();
}

// --- the server's messages, one at a time ------------------------------------------------

/** The Pacer of this page's messages (made once, at boot). */
export function makePacerHandlers() {
  return { show, received, urgent };
}

/** On arrival, before the message waits its turn: DOS! and Catch! follow the newest state.
 * @param {Arrived} message */
function received(message) {
  const state = message.type === "state" || message.type === "update";
  const view = store.parts.table;
  if (state && store.game.view && view && view.active && view.received) view.received();
}

/** Shown at once, with whatever waits before it: the answer to this player's own action (a
 * refusal, an update with its id) and their reaction test (on the server's clock).
 * @param {Arrived} message */
function urgent(message) {
  const seat = store.game.seat;
  if (seat === null || seat === undefined) return false;
  if (message.type === "error") return Boolean(message.id);
  if (message.type !== "update" && message.type !== "state") return false;
  if (message.type === "update" && message.id && message.seat === seat) return true;
  const reaction = message.view && message.view.reaction;
  return Boolean(reaction && reaction.seat === seat);
}

/** Shows where the cards of another player's (or one's own) move go, before it is drawn.
 * @param {Arrived & {type: "update"}} message */
function fly(message) {
  const table = store.game.table;
  const client = table && loadedTableClient(table.rules);
  const cards = client && client.cardsMoved(message.action);
  if (!client || !cards) return false;
  const to = client.flyTarget(message.action);
  const from = message.seat === store.game.seat ? $("hand")
    : document.querySelector(`#opponents li[data-seat="${message.seat}"]`);
  for (const card of cards) flyCard(client.cardElement(card), from, to);
  return true;
}

/** Applies one server message; whether it was another player's move worth a pause. A table
 * whose rule set's client is not loaded yet holds the messages after it until it is.
 * @param {Arrived} message */
function show(message) {
  let paced = false;
  if (message.type === "update" && store.game.table) {
    const moves = fly(message);
    const draw = /(^|:\s*)draw$/.test(String(message.action));
    paced = message.seat !== store.game.seat && (moves || draw);
    document.body.dataset.paced = String(paced);  // for people and tests: the next one waits
  }
  apply(HANDLERS, message);
  const table = store.game.table;
  const pacer = store.parts.pacer;
  if (table && pacer && !loadedTableClient(table.rules)) pacer.waitFor(prepareTable(table.rules));
  return paced;
}

// --- entering and leaving a table --------------------------------------------------------

/** @param {string} status @param {CloseEvent} [event] */
function onStatus(status, event) {
  const el = $("conn-status");
  document.body.dataset.connection = status;
  if (status === "open") {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  el.hidden = false;
  el.classList.remove("ok");
  if (status === "connecting") el.textContent = t("web.connecting");
  else if (status === "reconnecting") el.textContent = t("web.reconnecting");
  else if (event && event.code === 4000) el.textContent = t("web.replaced");
  else if (event && event.code === 4003) {
    session.forget(store.game.code);  // removed by the host: the seat is not this browser's any more
    leaveTable();
    showError(t("web.removed"));
    return;
  }
  else if (event && event.code === 4403) {  // banned by an admin: nothing here opens to them
    leaveTable();
    showError(t("web.err_banned"));
    return;
  }
  else if (event && event.code === 4401) {
    seatGone(/** @type {string} */ (store.game.code));
    return;
  } else if (event && event.code === 4404) el.textContent = t("web.no_such_table");
  else el.textContent = t("web.disconnected_status");
}

/** The seat this browser kept opens nothing any more (the host removed the player, or they
 * left, while the page was away): the seat is forgotten, and the table's link shows what it
 * offers anyone (join it, or watch the game on), under one notice that says so.
 * @param {string} code */
function seatGone(code) {
  session.forget(code);
  $("conn-status").hidden = true;
  clearError();  // the refusal's banner: the notice says it
  leaveTable();
  history.replaceState({}, "", `/t/${code}`);
  route();
  showNotice("web.notice_seat_gone", { code });
}

/** The `hello` that opens a table's connection: with the seat this browser holds there, else
 * as a spectator known by this browser's player, if it has one (the chat they read leaves
 * out those they block, docs/protocol.md).
 * @param {{token: string} | null | undefined} seat
 * @returns {import("./protocol").Hello} */
function helloMessage(seat) {
  if (seat) return { type: "hello", protocol: 1, token: seat.token };
  const player = session.playerToken();
  return player ? { type: "hello", protocol: 1, token: null, player } : { type: "hello", protocol: 1, token: null };
}

/** @param {string} code */
export function enterTable(code) {
  const seat = session.seatFor(code);
  store.game = entered(store.game, code, seat ? seat.seat : null);
  if (location.pathname !== `/t/${code}`) history.pushState({}, "", `/t/${code}`);
  const parts = store.parts;
  if (parts.conn) parts.conn.close();
  if (parts.pacer) parts.pacer.reset();
  if (parts.chat) parts.chat.reset();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // One id for every connection this page makes to the table: its own late one never locks
  // it out (net.js).
  const page = pageId();
  const url = `${scheme}://${location.host}/ws/${encodeURIComponent(code)}?page=${page}`;
  const conn = new Connection(() => url, {
    onOpen: (opened) => opened.send(helloMessage(seat)),
    // Only the page's current connection speaks: a table left (or another entered) says no more.
    onMessage: (message) => { if (store.parts.conn === conn && store.parts.pacer) store.parts.pacer.push(message); },
    onStatus,
  });
  parts.conn = conn;
  showView("waiting");
  $("waiting-code").textContent = code;
  clearLog();
  parts.conn.open();
}

export function leaveTable() {
  turnChanged(false);
  $("create-form").hidden = false;
  const parts = store.parts;
  if (parts.conn) parts.conn.close();
  parts.conn = null;
  if (parts.pacer) parts.pacer.reset();  // what the table sent and the page has not shown yet
  store.game = left(store.game);
  $("conn-status").hidden = true;
  history.pushState({}, "", "/");
  if (parts.invite) parts.invite.hide();
  showView("lobby");
  if (parts.lobby) parts.lobby.refresh();
}

/** Leaves the table for good (docs/protocol.md, "Seats and the host"): during a game, after
 * saying that a bot plays the seat to the end; then back to the lobby. */
export async function leaveSeat() {
  if (store.game.seat !== null && playing(store.game)) {
    const sure = await ask(t("web.leave_confirm_title"), t("web.leave_confirm_text"), [
      { label: t("web.leave_table"), value: true, id: "confirm-leave" },
    ]);
    if (!sure) return;
  }
  if (store.game.seat !== null) send({ type: "leave" });
  if (store.game.code) session.forget(store.game.code);
  leaveTable();
}
