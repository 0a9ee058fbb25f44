// @ts-check
// Moderation's decisions, without a page (tests/js/moderation.test.js): whom a player may
// mute, block or report from a seat or a chat line, the request that names them, the words
// of a refusal, and how the admin page says a report, an end and a log entry. The player
// acted on is named by id (their page) or by a table's seat (the seat menu, a chat line),
// never by a name: the server reads the seat's player itself (docs/moderation.md).

/** The reasons a report may give, in the server's order (`dos.server.people.moderation`). */
export const REASONS = ["abuse", "cheating", "spam", "name", "other"];

/** The refusals with words of their own (`moderation.err_*`); any other is `err_failed`. */
const OWN_WORDS = new Set(["too_many_reports", "already_reported", "bad_player", "no_token"]);

/** Whether a line of the chat, or a seat, offers its menu to the reader in `mySeat`: another
 * person's, not a spectator's, nor a bot's, nor one's own.
 * @param {number | null | undefined} seat @param {number | null} mySeat
 * @param {{name?: string | null, bot?: string | null} | undefined} place  the seat as the table has it */
export function offersMenu(seat, mySeat, place) {
  if (seat === null || seat === undefined || seat === mySeat) return false;
  return Boolean(place && place.name && !place.bot);
}

/** Whom a request is about, as the API names them: by id, or by a table's seat and the name
 * the seat showed where the player saw them (`seatName`: a chat line's author, who may have
 * left the seat since; the server finds them in the table's records).
 * @param {{playerId?: string | null, code?: string | null, seat?: number | null, seatName?: string | null}} about
 * @returns {{player_id: string} | {code: string, seat: number, name?: string}} */
export function aboutBody({ playerId = null, code = null, seat = null, seatName = null }) {
  if (playerId) return { player_id: playerId };
  if (code && seat !== null && seat !== undefined) return seatName ? { code, seat, name: seatName } : { code, seat };
  throw new Error("a player id, or a table's code and seat");
}

/** The body of a report: whom, the reason, and the reporter's words trimmed (none: left out).
 * @param {{playerId?: string | null, code?: string | null, seat?: number | null, seatName?: string | null}} about
 * @param {string} reason @param {string} text */
export function reportBody(about, reason, text) {
  if (!REASONS.includes(reason)) throw new Error(`reason: one of ${REASONS.join(", ")}`);
  const words = text.trim();
  return { ...aboutBody(about), reason, ...(words ? { text: words } : {}) };
}

/** The catalog key that says a refusal to the player (its `code`, or the HTTP status).
 * @param {number} status @param {string | undefined} code */
export function refusalKey(status, code) {
  if (status === 401) return "moderation.err_no_token";
  if (code === "text_too_long" || code === "bad_text") return "moderation.err_text";
  if (code && OWN_WORDS.has(code)) return `moderation.err_${code}`;
  return "moderation.err_failed";
}

/** What the admin page shows instead of its queue when the API refuses the reader.
 * @param {number} status */
export function adminRefusalKey(status) {
  return status === 401 ? "moderation.admin_sign_in" : "moderation.admin_refused";
}

/** A mute's or ban's end as the admin page says it: `forever`, a time (seconds since the
 * epoch), or none. @param {number | "forever" | null | undefined} until
 * @returns {{key: string, date?: Date} | null} */
export function untilWords(until) {
  if (until === null || until === undefined) return null;
  if (until === "forever") return { key: "moderation.admin_forever" };
  return { key: "moderation.admin_until", date: new Date(until * 1000) };
}

/** The admin's action as a request (`POST /api/admin/actions`), or why not yet: a reason is
 * always given; hours only for a mute or ban, empty for good.
 * @param {"warn" | "mute" | "ban" | "dismiss"} action
 * @param {{playerId: string, reportId: number}} report @param {string} reason @param {string} hours
 * @returns {{ok: true, body: Record<string, unknown>} | {ok: false, key: string}} */
export function adminAction(action, report, reason, hours) {
  const why = reason.trim();
  if (!why) return { ok: false, key: "moderation.admin_need_reason" };
  /** @type {Record<string, unknown>} */
  const body = { action, reason: why, report_id: report.reportId };
  if (action !== "dismiss") body.player_id = report.playerId;
  const count = Number(hours);
  if ((action === "mute" || action === "ban") && hours.trim() && count > 0) body.hours = count;
  return { ok: true, body };
}

/** What a log entry is about, for the admin page: the player, the table, or the report.
 * @param {{player_id: string | null, table_code: string | null, report_id: number | null}} entry
 * @returns {{key: string, params: Record<string, string | number>} | {text: string}} */
export function logAbout(entry) {
  if (entry.player_id) return { text: entry.player_id };
  if (entry.table_code) return { key: "moderation.admin_table_n", params: { code: entry.table_code } };
  if (entry.report_id !== null) return { key: "moderation.admin_report_n", params: { id: entry.report_id } };
  return { text: "—" };
}
