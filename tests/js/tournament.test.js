// @ts-check
/// <reference types="node" />
// The tournament pages' decisions (tournament.js): the status line, the visitor's buttons,
// the standings' rows, the tables to watch, the new tournament's body, the address.

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  POLL_MS, clock, createBody, idOf, movedOn, nextPoll, offers, refusalKey, rowAction, rows, statusLine, topTables,
} from "../../src/dos/web/static/js/tournament.js";

/** @param {Partial<import("../../src/dos/web/static/js/tournament.js").Standing>} fields */
const standing = (fields) => ({
  place: 1, player_id: "a", name: "Ada", points: 0, games: 0, firsts: 0, byes: 0, tie_break: 0,
  streak: 0, playing: false, active: true, ...fields,
});

/** @param {Partial<import("../../src/dos/web/static/js/tournament.js").Tournament>} fields
 * @returns {import("../../src/dos/web/static/js/tournament.js").Tournament} */
const tournament = (fields) => ({
  id: "abc", name: "Cup", format: "swiss", rules: "official", seats: 2, rated: false,
  streaks: false, organiser: "a", status: "open", round: 0, rounds: 3, starts_at: null,
  ends_at: null, now: 1000, standings: [standing({}), standing({ place: 2, player_id: "b", name: "Bea" })],
  tables: [], games: [], ...fields,
});

test("a duration reads as minutes and seconds, hours from an hour", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(61.2), "1:02");
  assert.equal(clock(3725), "1:02:05");
  assert.equal(clock(-5), "0:00");
});

test("the status line says the round, the time left or the end", () => {
  assert.deepEqual(statusLine(tournament({})), { key: "tour.swiss_not_started", params: { rounds: 3 } });
  assert.deepEqual(statusLine(tournament({ round: 2, status: "running" })).params, { round: 2, rounds: 3 });
  const arena = { format: /** @type {const} */ ("arena"), starts_at: 1100, ends_at: 1700 };
  assert.deepEqual(statusLine(tournament({ ...arena })), { key: "tour.starts_in", params: { time: "1:40" } });
  assert.deepEqual(statusLine(tournament({ ...arena, now: 1400 })), { key: "tour.ends_in", params: { time: "5:00" } });
  assert.equal(statusLine(tournament({ ...arena, now: 1700 })).key, "tour.ending");
  assert.equal(statusLine(tournament({ status: "finished" })).key, "tour.finished");
});

test("the countdown runs on this browser's clock between two loads, never backwards", () => {
  const arena = tournament({ format: /** @type {const} */ ("arena"), starts_at: 1100, ends_at: 1700 });
  const skew = arena.now - 50;  // read when this browser's clock said 50
  assert.deepEqual(statusLine(movedOn(arena, skew, 50)).params, { time: "1:40" });
  assert.deepEqual(statusLine(movedOn(arena, skew, 57)).params, { time: "1:33" });
  assert.deepEqual(statusLine(movedOn(arena, skew, 150)).key, "tour.ends_in");
  assert.deepEqual(statusLine(movedOn(arena, skew, 40)).params, { time: "1:40" });  // a clock set back
});

test("the organiser starts a round only when the last one ended and enough play", () => {
  assert.equal(offers(tournament({}), "a").start, true);
  assert.equal(offers(tournament({}), "b").start, false);
  const busy = { tables: [{ number: 1, code: "X", bye: false, players: [], ranks: null }] };
  assert.equal(offers(tournament(busy), "a").start, false);
  assert.equal(offers(tournament({ round: 3 }), "a").start, false);
  const alone = tournament({ standings: [standing({}), standing({ player_id: "b", active: false })] });
  assert.equal(offers(alone, "a").start, false);
  assert.equal(offers(tournament({ format: "arena" }), "a").start, false);
});

test("a visitor joins, a player leaves or goes to their table; nobody acts once it is finished", () => {
  assert.deepEqual([offers(tournament({}), null).join, offers(tournament({}), null).leave], [true, false]);
  const playing = tournament({ standings: [standing({ playing: true })] });
  assert.deepEqual([offers(playing, "a").join, offers(playing, "a").leave, offers(playing, "a").play], [false, true, true]);
  const left = tournament({ standings: [standing({ active: false })] });
  assert.equal(offers(left, "a").join, true);
  const over = offers(tournament({ status: "finished" }), "a");
  assert.deepEqual([over.join, over.leave, over.play, over.start], [false, false, false, false]);
});

test("the standings show whole points plainly and mark the visitor's row and streaks", () => {
  const t = tournament({ streaks: true, standings: [standing({ points: 4, tie_break: 2.5, streak: 2 }), standing({ player_id: "b", points: 1.5, active: false })] });
  const shown = rows(t, "b");
  assert.deepEqual(shown.map((r) => [r.points, r.tieBreak, r.mine, r.streak, r.left]), [
    ["4", "2.5", false, true, false],
    ["1.5", "0", true, false, true],
  ]);
});

test("the tables to watch are those with a table, at most four", () => {
  const table = (/** @type {number} */ n) => ({ number: n, code: `T${n}`, bye: false, players: [{ player_id: "a", name: "Ada" }], ranks: null });
  const t = tournament({ tables: [1, 2, 3, 4, 5].map(table) });
  assert.deepEqual(topTables(t).map((x) => x.href), ["/t/T1", "/t/T2", "/t/T3", "/t/T4"]);
  assert.deepEqual(topTables(t)[0].names, ["Ada"]);
});

test("an open tournament is looked at again, a finished one is not", () => {
  assert.equal(nextPoll(tournament({})), POLL_MS);
  assert.equal(nextPoll(tournament({ status: "finished" })), null);
});

test("a Swiss asks for rounds, an arena for minutes and streaks; the token goes along", () => {
  const form = { name: "Ada", title: "Cup", format: "swiss", rules: "official", seats: 2, rounds: 3, minutes: 30, rated: false, streaks: true, play: true, token: "pt" };
  assert.deepEqual(createBody(form), { name: "Ada", title: "Cup", format: "swiss", rules: "official", seats: 2, rated: false, play: true, rounds: 3, player_token: "pt" });
  const arena = createBody({ ...form, format: "arena", token: null });
  assert.deepEqual([arena.minutes, arena.streaks, "rounds" in arena, "player_token" in arena], [30, true, false, false]);
});

test("the address names a tournament or the list", () => {
  assert.equal(idOf("/tournaments/ab12cd34"), "ab12cd34");
  assert.equal(idOf("/tournaments"), null);
  assert.equal(idOf("/tournaments/AB!"), null);
});

test("a refusal is said in the catalog's words of its code", () => {
  assert.equal(refusalKey("not_organiser"), "tour.refused_not_organiser");
  assert.equal(refusalKey("weird"), "tour.refused");
  assert.equal(refusalKey(undefined), "tour.refused");
});

test("the organiser drops a player who plays on and adds back one who is out, never themselves", () => {
  const t = tournament({ standings: [standing({}), standing({ player_id: "b" }), standing({ player_id: "c", active: false })] });
  assert.deepEqual(t.standings.map((row) => rowAction(t, "a", row)), [null, "drop", "add"]);
  assert.deepEqual(t.standings.map((row) => rowAction(t, "b", row)), [null, null, null]);
  assert.equal(rowAction(tournament({ ...t, status: "finished" }), "a", t.standings[1]), null);
});
