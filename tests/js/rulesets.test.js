// @ts-check
/// <reference types="node" />
// The rule sets as the page knows them (rulesets.js): what the server offers, each rule set's
// client by the one map, and the generic client (generic.js) for a rule set the map lacks,
// which reads only what every view has.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { store } from "../../src/dos/web/static/js/store.js";
import {
  rulesName, can, levelsOf, rulesetOf, clientFor, tableClientFor, loadedTableClient,
} from "../../src/dos/web/static/js/rulesets.js";
import { shownFields, shownValue, winnerOf } from "../../src/dos/web/static/js/generic.js";

/** @typedef {import("../../src/dos/web/static/js/view").View} View */

// The English words of the page (the catalog's `web` namespace), as the page loads them.
const web = JSON.parse(readFileSync(new URL("../../src/dos/i18n/locales/en/web.json", import.meta.url), "utf8"));
store.i18n.fallback = Object.fromEntries(Object.entries(web).map(([key, text]) => [`web.${key}`, String(text)]));
store.i18n.texts = store.i18n.fallback;

/** @param {string} name @param {object} changes */
const ruleset = (name, changes = {}) => ({
  name, summary: "", levels: [], hints: false, reviews: false, rated: false, reaction: false,
  target_score: false, dos_race: false, ...changes,
});
store.info = /** @type {any} */ ({
  protocol: 1, rules: ["official", "count-toy"], levels: [], levels_by_rules: {},
  max_message_bytes: 0, seats: [2, 3, 4],
  rulesets: [ruleset("official", { levels: ["easy", "hard"], hints: true, target_score: true }), ruleset("count-toy")],
});

/** A view of a rule set the page knows nothing of: only what every view has, and its own.
 * @param {object} changes @returns {View} */
const view = (changes = {}) => /** @type {View} */ (/** @type {unknown} */ ({
  seat: 0, options: { target: 4 }, turn: 1, phase: "counting", hand: [], legal: ["add 1", "add 2"],
  ...changes,
}));

test("a rule set's capabilities and levels are the server's", () => {
  assert.equal(can("official", "hints"), true);
  assert.equal(can("count-toy", "hints"), false);
  assert.equal(can("unknown", "target_score"), false);
  assert.deepEqual(levelsOf("official"), ["easy", "hard"]);
  assert.deepEqual(levelsOf("count-toy"), []);
  assert.equal(rulesetOf("unknown"), null);
});

test("a rule set is named by the catalog, else by its own name", () => {
  assert.equal(rulesName("official"), web.rules_official);
  assert.equal(rulesName("count-toy"), "count-toy");
});

test("a rule set the map lacks is played with the generic client", async () => {
  const client = await clientFor("count-toy");
  assert.equal(client.optionsPanel, undefined);
  assert.equal(client.help, undefined);
  const table = await tableClientFor("count-toy");
  assert.equal(loadedTableClient("count-toy"), table);
  assert.equal(table.cardsMoved("add 2"), null);
  assert.equal(table.describe("1: add 2", 1, null, ["Ada", "Bo"]), "Bo: add 2");
  assert.equal(table.describe("add 1", 0, null, ["Ada", "Bo"]), "Ada: add 1");
});

test("the generic client says the end, and who won where the view names a winner", async () => {
  const table = await tableClientFor("count-toy");
  const over = view({ phase: "over", winner: 1 });
  assert.deepEqual(table.outcome(view(), over, ["Ada", "Bo"]),
    [{ text: web.generic_winner.replace("{player}", "Bo"), kind: "round" }]);
  assert.deepEqual(table.outcome(view(), view({ phase: "over" }), ["Ada", "Bo"]),
    [{ text: web.generic_over, kind: "round" }]);
  assert.deepEqual(table.outcome(view(), view({ turn: 0 }), ["Ada", "Bo"]), []);
  assert.equal(winnerOf(view(), { winner: 0 }), 0);
  assert.equal(winnerOf(view(), null), null);
});

test("the generic table shows a view's public fields, readably", () => {
  const fields = shownFields(view({ total: 3, winner: null, history: ["add 1"], hand_sizes: [0, 0] }));
  assert.deepEqual(fields, [
    ["options", '{"target":4}'], ["turn", "1"], ["phase", "counting"], ["total", "3"],
    ["winner", "—"], ["hand_sizes", "0, 0"],
  ]);
  assert.equal(shownValue([]), "—");
});
