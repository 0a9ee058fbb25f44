// @ts-check
// The page: which view shows (lobby, waiting room, table, replay, rules), the connection to
// the table (docs/protocol.md), and the game as this seat knows it.

import { t, setLang, preferredLang, onLangChange, LANGS, LANG_NAMES, lang, loadPart } from "./i18n.js";
import { Connection } from "./net.js";
import { Lobby, codeFrom } from "./lobby.js";
import { TableView } from "./table.js";
import { describe } from "./log.js";
import { cardLabel } from "./cards.js";
import { showRound, showGameOver } from "./summary.js";
import { close as closeDialog, isOpen, ask } from "./dialog.js";
import * as host from "./host.js";
import { PlayNow } from "./playnow.js";
import { Pause } from "./pause.js";
import { errorText } from "./errors.js";
import { parseAction, cardsMoved } from "./actions.js";
import { Pacer, flyCard } from "./motion.js";
import * as sound from "./sound.js";
import { Chat, placeChat } from "./chat.js";
import { turnChanged, bindNotifyButton } from "./attention.js";
import * as session from "./session.js";
import { AccountPanel } from "./account.js";
import { seatName, seatLevel, seatText } from "./seats.js";
import { Invite } from "./invite.js";
import { TutorialOffer, markFinished } from "./newcomer.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const VIEWS = ["lobby", "waiting", "table", "replay", "rules", "learn"];

/** @typedef {import("./protocol").TableInfo} TableInfo */
/** @typedef {import("./view").View} View */

/** @type {import("./view").App} */
const app = {
  code: null,
  seat: null,
  conn: null,
  table: null,
  view: null,
  version: 0,
  history: [],
  deadline: null,
  timerSeat: null,
  shown: "lobby",
  beforeRules: "lobby",
  rulesOpener: null,
  overShownFor: null,
  roundsShown: 0,
  actionCount: 0,
  catches: new Map(),  // the catches sent and not yet answered: id -> the seat caught
  receivedAt: null,
  pause: new Pause(),
  autostart: null,  // the code of a table to start once it shows (Play now)
};

/** @type {TableView | import("./classic.js").ClassicView} */
let tableView;
/** @type {TableView} */
let officialView;
/** @type {import("./hint.js").HintControl | null} */
let hints = null;  // hint.js, loaded with the first table that allows hints
/** @type {Promise<void> | null} */
let hintsLoading = null;
/** @type {import("./classic.js").ClassicView | null} */
let classicView = null;
/** @type {Promise<void> | null} */
let classicLoading = null;
/** @type {Lobby} */
let lobby;
/** @type {import("./replay.js").ReplayView | null} */
let replayView = null;
/** @type {Promise<import("./replay.js").ReplayView> | null} */
let replayLoading = null;
/** @type {Invite} */
let invite;
/** @type {Chat} */
let chat;
/** @type {PlayNow} */
let playNow;
/** @type {Promise<import("./tutorial.js").LearnView> | null} */
let learnView = null;  // a promise of the tutorial's view, once opened

/** Sends a message on the table's connection; whether it went.
 * @param {import("./protocol").ClientMessage} message */
function send(message) {
  return Boolean(app.conn && app.conn.send(message));
}

/** The bot levels of the table's rule set, easiest first (GET /api/info). */
function tableLevels() {
  return (app.table && lobby.levelsByRules[app.table.rules]) || [];
}

/** Leaves the table for good (docs/protocol.md, "Seats and the host"): during a game, after
 * saying that a bot plays the seat to the end; then back to the lobby. */
async function leaveSeat() {
  const playing = app.table && app.table.status === "playing" && app.view && app.view.phase !== "over";
  if (app.seat !== null && playing) {
    const sure = await ask(t("web.leave_confirm_title"), t("web.leave_confirm_text"), [
      { label: t("web.leave_table"), value: true, id: "confirm-leave" },
    ]);
    if (!sure) return;
  }
  if (app.seat !== null) send({ type: "leave" });
  if (app.code) session.forget(app.code);
  leaveTable();
}

/** @param {string} name */
function showView(name, { focus = true } = {}) {
  const changed = name !== app.shown;
  if (changed) clearError();  // an error is about the view it was shown on
  for (const view of VIEWS) $(`view-${view}`).hidden = view !== name;
  app.shown = name;
  document.body.dataset.view = name;
  placeChat();  // the chat goes along: beside the table, or in the waiting room
  if (changed && focus) requestAnimationFrame(() => focusView(name));
}

/** A view that opens takes the keyboard to where its work is (never left on the body).
 * @param {string} name */
function focusView(name) {
  if (app.shown !== name || isOpen()) return;
  const active = document.activeElement;
  if (active && active !== document.body && $(`view-${name}`).contains(active)) return;
  /** @type {HTMLElement | null} */
  let target = null;
  if (name === "waiting") target = $("start-button").hidden ? $("waiting-title") : $("start-button");
  else if (name === "table") target = /** @type {HTMLElement | null} */ (document.querySelector("#hand button.card")) || $("table-title");
  else if (name === "rules") target = $("rules-title");
  if (target) target.focus();
}

/** The rules page, drawn in the page's language (rules.js and its examples load on first use:
 * the lobby's first load does without them). */
function showRules() {
  return import("./rules.js").then(({ renderRules }) => renderRules());
}

function closeRules() {
  if (app.shown !== "rules") return;
  const back = app.rulesOpener;
  showView(app.beforeRules, { focus: !(back && document.contains(back)) });
  if (back && document.contains(back) && !back.closest("[hidden]")) /** @type {HTMLElement} */ (back).focus();
  else focusView(app.shown);
}

/** Shows a refusal over the page (it never moves the board). `game`: it refuses an action of
 * the game, which an open dialog covers: then it is not shown at all (behind the dialog, or
 * kept for after it, it would mislead). Any other (the chat's, which goes along into the
 * dialog) shows in the open dialog. @param {string} message */
function showError(message, { game = false } = {}) {
  const dialog = /** @type {HTMLDialogElement} */ ($("dialog"));
  if (dialog.open && game) return;
  const banner = $("error-banner");
  const home = dialog.open ? dialog : $("main");
  if (banner.parentElement !== home) home.prepend(banner);
  banner.textContent = message;
  banner.hidden = false;
}

function clearError() {
  $("error-banner").hidden = true;
  $("error-banner").textContent = "";
}

/** The seats' names in running text, "Bot 2 (easy)" for a bot (seats.js: one naming). */
function names() {
  const seats = (app.table && app.table.seats) || [];
  return seats.map((s, seat) => seatText(s, seat));
}

// --- the log: each update in words; rebuilt from the server's `log` on every (re)connect ---

/** @param {string} text */
function addLog(text, kind = "") {
  const li = document.createElement("li");
  li.textContent = text;
  if (kind) li.className = kind;
  const log = $("log");
  log.append(li);
  while (log.firstElementChild && log.children.length > 500) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function clearLog() {
  $("log").replaceChildren();
}

/** @param {View} view */
const roundsOf = (view) => view.rounds ?? (view.round_results || []).length;
/** @param {View} view */
const lastResult = (view) => view.result ?? (view.round_results || [])[roundsOf(view) - 1];

/** One action in words, with what it brought about (a round's or the game's end), given
 * the (public) view just before it and just after it. */
/** The cards in `after`'s hand that were not in `before`'s (what this seat drew).
 * @param {View | null} before @param {View} after */
function newCards(before, after) {
  const left = [...((before && before.hand) || [])];
  const fresh = [];
  for (const card of (after && after.hand) || []) {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1);
    else fresh.push(card);
  }
  return fresh;
}

/** @param {string} action @param {number} seat @param {View | null} before @param {View} after
 * @param {string[] | null} [known] */
function logStep(action, seat, before, after, known = null) {
  // One's own draw says which card it was (only this seat's page knows).
  const own = seat === app.seat && /(^|:\s*)draw$/.test(String(action));
  const drawn = !own ? [] : known || newCards(before, after);
  if (drawn.length) {
    addLog(t("game.log_draw_seen", { player: names()[seat], card: drawn.map(cardLabel).join(", ") }), "mine");
  } else addLog(describe(action, seat, before, names(), app.table ? app.table.rules : "official"));
  if (!before) return;
  if (before.bonuses && before.bonuses.double > 0 && after.turn !== before.turn) {
    addLog(t("game.log_bonus_draw"));  // RULES.md §4.3: the others draw as the turn ends
  }
  if (roundsOf(after) > roundsOf(before)) {
    const result = lastResult(after);
    addLog(t("game.log_round_won", { player: names()[result.winner], points: result.points }), "round");
    if (after.phase !== "over") {
      addLog(t("game.log_round_start", { round: after.round, dealer: names()[after.dealer ?? -1] }), "round");
    }
  }
  if (after.phase === "over" && before.phase !== "over" && after.winner !== null && after.winner !== undefined) {
    const winner = after.winner;
    addLog(t("game.log_game_won", { player: names()[winner], points: /** @type {number[]} */ (after.scores)[winner] }), "round");
  }
}

/** The whole log again, from the game's actions (server message `log`).
 * @param {import("./view").ServerMessage & {type: "log"}} message */
function rebuildLog(message) {
  if (!app.table || message.game !== app.table.game) return;
  clearLog();
  message.entries.forEach((entry, i) => {
    const after = i + 1 < message.entries.length ? message.entries[i + 1].before : message.now;
    logStep(entry.action, entry.seat, entry.before, after, entry.drawn || null);
  });
}

// --- rendering ---------------------------------------------------------------------------

function model() {
  return {
    view: app.view,
    players: (app.table ? app.table.seats : []).map((s, i) => ({
      ...s, name: names()[i], seatName: seatName(s, i), level: seatLevel(s),
    })),
    deadline: app.deadline,
    timerSeat: app.timerSeat,
    timerPhase: app.timerPhase ?? null,
    latest: () => pacer.latest,  // the newest state received (the race is decided on it)
    receivedAt: app.receivedAt ?? null,  // when the state on show arrived (performance.now())
  };
}

function renderTable() {
  if (!app.table) return;
  const status = app.table.status;
  if (status === "lobby") {
    if (app.shown !== "rules") showView("waiting");
    lobby.renderWaiting(app.table, app.seat);
    host.renderWaiting(app.table, app.seat, send, tableLevels());
    if (app.autostart === app.code && app.seat === app.table.host) {
      app.autostart = null;  // Play now: the table starts as soon as it shows
      send({ type: "start" });
    }
    // The host's Start shows once the table is known: the keyboard goes there.
    if (document.activeElement === $("waiting-title") && !$("start-button").hidden) $("start-button").focus();
    return;
  }
  if (!app.view) return;
  if (app.shown !== "rules" && app.shown !== "replay") showView("table");
  if (app.table.rules === "classic" && !classicView) {
    // classic.js loads at its first table, which is drawn then: until it is, this page shows
    // no state of the game, and <body> says none (a test or a person acting on it would
    // find no hand to act with).
    loadClassic();
    return;
  }
  // For people and tests alike: the state this page shows, on <body>.
  const body = document.body.dataset;
  body.version = String(app.version);
  body.phase = app.view.phase;
  body.myTurn = String(app.view.turn === app.seat && app.view.phase !== "over");
  turnChanged(body.myTurn === "true" && !app.pause.active);
  body.round = String(app.view.round);
  body.seat = String(app.seat);
  const me = app.seat !== null && app.table.seats[app.seat];
  $("back-button").hidden = !(me && me.away);
  /** @type {HTMLElement} */ (document.querySelector(".hand-area")).hidden = app.seat === null;  // a spectator has no hand
  $("watching-note").hidden = app.seat !== null;
  const over = app.view.phase === "over" || app.table.status === "finished";
  $("over-actions").hidden = !over;
  $("actions").hidden = over;
  $("btn-rematch").hidden = app.seat !== app.table.host;
  $("btn-replay").hidden = app.table.game_id === null || app.table.game_id === undefined;
  $("leave-table").hidden = app.seat === null || over;  // after a game: the button below
  host.renderTable(app.table, app.seat, send, tableLevels());
  tableView = app.table.rules === "classic" && classicView ? classicView : officialView;
  body.rules = app.table.rules;
  tableView.render(model());
  if (hints) hints.render(app.table, app.view, app.version, app.seat);
  else if (app.table.hints && !hintsLoading) {
    hintsLoading = import("./hint.js").then(({ HintControl }) => {
      hints = new HintControl(send);
      renderTable();
    });
  }
  if (app.table.rules === "classic") maybeShowRanking();
  else maybeShowEnd();
}

function maybeShowEnd() {
  const table = /** @type {TableInfo} */ (app.table);  // called with a table on show
  const view = /** @type {View} */ (app.view);
  const results = view.round_results || [];
  const over = view.phase === "over" || table.status === "finished";
  if (over && app.overShownFor !== table.game) {
    app.overShownFor = table.game;
    if (app.seat !== null) markFinished();  // a player's first game is over: no more newcomer
    app.roundsShown = results.length;
    const scores = view.scores || [];
    const winner = view.winner ?? scores.indexOf(Math.max(...scores));
    showGameOver({
      winner,
      scores,
      names: names(),
      isHost: app.seat === table.host,
      canReplay: table.game_id !== null && table.game_id !== undefined,
      lastRound: results[results.length - 1],
      results,
    }).then((choice) => {
      if (choice === "rematch") send({ type: "rematch" });
      else if (choice === "replay") openReplay(/** @type {TableInfo} */ (app.table).game_id);
      else if (choice === "lobby") leaveSeat();
    });
    return;
  }
  if (!over && results.length > app.roundsShown) {
    app.roundsShown = results.length;
    openRoundSummary();
  }
}

/** The last round's summary; the next round waits until this player continues (`pause`). */
function openRoundSummary() {
  const view = /** @type {View} */ (app.view);
  const results = view.round_results || [];
  if (!results.length) return;
  showRound(results[results.length - 1], names(), view.scores, results).then(() => {
    if (app.conn && app.seat !== null) send({ type: "continue" });
  });
  app.pause.render();
}

/** The end of a classic game: the ranking (RULES.md §9). */
function maybeShowRanking() {
  const table = /** @type {TableInfo} */ (app.table);  // called with a table on show
  const view = /** @type {View} */ (app.view);
  if (view.phase !== "over" || app.overShownFor === table.game) return;
  app.overShownFor = table.game;
  if (app.seat !== null) markFinished();
  const list = document.createElement("ol");
  for (const seat of view.ranking || []) {
    const li = document.createElement("li");
    li.textContent = names()[seat];
    list.append(li);
  }
  showGameOver({ winner: null, names: names(), isHost: app.seat === table.host,
    canReplay: table.game_id !== null && table.game_id !== undefined, ranking: list })
    .then((choice) => {
      if (choice === "rematch") send({ type: "rematch" });
      else if (choice === "replay") openReplay(/** @type {TableInfo} */ (app.table).game_id);
      else if (choice === "lobby") leaveSeat();
    });
}

// --- the connection ----------------------------------------------------------------------

/** A spectator's view has no hand and no legal actions: show it as an empty hand. */
/** @param {View | null} view */
function normalized(view) {
  if (!view) return view;
  return { ...view, hand: view.hand || [], legal: view.legal || [] };
}

// --- moves you can follow: the server's messages, applied one at a time --------------------
// (motion.js, Pacer). The pace is for the eyes: the race (DOS!, Catch!) and the version an
// action is made on follow the newest state received, `pacer.latest`, at once.

const pacer = new Pacer({ show: handle, received, urgent });

/** @typedef {import("./view").Arrived} Arrived */
/** @param {Arrived} message */
function onMessage(message) {
  pacer.push(message);
}

/** On arrival, before the message waits its turn: DOS! and Catch! follow the newest state.
 * @param {Arrived} message */
function received(message) {
  const state = message.type === "state" || message.type === "update";
  if (state && app.view && app.table && app.table.rules !== "classic") officialView.renderRace();
}

/** Shown at once, with whatever waits before it: the answer to this player's own action (a
 * refusal, an update with its id) and their reaction test (on the server's clock).
 * @param {Arrived} message */
function urgent(message) {
  if (app.seat === null || app.seat === undefined) return false;
  if (message.type === "error") return Boolean(message.id);
  if (message.type !== "update" && message.type !== "state") return false;
  if (message.type === "update" && message.id && message.seat === app.seat) return true;
  const reaction = message.view && message.view.reaction;
  return Boolean(reaction && reaction.seat === app.seat);
}

/** The cards an action moves to the table, and where they go, or null. @param {string} action */
function moved(action) {
  const rules = app.table ? app.table.rules : "official";
  const cards = cardsMoved(action, rules);
  if (!cards) return null;
  if (rules === "classic") return { cards, to: $("center-row").querySelector(".card") };
  const parsed = parseAction(String(action).replace(/^\d+:\s*/, ""));
  if (parsed.kind === "match") return { cards, to: $(`center-${parsed.target}`) };
  return { cards, to: $("center-row").lastElementChild };
}

/** Shows where the cards of another player's (or one's own) move go, before it is drawn.
 * @param {Arrived & {type: "update"}} message */
function fly(message) {
  const move = moved(message.action);
  if (!move) return false;
  const from = message.seat === app.seat ? $("hand")
    : document.querySelector(`#opponents li[data-seat="${message.seat}"]`);
  for (const card of move.cards) flyCard(card, from, move.to);
  return true;
}

/** Applies one server message; whether it was another player's move worth a pause.
 * @param {Arrived} message */
function handle(message) {
  let paced = false;
  if (message.type === "update" && app.table) {
    const moves = fly(message);
    const draw = /(^|:\s*)draw$/.test(String(message.action));
    paced = message.seat !== app.seat && (moves || draw);
    document.body.dataset.paced = String(paced);  // for people and tests: the next one waits
  }
  const before = app.view;
  apply(message);
  if (message.type === "update") soundFor(message, before, app.view);
  return paced;
}

/** The sound of an update: the move, and what it brought (your turn, a round's end).
 * @param {Arrived & {type: "update"}} message @param {View | null} before @param {View | null} after */
function soundFor(message, before, after) {
  const rules = app.table ? app.table.rules : "official";
  const kind = sound.soundOf(message.action, before, after, app.seat, rules);
  if (kind) sound.play(kind);
}

/** @param {Arrived} message */
function apply(message) {
  switch (message.type) {
    case "welcome":
      app.seat = message.seat;
      break;
    case "state": {
      const newGame = !app.table || app.table.game !== message.table.game;
      app.table = message.table;
      app.version = message.version;
      app.view = normalized(message.view);
      app.history = (message.view && message.view.history) || [];
      app.receivedAt = message.receivedAt;
      clearError();  // the game moved on: a refusal was about a state that is gone
      setTimer(message.timer);
      app.pause.update({ waiting: [], seconds: null }, names());  // a `pause` follows if any
      if (newGame) {
        clearLog();
        if (isOpen("over")) closeDialog();
        // Rounds already finished before this page saw the game need no summary again.
        app.roundsShown = app.view ? (app.view.round_results || []).length : 0;
      }
      renderTable();
      break;
    }
    case "update": {
      const before = app.view;
      app.version = message.version;
      app.history = [...app.history, message.action];
      app.view = normalized({ ...message.view, history: app.history });
      app.receivedAt = message.receivedAt;
      logStep(message.action, message.seat, before, /** @type {View} */ (app.view));
      app.catches.delete(message.id);
      clearError();  // the game moved on (anyone's action): the refusal is about a state gone
      renderTable();
      break;
    }
    case "table": {
      const wasLobby = app.table && app.table.status === "lobby";
      app.table = message.table;
      if (wasLobby && message.table.status !== "lobby" && !app.view) send({ type: "sync" });
      renderTable();
      break;
    }
    case "log":
      rebuildLog(message);
      break;
    case "chat":
      chat.add(message);
      break;
    case "chat_rules":
      chat.setRules(message.spectators);
      break;
    case "chat_history":
      chat.setHistory(message.lines);
      break;
    case "hint":
      if (hints) hints.show(message);
      break;
    case "pause":
      app.pause.update(message, names());
      if (app.pause.waitsFor(app.seat) && !isOpen("round") && app.view) openRoundSummary();
      else if (!app.pause.active && isOpen("round")) closeDialog();
      break;
    case "timer":
      setTimer(message);
      if (app.view && app.table && tableView === (app.table.rules === "classic" ? classicView : officialView)) {
        tableView.model = model();
        tableView.renderTimer();
      }
      break;
    case "error":
      if (app.catches.has(message.id)) {  // a catch that came too late: said in the log too
        const caught = names()[app.catches.get(message.id) ?? -1];
        addLog(t("web.log_catch_late", { player: names()[app.seat ?? -1], caught }), "mine");
        sound.play("late");
        app.catches.delete(message.id);
      }
      // A hint the game outran is said by the hint's own box: no banner (nothing refused).
      if (hints && hints.refused(message)) break;
      // In the page's language, from the error's code or reason key; never the English.
      showError(errorText(message), { game: Boolean(message.id) });
      // Which action it refuses: one sent before the last can be answered late.
      if (message.id) document.body.dataset.refused = message.id;
      break;
    default:
      break;
  }
}

/** @param {{seat: number | null, seconds: number | null, phase: string | null} | null} timer */
function setTimer(timer) {
  if (!timer || timer.seat === null || timer.seat === undefined || timer.seconds === null) {
    app.deadline = null;
    app.timerSeat = null;
    app.timerPhase = null;
  } else {
    app.deadline = Date.now() + timer.seconds * 1000;
    app.timerSeat = timer.seat;
    app.timerPhase = timer.phase;
  }
}

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
    session.forget(app.code);  // removed by the host: the seat is not this browser's any more
    leaveTable();
    showError(t("web.removed"));
    return;
  }
  else if (event && event.code === 4401) {
    el.textContent = t("web.bad_token");
    session.forget(app.code);
  } else if (event && event.code === 4404) el.textContent = t("web.no_such_table");
  else el.textContent = t("web.disconnected_status");
}

/** @param {string} code */
function enterTable(code) {
  const seat = session.seatFor(code);
  app.code = code;
  app.seat = seat ? seat.seat : null;
  app.table = null;
  app.view = null;
  if (location.pathname !== `/t/${code}`) history.pushState({}, "", `/t/${code}`);
  if (app.conn) app.conn.close();
  pacer.reset();
  chat.reset();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  app.conn = new Connection(() => `${scheme}://${location.host}/ws/${encodeURIComponent(code)}`, {
    onOpen: (conn) => conn.send({ type: "hello", protocol: 1, token: seat ? seat.token : null }),
    onMessage,
    onStatus,
  });
  showView("waiting");
  $("waiting-code").textContent = code;
  clearLog();
  app.conn.open();
}

function leaveTable() {
  turnChanged(false);
  $("create-form").hidden = false;
  if (app.conn) app.conn.close();
  app.conn = null;
  app.code = null;
  app.table = null;
  app.view = null;
  $("conn-status").hidden = true;
  history.pushState({}, "", "/");
  invite.hide();
  showView("lobby");
  lobby.refresh();
}

/** The version an action is made on: the newest state received if the action is legal there
 * too (DOS! and Catch! are decided on it; a move made while the last one is still on show
 * means the same there), else the state on show (the server then finds it `stale`).
 * @param {string} text */
function versionFor(text) {
  const latest = pacer.latest;
  const legal = (latest && latest.view && latest.view.legal) || [];
  return latest && legal.includes(text) ? latest.version : app.version;
}

/** Sends one action; `dos`: call DOS! with it (docs/protocol.md, Actions). @param {string} text */
function sendAction(text, dos = false) {
  const id = `a${++app.actionCount}`;
  /** @type {import("./protocol").ActionMessage} */
  const message = { type: "action", action: text, version: versionFor(text), id };
  if (dos) message.dos = true;
  if (!app.conn || !app.conn.send(message)) {
    showError(t("web.error_offline"));
    return;
  }
  const action = parseAction(text);
  if (action.kind === "catch") app.catches.set(id, action.target);
  // For tests, as the state on <body>: what went out last, and under which id.
  document.body.dataset.lastSent = text;
  document.body.dataset.lastSentDos = String(dos);
  document.body.dataset.sent = id;
  clearError();
}

/** The classic table's view (classic.js: loaded at the first classic table, not before). */
function loadClassic() {
  classicLoading ||= import("./classic.js").then(({ ClassicView }) => {
    classicView = new ClassicView(sendAction);
    if (app.table) renderTable();
  }).catch((error) => {
    classicLoading = null;  // not loaded (offline): the next render tries again
    showError(error.message);
  });
}

/** The replay viewer (replay.js: loaded at the first replay opened). */
function loadReplay() {
  replayLoading ||= import("./replay.js").then(({ ReplayView }) => {
    replayView = new ReplayView({
      onClose: () => {
        if (!/^\/replay\//.test(location.pathname)) {
          showView(app.table && app.view ? "table" : "lobby");
          return;
        }
        history.pushState({}, "", "/");  // a replay opened by its link: back to the lobby
        route();
      },
    });
    return replayView;
  }).catch((error) => {
    replayLoading = null;
    throw error;
  });
  return replayLoading;
}

/** The replay of a game, at `step` (a link to a moment: /replay/{id}?step=N).
 * @param {number | null} gameId */
async function openReplay(gameId, step = 0) {
  try {
    showView("replay");
    await (await loadReplay()).load(gameId, names(), step);
    $("replay-next").focus();
  } catch (error) {
    showError(/** @type {Error} */ (error).message);
    showView(app.table ? "table" : "lobby");
  }
}

/** The tutorial (/learn), where this browser left it (tutorial.js, loaded only for it). */
async function openLearn() {
  showView("learn", { focus: false });
  try {
    // One view, made once: a second open while the module loads waits for the same one.
    learnView ||= Promise.all([import("./tutorial.js"), loadPart("learn")]).then(([{ LearnView }]) => {
      const toLobby = () => {
        history.pushState({}, "", "/");
        route();
      };
      const made = new LearnView({ onPlay: toLobby, onLeave: toLobby });
      onLangChange(() => made.render());
      return made;
    }).catch((error) => {
      learnView = null;  // not loaded (offline): the next open tries again
      throw error;
    });
    await (await learnView).open();
  } catch (error) {
    showError(/** @type {Error} */ (error).message);
  }
}

function route() {
  if (/^\/learn\/?$/.test(location.pathname)) {
    openLearn();
    return;
  }
  const replay = /^\/replay\/(\d+)\/?$/.exec(location.pathname);
  if (replay) {
    openReplay(Number(replay[1]), Number(new URLSearchParams(location.search).get("step")) || 0);
    return;
  }
  const m = /^\/t\/([A-Za-z0-9]+)\/?$/.exec(location.pathname);
  if (m) {
    const code = codeFrom(m[1]);
    if (session.seatFor(code)) {
      enterTable(code);
      return;
    }
    showView("lobby");
    $("create-form").hidden = true;  // a join link: just a name and Join (or Watch)
    /** @type {HTMLInputElement} */ ($("join-code")).value = code;
    invite.show(code);  // who invites, the rules, the seats; a started game: watch it
    (/** @type {HTMLInputElement} */ ($("player-name")).value ? $("join-button") : $("player-name")).focus();
    return;
  }
  if (app.conn) leaveTable();
  invite.hide();
  $("create-form").hidden = false;
  showView("lobby");
  lobby.refresh();
}

function rerender() {
  if (app.shown === "rules") showRules();
  if (app.shown === "replay" && replayView && replayView.replay) replayView.render();
  if (app.table) renderTable();
  if (app.shown === "lobby") lobby.refresh();
  invite.render();
  if (playNow) playNow.render();
  lobby.syncForm();  // the bots' level menus, in the new language
}

async function boot() {
  const select = /** @type {HTMLSelectElement} */ ($("lang-select"));
  for (const code of LANGS) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = LANG_NAMES[code];
    select.append(option);
  }
  await setLang(preferredLang());
  select.value = lang();
  select.setAttribute("aria-label", t("web.language"));
  select.addEventListener("change", () => setLang(select.value));
  onLangChange(() => {
    select.setAttribute("aria-label", t("web.language"));
    rerender();
  });

  const refreshSound = sound.bindToggle($("sound-toggle"), () => t("web.sound"));
  onLangChange(refreshSound);
  onLangChange(bindNotifyButton($("notify-toggle"), () => t("web.notify")));
  chat = new Chat({
    send: (message) => {
      if (app.conn && app.conn.send(message)) return true;
      showError(t("web.error_offline"));
      return false;
    },
    names: () => names(),
    me: () => ({ seat: app.seat, host: app.table ? app.table.host : null, code: app.code }),
  });
  onLangChange(() => {
    chat.renderReactions();
    chat.render();
  });
  officialView = new TableView(sendAction);
  tableView = officialView;
  lobby = new Lobby({
    onSeated: (grant) => {
      clearError();
      enterTable(grant.code);
    },
    onError: showError,
    onStarted: (code) => invite.refused(code),  // a join too late: say so, offer to watch
  });
  invite = new Invite({ onWatch: (code) => enterTable(code) });
  playNow = new PlayNow({
    onSeated: (grant, { start }) => {
      clearError();
      app.autostart = start ? grant.code : null;
      enterTable(grant.code);
    },
    onError: showError,
  });
  lobby.loadInfo().then(() => playNow.setLevels(lobby.levelsByRules.official));
  const offer = new TutorialOffer();  // the tutorial, offered to who has never played
  offer.render();
  onLangChange(() => offer.render());
  const account = new AccountPanel();  // "Your player": passkeys, recovery code, sign in/out
  onLangChange(() => account.render());
  account.start();

  $("watch-button").addEventListener("click", () => {
    const code = codeFrom(/** @type {HTMLInputElement} */ ($("join-code")).value);
    if (code) enterTable(code);
    else $("join-code").focus();
  });
  $("start-button").addEventListener("click", () => app.conn && app.conn.send({ type: "start" }));
  $("leave-button").addEventListener("click", leaveSeat);
  $("leave-table").addEventListener("click", leaveSeat);
  $("btn-rematch").addEventListener("click", () => app.conn && app.conn.send({ type: "rematch" }));
  $("btn-replay").addEventListener("click", () => openReplay(app.table && app.table.game_id));
  $("btn-lobby").addEventListener("click", leaveSeat);
  $("back-button").addEventListener("click", () => app.conn && app.conn.send({ type: "back" }));
  $("copy-link").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(/** @type {HTMLAnchorElement} */ ($("invite-link")).href));
  $("nav-rules").addEventListener("click", () => {
    if (app.shown !== "rules") {
      app.beforeRules = app.shown;
      app.rulesOpener = document.activeElement;
    }
    showRules().then(() => {
      showView("rules", { focus: false });
      $("rules-title").focus();
    });
  });
  $("rules-close").addEventListener("click", closeRules);
  $("nav-play").addEventListener("click", () => {
    if (app.shown === "learn") history.pushState({}, "", "/");  // out of the tutorial
    $("create-form").hidden = false;
    if (app.table) renderTable();
    else showView("lobby");
    if (app.table && app.shown === "rules") showView(app.table.status === "lobby" ? "waiting" : "table");
  });
  $("home-link").addEventListener("click", (event) => {
    event.preventDefault();
    if (!app.table) showView("lobby");
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && app.shown === "rules" && !isOpen()) {
      event.preventDefault();
      closeRules();
      return;
    }
    if (event.key === "?" && !(event.target instanceof Element ? event.target : document.body).closest("input, select, textarea")) $("nav-rules").click();
  });
  window.addEventListener("popstate", route);
  route();
  document.body.dataset.ready = "true";
}

boot().catch((error) => showError(String(error && error.message ? error.message : error)));
