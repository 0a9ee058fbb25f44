// @ts-check
/// <reference types="node" />
// Play people's decisions (queue.js): the join's body, the bot-wait menu, what a status
// makes the page do, the waiting panel's words.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  BOT_WAITS, POLL_MS, bandWords, botWaitOf, botWaitValue, clock, decide, grantOf, joinBody, nextPoll,
} from "../../src/dos/web/static/js/queue.js";

const SEAT = { code: "ABCD", seat: 1, token: "t", player_id: "p", player_token: "pt" };
/** @param {Partial<import("../../src/dos/web/static/js/queue.js").QueueStatus>} fields
 * @returns {import("../../src/dos/web/static/js/queue.js").QueueStatus} */
const status = (fields) => ({ state: "waiting", player_id: "p", player_token: "pt", heartbeat: 5, ...fields });

test("a join asks for the rule set, the size and the bot wait, with the player's token", () => {
  assert.deepEqual(joinBody({ name: "Ada", rules: "official", seats: 3, botsAfter: 60, token: "pt" }),
    { name: "Ada", rules: "official", seats: 3, bots_after: 60, player_token: "pt" });
  assert.equal("player_token" in joinBody({ name: "Ada", rules: "official", seats: 2, botsAfter: null, token: null }), false);
});

test("the bot-wait menu goes from never to two minutes and back through its values", () => {
  assert.deepEqual([...BOT_WAITS], [null, 30, 60, 120]);
  for (const wait of BOT_WAITS) assert.equal(botWaitOf(botWaitValue(wait)), wait);
  assert.equal(botWaitOf("nonsense"), null);
  assert.equal(botWaitOf("-5"), null);
});

test("the page's bot-wait menu offers exactly these waits", () => {
  const page = readFileSync(new URL("../../src/dos/web/static/index.html", import.meta.url), "utf8");
  const menu = /<select name="bots" id="play-people-bots">([\s\S]*?)<\/select>/.exec(page);
  assert.ok(menu);
  const values = [...menu[1].matchAll(/<option value="(\d*)"/g)].map((m) => m[1]);
  assert.deepEqual(values, BOT_WAITS.map(botWaitValue));
});

test("matched on the lobby goes to the table; matched elsewhere waits to be told", () => {
  assert.deepEqual(decide(status({ state: "matched", seat: SEAT }), "lobby"), { action: "enter", expired: false });
  assert.deepEqual(decide(status({ state: "matched", seat: SEAT }), "rules"), { action: "ready", expired: false });
});

test("waiting waits; gone is the button again, said as expired", () => {
  assert.equal(decide(status({ state: "waiting" }), "lobby").action, "wait");
  assert.deepEqual(decide(status({ state: "gone" }), "lobby"), { action: "idle", expired: true });
});

test("the heartbeat keeps the server's pace, never slower than POLL_MS", () => {
  assert.equal(nextPoll(status({ heartbeat: 5 })), POLL_MS);
  assert.equal(nextPoll(status({ heartbeat: 1 })), 1000);
  assert.equal(nextPoll(status({ heartbeat: 0 })), POLL_MS);
});

test("the panel says the wait as m:ss and the band in whole points", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(65.7), "1:05");
  assert.equal(bandWords(4), "±4");
});

test("a match's seat is kept as a grant", () => {
  assert.deepEqual(grantOf(SEAT), SEAT);
});
