// @ts-check
/// <reference types="node" />
// Which sound an update plays (sound.js `soundOf`), without a browser.

import { test } from "node:test";
import assert from "node:assert/strict";

import { soundOf } from "../../src/dos/web/static/js/sound.js";
import { cardsMoved } from "../../src/dos/web/static/js/notation.js";
import { cardsMoved as classicMoved } from "../../src/dos/web/static/js/classic.js";

/** @typedef {import("../../src/dos/web/static/js/view").View} View */

/** Whether an official action moves cards (its client's `cardsMoved`). @param {string} action */
const official = (action) => cardsMoved(action) !== null;
/** @param {string} action */
const classic = (action) => classicMoved(action) !== null;

/** @param {object} changes @returns {View} */
const view = (changes = {}) => /** @type {View} */ ({
  seat: 0, options: {}, turn: 1, phase: "matching", hand: [], hand_sizes: [], draw_pile_size: 0,
  discard: [], legal: [], round_results: [], ...changes,
});

test("a card played, a draw, a call and a catch each have their sound", () => {
  assert.equal(soundOf("1: R7@0", view(), view(), 0, official("1: R7@0")), "play");
  assert.equal(soundOf("1: lay B3", view(), view(), 0, official("1: lay B3")), "play");
  assert.equal(soundOf("1: draw", view(), view(), 0, official("1: draw")), "draw");
  assert.equal(soundOf("1: dos", view(), view(), 0, official("1: dos")), "dos");
  assert.equal(soundOf("2: catch 1", view(), view(), 0, official("2: catch 1")), "catch");
});

test("an end of turn that gives no turn to this seat plays nothing", () => {
  assert.equal(soundOf("1: end", view(), view({ turn: 2 }), 0, official("1: end")), null);
});

test("this seat's turn come says so, over the move that brought it", () => {
  assert.equal(soundOf("1: end", view(), view({ turn: 0 }), 0, official("1: end")), "turn");
  assert.equal(soundOf("1: R7@0", view(), view({ turn: 0 }), 0, official("1: R7@0")), "turn");
  // A DOS! call or a catch keeps its own sound.
  assert.equal(soundOf("1: dos", view(), view({ turn: 0 }), 0, official("1: dos")), "dos");
  // Not at the game's end, not for a spectator, not when it was already this seat's turn.
  assert.equal(soundOf("1: end", view(), view({ turn: 0, phase: "over" }), 0, official("1: end")), null);
  assert.equal(soundOf("1: end", view(), view({ turn: 0 }), null, official("1: end")), null);
  assert.equal(soundOf("0: R7@0", view({ turn: 0 }), view({ turn: 0 }), 0, official("0: R7@0")), "play");
});

test("a round's end wins over everything", () => {
  const result = { round: 1, winner: 1, points: 30, hands: [] };
  const after = view({ round_results: [result], turn: 0 });
  assert.equal(soundOf("1: R7@0", view(), after, 0, official("1: R7@0")), "round");
  assert.equal(soundOf("1: dos", view(), after, 0, official("1: dos")), "round");
  // A log brief counts its rounds in `rounds`.
  assert.equal(soundOf("1: end", view({ rounds: 1 }), view({ rounds: 2 }), 0, official("1: end")), "round");
});

test("nothing before: only the move's own sound, no turn or round", () => {
  assert.equal(soundOf("1: end", null, view({ turn: 0 }), 0, official("1: end")), null);
  assert.equal(soundOf("1: R7@0", null, view({ turn: 0 }), 0, official("1: R7@0")), "play");
  assert.equal(soundOf("1: R7@0", view(), null, 0, official("1: R7@0")), null);
});

test("classic: a card played plays, a reaction or a timeout does not", () => {
  assert.equal(soundOf("1: G5", view(), view({ turn: 2 }), 0, classic("1: G5")), "play");
  assert.equal(soundOf("1: W=R", view(), view({ turn: 2 }), 0, classic("1: W=R")), "play");
  assert.equal(soundOf("1: react 3 400", view(), view({ turn: 2 }), 0, classic("1: react 3 400")), null);
  assert.equal(soundOf("1: timeout", view(), view({ turn: 2 }), 0, classic("1: timeout")), null);
  assert.equal(soundOf("1: draw", view(), view({ turn: 2 }), 0, classic("1: draw")), "draw");
});
