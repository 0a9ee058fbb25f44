// @ts-check
// Play people's decisions, without the page (node --test, tests/js/queue.test.js): what to
// ask the queue (POST /api/queue), what the waiting panel says of a status, what to do when
// a status comes (keep waiting, go to the table, or say it is ready on another page), when to
// send the next heartbeat. docs/matchmaking.md is the queue's whole story.

/** The waits a player may choose before bots fill the empty seats, in seconds; null: never
 * (the menu's options in index.html, each with its words). */
export const BOT_WAITS = /** @type {const} */ ([null, 30, 60, 120]);

/** The longest pause between two heartbeats, in milliseconds (the server asks for its own). */
export const POLL_MS = 2000;

/**
 * @typedef {{state: "waiting" | "matched" | "gone", player_id: string, player_token: string,
 *   rules?: string | null, seats?: number | null, rated?: boolean, bots_after?: number | null,
 *   waited?: number, band?: number, heartbeat: number,
 *   seat?: {code: string, seat: number, token: string, player_id: string, player_token: string} | null}} QueueStatus
 */

/** The body of a join. @param {{name: string, rules: string, seats: number,
 *   botsAfter: number | null, token: string | null}} choice */
export function joinBody({ name, rules, seats, botsAfter, token }) {
  /** @type {Record<string, unknown>} */
  const body = { name, rules, seats, bots_after: botsAfter };
  if (token) body.player_token = token;
  return body;
}

/** A choice of the bot-wait menu as its value, and back: "" is never.
 * @param {number | null} seconds */
export const botWaitValue = (seconds) => (seconds === null ? "" : String(seconds));
/** @param {string} value @returns {number | null} */
export function botWaitOf(value) {
  const seconds = Number(value);
  return value === "" || !Number.isFinite(seconds) || seconds < 0 ? null : seconds;
}

/** Seconds waited as the panel shows them: m:ss. @param {number} seconds */
export function clock(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** The band as the panel shows it: whole skill points. @param {number} band */
export const bandWords = (band) => `±${Math.round(band)}`;

/**
 * What the page does with a status: `wait` (the panel waits and the next heartbeat goes),
 * `enter` (matched while the lobby shows: to the table), `ready` (matched while another page
 * shows: the panel says so, and the lobby tells them when they come back), `idle` (not in
 * the queue: the panel is the button again; `expired` when the server dropped the entry).
 * @param {QueueStatus} status @param {string} shown the page shown now
 * @returns {{action: "wait" | "enter" | "ready" | "idle", expired: boolean}}
 */
export function decide(status, shown) {
  if (status.state === "matched" && status.seat) return { action: shown === "lobby" ? "enter" : "ready", expired: false };
  if (status.state === "waiting") return { action: "wait", expired: false };
  return { action: "idle", expired: true };
}

/** Milliseconds until the next heartbeat: the server's pace, at most `POLL_MS`.
 * @param {QueueStatus} status */
export function nextPoll(status) {
  const asked = Number(status.heartbeat) * 1000;
  return Number.isFinite(asked) && asked > 0 ? Math.min(asked, POLL_MS) : POLL_MS;
}

/** The seat a match gave as a grant the session keeps (session.saveGrant).
 * @param {NonNullable<QueueStatus["seat"]>} seat */
export function grantOf(seat) {
  return { code: seat.code, seat: seat.seat, token: seat.token, player_id: seat.player_id, player_token: seat.player_token };
}
