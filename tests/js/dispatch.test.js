// @ts-check
/// <reference types="node" />
// The table's messages (dispatch.js), each by its own handler, on a store of their own with
// the page's effects recorded: what changes in the store and what the page is asked to show.

import { test } from "node:test";
import assert from "node:assert/strict";

import { handlers, apply } from "../../src/dos/web/static/js/dispatch.js";
import { createStore } from "../../src/dos/web/static/js/store.js";
import { catchSent } from "../../src/dos/web/static/js/game.js";

/** @typedef {import("../../src/dos/web/static/js/view").View} View */

/** @param {object} changes */
const table = (changes = {}) => ({
  code: "K7M2", rules: "official", options: {}, public: false, rated: false, status: "playing",
  host: 0, turn_seconds: null, game: 1, game_id: null, seats: [], spectators: 0, ...changes,
});

/** @param {object} changes @returns {View} */
const view = (changes = {}) => /** @type {View} */ ({
  seat: 0, options: {}, turn: 1, phase: "matching", hand: [], hand_sizes: [], draw_pile_size: 0,
  discard: [], legal: [], round_results: [], ...changes,
});

/** A message as the page reads it. @param {object} fields @returns {any} */
const message = (fields) => fields;

/**
 * A store, its handlers, and the effects they asked for (each call: its name and arguments).
 * `open`: the dialog that shows; `refuses`: whether the hints' box takes a refusal.
 */
function setUp({ open = "", refuses = false } = {}) {
  const store = createStore();
  /** @type {[string, ...unknown[]][]} */
  const calls = [];
  /** @param {string} name */
  const record = (name) => (/** @type {unknown[]} */ ...args) => { calls.push([name, ...args]); };
  const pause = {
    active: false,
    /** @type {number[]} */
    waiting: [],
    /** @param {{waiting: number[]}} m */
    update(m) { this.waiting = m.waiting; this.active = m.waiting.length > 0; calls.push(["pause", m.waiting]); },
    /** @param {number | null} seat */
    waitsFor(seat) { return seat !== null && this.waiting.includes(seat); },
  };
  const parts = /** @type {any} */ (store.parts);
  parts.pause = pause;
  parts.chat = { add: record("chat.add"), setRules: record("chat.setRules"), setHistory: record("chat.setHistory") };
  parts.hints = { show: record("hints.show"), refused: () => refuses };
  /** @type {import("../../src/dos/web/static/js/view").Effects} */
  const fx = {
    render: record("render"),
    renderTimer: record("renderTimer"),
    clearError: record("clearError"),
    refusal: record("refusal"),
    clearLog: record("clearLog"),
    logStep: record("logStep"),
    rebuildLog: record("rebuildLog"),
    lateCatch: record("lateCatch"),
    sound: record("sound"),
    isOpen: (kind) => kind === open,
    closeDialog: record("closeDialog"),
    openRoundSummary: record("openRoundSummary"),
    send: (m) => { calls.push(["send", m]); return true; },
    names: () => ["Ada", "Bo"],
    refused: record("refused"),
    now: () => 1000,
  };
  return { store, all: handlers(store, fx), calls, names: () => calls.map((c) => c[0]) };
}

test("a state is kept and drawn; a new game clears the log and the last game over", () => {
  const { store, all, names } = setUp({ open: "over" });
  apply(all, message({ type: "state", version: 3, table: table(), view: view(), result: null, timer: null }));
  assert.equal(store.game.version, 3);
  assert.deepEqual(names(), ["clearError", "pause", "clearLog", "closeDialog", "render"]);
});

test("a state of the game on show keeps its log", () => {
  const { store, all, names, calls } = setUp();
  store.game = { ...store.game, table: /** @type {any} */ (table()) };
  apply(all, message({ type: "state", version: 3, table: table(), view: view(), result: null, timer: null }));
  assert.ok(!names().includes("clearLog"));
  assert.deepEqual(calls.find((c) => c[0] === "pause"), ["pause", []]);  // a `pause` follows if any
});

test("an update is logged with the views around it, drawn, then heard", () => {
  const { store, all, calls, names } = setUp();
  const before = view();
  store.game = { ...store.game, table: /** @type {any} */ (table()), view: before };
  apply(all, message({ type: "update", version: 2, action: "1: draw", seat: 1, view: view({ turn: 0 }), result: null, by_bot: false }));
  assert.deepEqual(names(), ["logStep", "clearError", "render", "sound"]);
  const [, action, seat, was, now] = calls[0];
  assert.deepEqual([action, seat, was], ["1: draw", 1, before]);
  assert.equal(/** @type {View} */ (now).turn, 0);
  assert.equal(store.game.version, 2);
});

test("a table that starts before the page knows its game asks for the state", () => {
  const { store, all, calls } = setUp();
  store.game = { ...store.game, table: /** @type {any} */ (table({ status: "lobby" })) };
  apply(all, message({ type: "table", table: table() }));
  assert.deepEqual(calls, [["send", { type: "sync" }], ["render"]]);
});

test("a log is rebuilt only for the game on show", () => {
  const { store, all, names } = setUp();
  store.game = { ...store.game, table: /** @type {any} */ (table({ game: 2 })) };
  apply(all, message({ type: "log", game: 1, first: 0, total: 0, entries: [], now: view() }));
  assert.deepEqual(names(), []);
  apply(all, message({ type: "log", game: 2, first: 0, total: 0, entries: [], now: view() }));
  assert.deepEqual(names(), ["rebuildLog"]);
});

test("the chat's messages go to the chat, a hint to the hints", () => {
  const { all, names } = setUp();
  apply(all, message({ type: "chat", seat: 0, name: "Ada", text: "gg", reaction: null }));
  apply(all, message({ type: "chat_rules", spectators: true }));
  apply(all, message({ type: "chat_history", lines: [] }));
  apply(all, message({ type: "hint", version: 1, action: "draw", move: "draw", cards: [], target: null, reason: {} }));
  assert.deepEqual(names(), ["chat.add", "chat.setRules", "chat.setHistory", "hints.show"]);
});

test("a pause that waits for this seat opens the round's summary; its end closes it", () => {
  const { store, all, names } = setUp();
  store.game = { ...store.game, seat: 1, table: /** @type {any} */ (table()), view: view() };
  apply(all, message({ type: "pause", round: 1, waiting: [0, 1], seconds: 20 }));
  assert.deepEqual(names(), ["pause", "openRoundSummary"]);
  const shown = setUp({ open: "round" });
  shown.store.game = { ...shown.store.game, seat: 1, view: view() };
  apply(shown.all, message({ type: "pause", round: 1, waiting: [], seconds: null }));
  assert.deepEqual(shown.names(), ["pause", "closeDialog"]);
});

test("a timer sets the deadline and redraws the countdown", () => {
  const { store, all, names } = setUp();
  apply(all, message({ type: "timer", seat: 1, seconds: 10, phase: "turn" }));
  assert.equal(store.game.deadline, 11_000);
  assert.deepEqual(names(), ["renderTimer"]);
});

test("a refused catch is said late in the log, then as a refusal of the game", () => {
  const { store, all, calls } = setUp();
  store.game = catchSent(store.game, "a2", 1);
  apply(all, message({ type: "error", code: "illegal", message: "no", id: "a2" }));
  assert.deepEqual(calls.map((c) => c[0]), ["lateCatch", "refusal", "refused"]);
  assert.equal(calls[0][1], 1);
  assert.deepEqual(calls[1][2], { game: true });
  assert.deepEqual(store.game.catches, {});
});

test("a refusal the hints' box says shows no banner", () => {
  const { all, names } = setUp({ refuses: true });
  apply(all, message({ type: "error", code: "hint_stale", message: "late" }));
  assert.deepEqual(names(), []);
});

test("a welcome names the seat; a type without a handler changes nothing", () => {
  const { store, all, names } = setUp();
  apply(all, message({ type: "welcome", protocol: 1, seat: 2, player_id: null }));
  apply(all, message({ type: "pong", id: null }));
  assert.equal(store.game.seat, 2);
  assert.deepEqual(names(), []);
});
