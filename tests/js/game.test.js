// @ts-check
/// <reference types="node" />
// The game as a seat knows it (game.js): each server message's transition, a pure function
// from one game to the next, and what the page has to show of it (the ends, the version an
// action is made on).

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  initialGame, entered, left, welcomed, stateArrived, updateArrived, tableArrived, timerSet,
  nextAction, catchSent, refusedAction, versionFor, newCards, endToShow, endShown, myTurn,
  playing, normalized, timerOf,
} from "../../src/dos/web/static/js/game.js";

/** @typedef {import("../../src/dos/web/static/js/view").View} View */
/** @typedef {import("../../src/dos/web/static/js/view").Game} Game */
/** @typedef {import("../../src/dos/web/static/js/protocol").TableInfo} TableInfo */

/** @param {object} changes @returns {TableInfo} */
const table = (changes = {}) => /** @type {TableInfo} */ ({
  code: "K7M2", rules: "official", options: {}, public: false, rated: false, status: "playing",
  host: 0, turn_seconds: null, game: 1, game_id: null, seats: [], spectators: 0, ...changes,
});

/** @param {object} changes @returns {View} */
const view = (changes = {}) => /** @type {View} */ ({
  seat: 0, options: {}, turn: 1, phase: "matching", hand: ["R7", "B3"], hand_sizes: [2, 5],
  draw_pile_size: 40, discard: [], legal: [], round_results: [], ...changes,
});

/** A `state` message. @param {object} changes */
const state = (changes = {}) => /** @type {any} */ ({
  type: "state", version: 4, table: table(), view: view({ history: ["draw"] }), result: null,
  timer: null, ...changes,
});

/** A game at a table, after its first `state`. @param {object} changes @returns {Game} */
const playingGame = (changes = {}) => ({
  ...stateArrived(initialGame(), state(), 1000, 5).game, seat: 0, ...changes,
});

test("a page at no table knows no game", () => {
  const game = initialGame();
  assert.equal(game.table, null);
  assert.equal(game.view, null);
  assert.deepEqual(game.catches, {});
});

test("entering a table forgets the last one; leaving keeps the seat for nothing", () => {
  const game = entered(playingGame(), "ABCD", 2);
  assert.equal(game.code, "ABCD");
  assert.equal(game.seat, 2);
  assert.equal(game.table, null);
  assert.equal(game.view, null);
  const gone = left(game);
  assert.equal(gone.code, null);
  assert.equal(gone.table, null);
});

test("welcome says the seat this connection holds", () => {
  assert.equal(welcomed(initialGame(), /** @type {any} */ ({ type: "welcome", seat: 3 })).seat, 3);
});

test("a state brings the table, the view, its history and the timer's deadline", () => {
  const timer = { seat: 1, seconds: 30, phase: "turn" };
  const { game, newGame } = stateArrived(initialGame(), state({ timer }), 1000, 7);
  assert.equal(newGame, true);
  assert.equal(game.version, 4);
  assert.deepEqual(game.history, ["draw"]);
  assert.equal(game.receivedAt, 7);
  assert.equal(game.deadline, 1000 + 30_000);
  assert.equal(game.timerSeat, 1);
  assert.equal(game.timerPhase, "turn");
});

test("a state of the same game is not a new game; the rounds shown stay", () => {
  const before = playingGame({ roundsShown: 2 });
  const { game, newGame } = stateArrived(before, state({ version: 9 }), 0, null);
  assert.equal(newGame, false);
  assert.equal(game.roundsShown, 2);
});

test("a new game's rounds finished before the page saw it need no summary", () => {
  const results = [{ round: 1, winner: 0, points: 20, hands: [] }];
  const next = state({ table: table({ game: 2 }), view: view({ round_results: results }) });
  const { game, newGame } = stateArrived(playingGame(), next, 0, null);
  assert.equal(newGame, true);
  assert.equal(game.roundsShown, 1);
  assert.equal(endToShow(game), null);
});

test("a spectator's view is shown with an empty hand and no legal actions", () => {
  const watched = normalized(/** @type {View} */ (/** @type {unknown} */ ({ seat: null, turn: 0, phase: "matching" })));
  assert.deepEqual(watched && [watched.hand, watched.legal], [[], []]);
  assert.equal(normalized(null), null);
});

test("an update adds its action to the history and answers its catch", () => {
  const before = catchSent(playingGame(), "a3", 1);
  const message = /** @type {any} */ ({
    type: "update", version: 5, action: "1: catch 1", seat: 1, id: "a3", view: view({ turn: 0 }),
    result: null, by_bot: false,
  });
  const game = updateArrived(before, message, 12);
  assert.equal(game.version, 5);
  assert.deepEqual(game.history, ["draw", "1: catch 1"]);
  assert.deepEqual(game.view && game.view.history, ["draw", "1: catch 1"]);
  assert.deepEqual(game.catches, {});
  assert.equal(game.receivedAt, 12);
  assert.deepEqual(before.catches, { a3: 1 });  // the game before is left as it was
});

test("a table that starts while the page knows no game asks for the state", () => {
  const waiting = { ...initialGame(), table: table({ status: "lobby" }) };
  const started = /** @type {any} */ ({ type: "table", table: table({ status: "playing" }) });
  assert.equal(tableArrived(waiting, started).sync, true);
  assert.equal(tableArrived(playingGame(), started).sync, false);  // it knows the game
  const still = /** @type {any} */ ({ type: "table", table: table({ status: "lobby" }) });
  assert.equal(tableArrived(waiting, still).sync, false);
});

test("the timer: a deadline from the seconds left, none without a seat or seconds", () => {
  assert.deepEqual(timerOf({ seat: 2, seconds: 5, phase: "grace" }, 100),
    { deadline: 5100, timerSeat: 2, timerPhase: "grace" });
  assert.equal(timerOf({ seat: null, seconds: 5, phase: null }, 0).deadline, null);
  assert.equal(timerOf(null, 0).deadline, null);
  assert.equal(timerSet(playingGame(), { seat: 1, seconds: null, phase: "turn" }, 0).deadline, null);
});

test("each action sent has its own id", () => {
  const first = nextAction(initialGame());
  const second = nextAction(first.game);
  assert.deepEqual([first.id, second.id], ["a1", "a2"]);
});

test("a refusal of a catch says the catch came too late, once", () => {
  const game = catchSent(playingGame(), "a4", 2);
  const refused = refusedAction(game, "a4");
  assert.equal(refused.caught, 2);
  assert.equal(refusedAction(refused.game, "a4").caught, null);
  assert.equal(refusedAction(game, "a9").caught, null);  // another action's refusal
  assert.equal(refusedAction(game, null).caught, null);
});

test("an action is made on the newest state where it is legal there too", () => {
  const game = playingGame({ version: 4 });
  const latest = { version: 6, view: view({ legal: ["dos", "draw"] }) };
  assert.equal(versionFor(game, latest, "dos"), 6);
  assert.equal(versionFor(game, latest, "R7@0"), 4);
  assert.equal(versionFor(game, null, "dos"), 4);
});

test("the cards drawn: those in the hand after and not before", () => {
  assert.deepEqual(newCards(view({ hand: ["R7", "B3"] }), view({ hand: ["R7", "B3", "G5"] })), ["G5"]);
  assert.deepEqual(newCards(view({ hand: ["R7"] }), view({ hand: ["R7", "R7"] })), ["R7"]);
  assert.deepEqual(newCards(null, view({ hand: ["Y1"] })), ["Y1"]);
});

test("a round's end shows once, then the game's end once", () => {
  const result = { round: 1, winner: 1, points: 30, hands: [] };
  let game = playingGame({ view: view({ round_results: [result] }) });
  assert.equal(endToShow(game), "round");
  game = endShown(game, "round");
  assert.equal(endToShow(game), null);
  game = { ...game, view: view({ phase: "over", round_results: [result] }) };
  assert.equal(endToShow(game), "over");
  game = endShown(game, "over");
  assert.equal(endToShow(game), null);
  assert.equal(game.overShownFor, 1);
});

test("a finished table is over whatever its view says", () => {
  assert.equal(endToShow(playingGame({ table: table({ status: "finished" }) })), "over");
});

test("this seat's turn, and a game still being played", () => {
  assert.equal(myTurn(playingGame({ view: view({ turn: 0 }) })), true);
  assert.equal(myTurn(playingGame({ view: view({ turn: 0, phase: "over" }) })), false);
  assert.equal(myTurn(playingGame({ seat: null })), false);
  assert.equal(playing(playingGame()), true);
  assert.equal(playing(playingGame({ view: view({ phase: "over" }) })), false);
  assert.equal(playing(initialGame()), false);
});
