// @ts-check
// The tournament pages' decisions (tournamentpage.js draws them): what the status line says,
// which buttons a visitor gets, the standings' rows, the tables worth watching, the body of a
// new tournament, and when to look again. Pure functions of the server's JSON
// (GET /api/tournaments/{id}, docs/tournaments.md) and of who looks: node's tests run them.

/** How often an open tournament's page looks again (ms): its standings are live. */
export const POLL_MS = 3000;
/** The tables under way offered to watch, the best placed first. */
export const TOP_TABLES = 4;

/**
 * A tournament as GET /api/tournaments/{id} gives it (the fields these decisions read).
 * @typedef {object} Tournament
 * @property {string} id
 * @property {string} name
 * @property {"swiss" | "arena"} format
 * @property {string} rules
 * @property {number} seats
 * @property {boolean} rated
 * @property {boolean} streaks
 * @property {string} organiser
 * @property {"open" | "running" | "finished"} status
 * @property {number} round
 * @property {number | null} rounds
 * @property {number | null} starts_at
 * @property {number | null} ends_at
 * @property {number} now
 * @property {Standing[]} standings
 * @property {Table[]} tables
 * @property {Table[]} games
 */
/**
 * @typedef {object} Standing
 * @property {number} place
 * @property {string} player_id
 * @property {string} name
 * @property {number} points
 * @property {number} games
 * @property {number} firsts
 * @property {number} byes
 * @property {number} tie_break
 * @property {number} streak
 * @property {boolean} playing
 * @property {boolean} active
 */
/**
 * @typedef {object} Table
 * @property {number} number
 * @property {string | null} code
 * @property {boolean} bye
 * @property {{player_id: string, name: string}[]} players
 * @property {number[] | null} ranks
 */

/** A duration as the page shows it: `m:ss`, or `h:mm:ss` from an hour.
 * @param {number} seconds */
export function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The status line: a catalog key and its parameters.
 * @param {Tournament} t @returns {{key: string, params: Record<string, string | number>}} */
export function statusLine(t) {
  if (t.status === "finished") return { key: "tour.finished", params: {} };
  if (t.format === "swiss") {
    if (t.round === 0) return { key: "tour.swiss_not_started", params: { rounds: t.rounds ?? 0 } };
    return { key: "tour.round_of", params: { round: t.round, rounds: t.rounds ?? 0 } };
  }
  const starts = t.starts_at ?? t.now;
  const ends = t.ends_at ?? t.now;
  if (t.now < starts) return { key: "tour.starts_in", params: { time: clock(starts - t.now) } };
  if (t.now < ends) return { key: "tour.ends_in", params: { time: clock(ends - t.now) } };
  return { key: "tour.ending", params: {} };
}

/** The tournament as of this browser's clock `local` (seconds): the server's `now` moved on
 * by the time passed since it was read (`skew`: the server's clock less this browser's at that
 * read), never back before it. The status line's countdown runs on it between two loads.
 * @param {Tournament} t @param {number} skew @param {number} local @returns {Tournament} */
export function movedOn(t, skew, local) {
  return { ...t, now: Math.max(t.now, local + skew) };
}

/** What the visitor `me` (a player id, or null) may do here.
 * @param {Tournament} t @param {string | null} me */
export function offers(t, me) {
  const row = t.standings.find((s) => s.player_id === me);
  const open = t.status !== "finished";
  const organiser = me !== null && me === t.organiser;
  const active = t.standings.filter((s) => s.active).length;
  const lastDone = t.tables.length === 0;
  const roundsLeft = t.format === "swiss" && t.round < (t.rounds ?? 0);
  return {
    join: open && (!row || !row.active),
    leave: open && !!row && row.active,
    play: open && !!row && row.playing,
    start: open && organiser && roundsLeft && lastDone && active >= t.seats,
    nextRound: t.round + 1,
  };
}

/** What the organiser `me` may do to a player's row: drop them while they play on, add them
 * again once dropped or gone; nothing to their own row, nothing once it is finished.
 * @param {Tournament} t @param {string | null} me @param {Standing} row
 * @returns {"drop" | "add" | null} */
export function rowAction(t, me, row) {
  if (t.status === "finished" || me === null || me !== t.organiser || row.player_id === me) return null;
  return row.active ? "drop" : "add";
}

/** The standings as the table shows them: points without a trailing `.0`, the visitor's row
 * marked. @param {Tournament} t @param {string | null} me */
export function rows(t, me) {
  return t.standings.map((s) => ({
    place: s.place,
    playerId: s.player_id,
    name: s.name,
    points: points(s.points),
    games: s.games,
    firsts: s.firsts,
    tieBreak: points(s.tie_break),
    streak: t.streaks && s.streak >= 2,
    playing: s.playing,
    left: !s.active,
    mine: s.player_id === me,
  }));
}

/** @param {number} value */
export function points(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The tables under way worth watching: the best placed first (the server's order), those
 * with a table to open. @param {Tournament} t */
export function topTables(t) {
  return t.tables
    .filter((table) => table.code)
    .slice(0, TOP_TABLES)
    .map((table) => ({ href: `/t/${table.code}`, names: table.players.map((p) => p.name) }));
}

/** When to look again (ms), or null: a finished tournament changes no more.
 * @param {Tournament} t */
export function nextPoll(t) {
  return t.status === "finished" ? null : POLL_MS;
}

/**
 * The body of POST /api/tournaments from the form's values.
 * @param {{name: string, title: string, format: string, rules: string, seats: number,
 *   rounds: number, minutes: number, rated: boolean, streaks: boolean, play: boolean,
 *   token: string | null}} form
 */
export function createBody(form) {
  /** @type {Record<string, unknown>} */
  const body = {
    name: form.name, title: form.title, format: form.format, rules: form.rules,
    seats: form.seats, rated: form.rated, play: form.play,
  };
  if (form.format === "swiss") body.rounds = form.rounds;
  else {
    body.minutes = form.minutes;
    body.streaks = form.streaks;
  }
  if (form.token) body.player_token = form.token;
  return body;
}

/** The tournament an address names: `/tournaments/<id>`, else null (the list).
 * @param {string} path */
export function idOf(path) {
  const match = /^\/tournaments\/([a-z0-9]{1,16})\/?$/.exec(path);
  return match ? match[1] : null;
}

/** The catalog key of a refusal's code (an unknown one: the generic words).
 * @param {string | undefined} code */
export function refusalKey(code) {
  const known = ["not_organiser", "bad_state", "not_entered", "no_tournament", "bad_request", "bad_token", "banned"];
  return code && known.includes(code) ? `tour.refused_${code}` : "tour.refused";
}
