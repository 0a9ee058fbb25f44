// @ts-check
/// <reference types="node" />
// The table's decisions (actions.js, notation.js), without a browser: which buttons the DOS
// race shows, the "DOS! with this move" toggle, the Hint button, and the action a selection
// makes.

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  leftAfter, dosWithMove, callsDos, race, catchToSend, matchOfSelection, layOfSelection,
  designationOutcomes,
} from "../../src/dos/web/static/js/actions.js";
import { parseAction, cardsMoved } from "../../src/dos/web/static/js/notation.js";
import { hintControl } from "../../src/dos/web/static/js/hintstate.js";
import { hintSwitch } from "../../src/dos/web/static/js/host.js";

/** @param {string[]} texts */
const legal = (texts) => texts.map(parseAction);

// --- the DOS race (RULES.md §6): DOS! and Catch! ---

test("Catch! shows one button per seat that can be caught now", () => {
  const state = race(legal(["draw", "1: catch 0", "2: catch 3"]), 5, null, 7);
  assert.deepEqual(state.catches.map((c) => c.seat), [0, 3]);
  assert.ok(state.catches.every((c) => !c.pressed && !c.waiting));
});

test("Catch! is gone once the call (or another catch) has come: no catch is legal", () => {
  assert.deepEqual(race(legal(["draw", "B7@0"]), 5, null, 8).catches, []);
});

test("a pressed Catch! shows pressed and every catch waits, on the same version only", () => {
  const actions = legal(["1: catch 0", "1: catch 2"]);
  const same = race(actions, 5, { seat: 2, version: 7 }, 7);
  assert.deepEqual(same.catches, [
    { seat: 0, waiting: true, pressed: false },
    { seat: 2, waiting: true, pressed: true },
  ]);
  const moved = race(actions, 5, { seat: 2, version: 7 }, 8);
  assert.ok(moved.catches.every((c) => !c.waiting && !c.pressed));
});

test("DOS! is lit while it must be called, shown but off with two cards, else hidden", () => {
  assert.deepEqual(race(legal(["dos", "draw"]), 2, null, 1).dos,
    { hidden: false, disabled: false, urgent: true });
  assert.deepEqual(race(legal(["draw"]), 2, null, 1).dos,
    { hidden: false, disabled: true, urgent: false });
  assert.deepEqual(race(legal(["draw"]), 5, null, 1).dos,
    { hidden: true, disabled: true, urgent: false });
});

test("a press of Catch! sends the catch of that seat, or of the first one; never twice", () => {
  const actions = legal(["1: catch 0", "1: catch 2"]);
  assert.equal(catchToSend(actions, null, null, 4)?.text, "1: catch 0");
  assert.equal(catchToSend(actions, 2, null, 4)?.text, "1: catch 2");
  assert.equal(catchToSend(actions, 3, null, 4), null);
  assert.equal(catchToSend(actions, 2, { seat: 0, version: 4 }, 4), null);
  assert.equal(catchToSend(actions, 2, { seat: 0, version: 3 }, 5)?.text, "1: catch 2");
  assert.equal(catchToSend(legal(["draw"]), null, null, 4), null);
});

// --- "DOS! with this move" ---

test("cards left after a move: a match, a lay or a place lays cards, a draw takes one", () => {
  assert.equal(leftAfter(parseAction("B3+R1@0"), 4), 2);
  assert.equal(leftAfter(parseAction("lay B3"), 3), 2);
  assert.equal(leftAfter(parseAction("place G7"), 5), 4);
  assert.equal(leftAfter(parseAction("draw"), 3), 4);
  assert.equal(leftAfter(parseAction("draw"), 1), 2);
  assert.equal(leftAfter(parseAction("end"), 3), null);
  assert.equal(leftAfter(parseAction("1: catch 0"), 3), null);  // another seat's
});

test("the toggle shows while a legal move would leave two cards", () => {
  assert.equal(dosWithMove(legal(["R7@0", "draw"]), 3, 0, false).hidden, false);
  assert.equal(dosWithMove(legal(["R7@0", "draw"]), 4, 0, false).hidden, true);
  assert.equal(dosWithMove(legal(["R7+B3@0", "draw"]), 4, 0, false).hidden, false);
  assert.equal(dosWithMove(legal(["draw"]), 3, 0, false).hidden, true);
  // A hand of one that must draw becomes two: the call can go with the draw (RULES.md §6),
  // else a fast bot catches the player before any press of DOS! could arrive.
  assert.equal(dosWithMove(legal(["draw"]), 1, 0, false).hidden, false);
});

test("the toggle is disabled while the selection cannot make such a move", () => {
  const actions = legal(["R7@0", "R7+B3@1"]);  // a hand of 3: only the single match leaves 2
  assert.equal(dosWithMove(actions, 3, 0, false).disabled, false);
  assert.equal(dosWithMove(actions, 3, 1, false).disabled, false);
  assert.equal(dosWithMove(actions, 3, 2, false).disabled, true);
});

test("the toggle stays pressed only while such a move is left", () => {
  assert.equal(dosWithMove(legal(["R7@0"]), 3, 0, true).armed, true);
  assert.equal(dosWithMove(legal(["draw"]), 3, 0, true).armed, false);
  assert.equal(dosWithMove(legal(["R7@0"]), 3, 0, false).armed, false);
});

test("a move carries the DOS! call when armed and it leaves two cards", () => {
  assert.equal(callsDos(parseAction("R7@0"), 3, true), true);
  assert.equal(callsDos(parseAction("R7@0"), 3, false), false);
  assert.equal(callsDos(parseAction("R7+B3@0"), 3, true), false);  // leaves one
  assert.equal(callsDos(parseAction("draw"), 3, true), false);
  assert.equal(callsDos(parseAction("draw"), 1, true), true);
});

// --- the action a selection makes ---

const HAND = ["R7", "B3", "DOS", "G1"];
const CENTER = ["R7", "B5", "Y#"];

test("a match needs a selection, and a legal match of those cards on that target", () => {
  const actions = legal(["R7@0", "B3+DOS@1", "draw"]);
  assert.deepEqual(matchOfSelection(actions, HAND, [], 0, CENTER, {}), { hint: "web.hint_select_first" });
  assert.deepEqual(matchOfSelection(actions, HAND, [0], 1, CENTER, {}), { hint: "web.hint_no_match_here" });
  const made = matchOfSelection(actions, HAND, [0], 0, CENTER, {});
  assert.ok("match" in made);
  assert.equal(made.match.text, "R7@0");
  assert.deepEqual(made.outcomes, [{ bonus: true, text: "R7@0" }]);
});

test("the selection's order does not matter, and a wild's designation is found", () => {
  const made = matchOfSelection(legal(["B3+DOS=R@1"]), HAND, [2, 1], 1, CENTER, {});
  assert.ok("match" in made);
  assert.equal(made.match.text, "B3+DOS=R@1");
});

test("a Wild DOS that may decline a colour bonus asks only where placements are compulsory", () => {
  const actions = legal(["DOS@0"]);
  const optional = matchOfSelection(actions, HAND, [2], 0, CENTER, {});
  const mandatory = matchOfSelection(actions, HAND, [2], 0, CENTER, { bonus_lay_mandatory: true });
  assert.ok("outcomes" in optional && "outcomes" in mandatory);
  assert.equal(optional.outcomes.length, 1);
  assert.deepEqual(mandatory.outcomes.map((o) => o.bonus), [true, false]);
  assert.match(mandatory.outcomes[1].text, /^DOS=[BGY]@0$/);
});

test("lay and place take exactly one selected card that can go", () => {
  const actions = legal(["lay B3", "end"]);
  assert.deepEqual(layOfSelection(actions, HAND, [], "lay"), { hint: "web.hint_pick_lay" });
  assert.deepEqual(layOfSelection(actions, HAND, [0, 1], "lay"), { hint: "web.hint_pick_lay" });
  assert.equal(layOfSelection(actions, HAND, [0], "lay"), null);
  const made = layOfSelection(actions, HAND, [1], "lay");
  assert.ok(made && "action" in made);
  assert.equal(made.action.text, "lay B3");
  assert.equal(layOfSelection(actions, HAND, [1], "place"), null);
});

test("the cards an action moves to the table: a match's, a lay's, a place's", () => {
  assert.deepEqual(cardsMoved("1: B3+R1@0"), ["B3", "R1"]);
  assert.deepEqual(cardsMoved("place G7"), ["G7"]);
  assert.equal(cardsMoved("draw"), null);
  assert.equal(cardsMoved("2: dos"), null);
});

// --- the Hint button (hint.js, hintstate.js) ---

/** @param {object} changes */
const table = (changes = {}) => ({
  hints: true, rated: false, host: 0,
  seats: [{ name: "Ada", bot: null }, { name: "Bot", bot: "easy" }],
  ...changes,
});
/** @param {object} changes */
const view = (changes = {}) => ({ turn: 0, phase: "matching", legal: ["R7@0", "draw"], ...changes });

test("the Hint button shows on one's own turn where hints are allowed", () => {
  assert.equal(hintControl(table(), view(), 0, false, true).hidden, false);
  assert.equal(hintControl(table(), view({ turn: 1 }), 0, false, true).hidden, true);
  assert.equal(hintControl(table({ hints: false }), view(), 0, false, true).hidden, true);
  assert.equal(hintControl(table(), view(), 0, false, false).hidden, true);  // a rule set without hints
  assert.equal(hintControl(table(), view({ phase: "over" }), 0, false, true).hidden, true);
  assert.equal(hintControl(table(), view(), null, false, true).hidden, true);  // a spectator
  assert.equal(hintControl(null, null, 0, false, true).hidden, true);
});

test("the Hint button hides when only DOS! or a catch is legal", () => {
  assert.equal(hintControl(table(), view({ legal: ["dos", "1: catch 2"] }), 0, false, true).hidden, true);
  assert.equal(hintControl(table(), view({ legal: ["dos", "end"] }), 0, false, true).hidden, false);
});

test("the Hint button waits while a hint is asked", () => {
  assert.equal(hintControl(table(), view(), 0, true, true).disabled, true);
  assert.equal(hintControl(table(), view(), 0, false, true).disabled, false);
});

test("the switch that allows hints is the host's, at a casual table with people", () => {
  const two = [{ name: "Ada", bot: null }, { name: "Bo", bot: null }];
  assert.equal(hintSwitch(table({ seats: two, hints: false }), 0, true).hidden, false);  // before any hint code
  assert.equal(hintSwitch(table({ seats: two }), 1, true).hidden, true);  // not host
  assert.equal(hintSwitch(table({ seats: two, rated: true }), 0, true).hidden, true);
  assert.equal(hintSwitch(table(), 0, true).hidden, true);  // one person
  assert.equal(hintSwitch(table({ hints: false }), 0, true).allowed, false);
  assert.equal(hintSwitch(table({ seats: two }), 0, false).hidden, true);  // no hints
});

// --- a wild's designation is asked only when it changes the outcome (RULES.md §3) ---

const ROW = ["R7", "B3", "DOS", "Y#"];
const DESIGNATIONS = [
  ["R5+DOS@0", 2],  // a Double Color Match with DOS as red, or a Double Number Match
  ["B5+DOS@0", 1],  // no colour makes a bonus: nothing to ask
  ["DOS@3", 2],  // the Wild DOS as 2 on a yellow Wild #: yellow or not
  ["R7@0", 1],  // no wild
  ["B3+R#@0", 1],  // the Wild #'s number changes nothing
  ["B1+G1@2", 1],  // no single colour agrees with both
  ["DOS@2", 1],  // Wild DOS on Wild DOS: one colour fits both, whatever is chosen
];

for (const [text, count] of DESIGNATIONS) {
  test(`${text}: ${count} outcome(s) where placements are compulsory, one where optional`, () => {
    const match = parseAction(text);
    const mandatory = designationOutcomes(match, ROW, { bonus_lay_mandatory: true });
    assert.equal(mandatory.length, count);
    assert.deepEqual(mandatory[0], { bonus: mandatory[0].bonus, text });  // the engine's own
    if (count === 2) {
      assert.equal(mandatory[0].bonus, true);
      assert.equal(mandatory[1].bonus, false);
      assert.match(mandatory[1].text, /DOS=[BGRY]/);  // the declining designation, written
    }
    // Optional placements: a colour bonus is never worse, so nothing is ever asked.
    assert.deepEqual(designationOutcomes(match, ROW, {}).map((o) => o.text), [text]);
  });
}
