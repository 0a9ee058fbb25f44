// @ts-check
/// <reference types="node" />
// Moderation's decisions (moderationrules.js), without a browser: whom the menu is offered
// for, the requests it sends, and the words of refusals and of the admin page.

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  REASONS, aboutBody, adminAction, adminRefusalKey, logAbout, offersMenu, refusalKey, reportBody,
  untilWords,
} from "../../src/dos/web/static/js/moderationrules.js";

test("the menu is offered for another person's seat, never one's own, a bot's or a spectator's", () => {
  const ada = { name: "Ada", bot: null };
  assert.equal(offersMenu(1, 0, ada), true);
  assert.equal(offersMenu(1, null, ada), true);  // a spectator may report a player
  assert.equal(offersMenu(0, 0, ada), false);
  assert.equal(offersMenu(null, 0, ada), false);
  assert.equal(offersMenu(2, 0, { name: null, bot: "hard" }), false);
  assert.equal(offersMenu(3, 0, undefined), false);
});

test("a request names the player by id, else by the table's seat", () => {
  assert.deepEqual(aboutBody({ playerId: "p_a", code: "ABC", seat: 1 }), { player_id: "p_a" });
  assert.deepEqual(aboutBody({ code: "ABC", seat: 0 }), { code: "ABC", seat: 0 });
  assert.deepEqual(aboutBody({ code: "ABC", seat: 1, seatName: "Bo" }), { code: "ABC", seat: 1, name: "Bo" });
  assert.throws(() => aboutBody({ code: "ABC" }));
});

test("a report sends its reason and the words trimmed, none when empty", () => {
  assert.deepEqual(reportBody({ code: "ABC", seat: 2 }, "spam", "  again and again "),
    { code: "ABC", seat: 2, reason: "spam", text: "again and again" });
  assert.deepEqual(reportBody({ playerId: "p_b" }, "name", "   "), { player_id: "p_b", reason: "name" });
  assert.throws(() => reportBody({ playerId: "p_b" }, "rude", ""));
  assert.deepEqual(REASONS, ["abuse", "cheating", "spam", "name", "other"]);
});

test("each refusal has its words, the rest one general text", () => {
  assert.equal(refusalKey(429, "too_many_reports"), "moderation.err_too_many_reports");
  assert.equal(refusalKey(409, "already_reported"), "moderation.err_already_reported");
  assert.equal(refusalKey(401, "bad_token"), "moderation.err_no_token");
  assert.equal(refusalKey(422, "text_too_long"), "moderation.err_text");
  assert.equal(refusalKey(500, "internal"), "moderation.err_failed");
  assert.equal(adminRefusalKey(403), "moderation.admin_refused");
  assert.equal(adminRefusalKey(401), "moderation.admin_sign_in");
});

test("an admin's action needs a reason; hours only bound a mute or a ban", () => {
  const report = { playerId: "p_b", reportId: 7 };
  assert.deepEqual(adminAction("ban", report, " ", ""), { ok: false, key: "moderation.admin_need_reason" });
  assert.deepEqual(adminAction("ban", report, "abuse", ""),
    { ok: true, body: { action: "ban", reason: "abuse", report_id: 7, player_id: "p_b" } });
  assert.deepEqual(adminAction("mute", report, "spam", "2"),
    { ok: true, body: { action: "mute", reason: "spam", report_id: 7, player_id: "p_b", hours: 2 } });
  assert.deepEqual(adminAction("warn", report, "tone", "5"),
    { ok: true, body: { action: "warn", reason: "tone", report_id: 7, player_id: "p_b" } });
  assert.deepEqual(adminAction("dismiss", report, "fine", ""),
    { ok: true, body: { action: "dismiss", reason: "fine", report_id: 7 } });
});

test("the admin page says ends and what a log entry is about", () => {
  assert.equal(untilWords(null), null);
  assert.deepEqual(untilWords("forever"), { key: "moderation.admin_forever" });
  assert.deepEqual(untilWords(10), { key: "moderation.admin_until", date: new Date(10000) });
  assert.deepEqual(logAbout({ player_id: "p_b", table_code: null, report_id: 3 }), { text: "p_b" });
  assert.deepEqual(logAbout({ player_id: null, table_code: "ABC", report_id: null }),
    { key: "moderation.admin_table_n", params: { code: "ABC" } });
  assert.deepEqual(logAbout({ player_id: null, table_code: null, report_id: 3 }),
    { key: "moderation.admin_report_n", params: { id: 3 } });
});
