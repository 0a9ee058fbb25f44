// @ts-check
/// <reference types="node" />
// Friends' decisions (friends.js), without a browser: where a page says it is, what a
// presence shows, which invitations and answers are news, a challenge form's body.

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  whereFrom, presenceShown, newInvitations, news, challengeBody, playerIdFrom, refusalKey, offerFor,
  mayRedraw, panelShows,
} from "../../src/dos/web/static/js/friends.js";

/** @param {string} id @param {string} status */
const challenge = (id, status) => ({
  id, status, challenger: "p_a", challenged: "p_b", name: "Ada", rules: "official", bots: [],
  rated: false, expires_at: 0,
});

test("a page seated at a table says table, without a seat watching, else the site", () => {
  assert.deepEqual(whereFrom({ code: "ABC", seat: 1 }), { where: "table", code: "ABC" });
  assert.deepEqual(whereFrom({ code: "ABC", seat: null }), { where: "watching", code: "ABC" });
  assert.deepEqual(whereFrom({ code: null, seat: 2 }), { where: "site", code: null });
});

test("a friend playing or watching can be watched; online and offline name no table", () => {
  assert.deepEqual(presenceShown({ state: "playing", code: "K7M2QX" }),
    { key: "friends.presence_playing", dot: "dot-playing", watch: "K7M2QX" });
  assert.equal(presenceShown({ state: "watching", code: "ABC" }).watch, "ABC");
  assert.equal(presenceShown({ state: "online", code: "ABC" }).watch, null);
  assert.equal(presenceShown(null).key, "friends.presence_offline");
});

test("an invitation is shown once, and only while open", () => {
  const shown = new Set(["c1"]);
  const fresh = newInvitations([challenge("c1", "open"), challenge("c2", "open"), challenge("c3", "expired")], shown);
  assert.deepEqual(fresh.map((c) => c.id), ["c2"]);
});

test("each answer is told once; an accepted one only once its seat is there", () => {
  const outcomes = [
    { challenge: challenge("c1", "declined") },
    { challenge: challenge("c2", "accepted"), landing: null },
    { challenge: challenge("c3", "accepted"), landing: { code: "T", seat: 0, token: "x" } },
    { challenge: challenge("c4", "open") },
    { challenge: challenge("c5", "expired") },
  ];
  const told = new Set(["c5:expired"]);
  assert.deepEqual(news(outcomes, told).map((o) => o.challenge.id), ["c1", "c3"]);
});

test("a challenge form fills the seats after the two players with bots of its level", () => {
  const form = { to: "p_b", name: "Ada", rules: "official", level: "easy", rated: true };
  assert.deepEqual(challengeBody({ ...form, seats: 4 })?.bots, ["easy", "easy"]);
  assert.deepEqual(challengeBody({ ...form, seats: 2, level: "" })?.bots, []);
  assert.equal(challengeBody({ ...form, seats: 5 }), null);
  assert.equal(challengeBody({ ...form, seats: 3, level: "" }), null);
});

test("a player is named by their id or by a link to their page", () => {
  assert.equal(playerIdFrom(" p_abc-9 "), "p_abc-9");
  assert.equal(playerIdFrom("https://dos.example/leaderboard?player=p_x1"), "p_x1");
  assert.equal(playerIdFrom("not an id!"), null);
});

test("the friends' refusals have words of their own; others are the page's", () => {
  assert.equal(refusalKey("not_friends"), "friends.err_not_friends");
  assert.equal(refusalKey("rate_limited"), null);
  assert.equal(refusalKey(null), null);
});

test("a player's page offers friendship for another person, never oneself or a bot", () => {
  assert.equal(offerFor("p_b", "p_a"), true);
  assert.equal(offerFor("p_a", "p_a"), false);
  assert.equal(offerFor("bot:easy", "p_a"), false);
  assert.equal(offerFor("p_b", null), false);
});

test("a pulse never redraws the panel under a challenge being made or a field in use", () => {
  assert.equal(mayRedraw({ challenging: null, focusInside: false }), true);
  assert.equal(mayRedraw({ challenging: "p_b", focusInside: false }), false);
  assert.equal(mayRedraw({ challenging: null, focusInside: true }), false);
});

test("the Friends panel offers friends to a member, and to anyone else says to sign in", () => {
  assert.equal(panelShows({ token: "t", member: true }), "friends");
  assert.equal(panelShows({ token: "t", member: false }), "sign_in");  // a guest's token
  assert.equal(panelShows({ token: null, member: false }), "sign_in");  // a browser holding none
  assert.equal(panelShows({ token: null, member: true }), "sign_in");
});
