// @ts-check
// Friends' decisions, without the page (tests/js/friends.test.js): what the lobby's panel
// shows, where this page says it is, what a friend's presence shows, which invitations and
// answers are news, what a challenge form asks for, and the catalog's words for a refusal. The page's parts are friendspanel.js
// (the lobby's panel) and friendsboot.js (the pulse and the invitation's toast), docs/friends.md.

/** @typedef {{state: "online" | "playing" | "watching" | "offline", code?: string | null}} Presence */
/** @typedef {{id: string, challenger: string, challenged: string, name: string, rules: string,
 *   bots: string[], rated: boolean, status: string, expires_at: number, code?: string | null}} ChallengeInfo */
/** @typedef {{challenge: ChallengeInfo, landing?: {code: string, seat: number, token: string} | null}} Outcome */

/** Where the page is, as its pulse says it: seated at a table, watching one, or elsewhere on
 * the site. @param {{code: string | null, seat: number | null}} game
 * @returns {{where: "site" | "table" | "watching", code: string | null}} */
export function whereFrom(game) {
  if (!game.code) return { where: "site", code: null };
  return { where: game.seat === null ? "watching" : "table", code: game.code };
}

/** A presence's words (catalog key) and its dot's class; playing or watching, the table to
 * watch. @param {Presence | null | undefined} presence */
export function presenceShown(presence) {
  const state = presence ? presence.state : "offline";
  const code = presence && (state === "playing" || state === "watching") ? presence.code || null : null;
  return { key: `friends.presence_${state}`, dot: `dot-${state}`, watch: code };
}

/** The challenges to show as a new invitation: open ones not shown before (their ids in
 * `shown`). @param {ChallengeInfo[]} challenges @param {Set<string>} shown */
export function newInvitations(challenges, shown) {
  return challenges.filter((c) => c.status === "open" && !shown.has(c.id));
}

const TOLD = new Set(["accepted", "declined", "expired"]);

/** The answers to one's challenges to tell: accepted (with a seat), declined or expired, each
 * once (`told`: `id:status` said before). @param {Outcome[]} outcomes @param {Set<string>} told */
export function news(outcomes, told) {
  return outcomes.filter(({ challenge, landing }) =>
    TOLD.has(challenge.status) && !told.has(`${challenge.id}:${challenge.status}`)
    && (challenge.status !== "accepted" || Boolean(landing)));
}

/** The words of one answer (catalog key). @param {string} status */
export function newsKey(status) {
  return `friends.challenge_${status}`;
}

/** What a challenge form asks for: seats 2-4, bots of `level` for the seats after the two
 * players', rated or casual; `null` when the seats are out of range.
 * @param {{to: string, name: string, rules: string, seats: number, level: string, rated: boolean}} form */
export function challengeBody({ to, name, rules, seats, level, rated }) {
  if (!Number.isInteger(seats) || seats < 2 || seats > 4) return null;
  if (seats > 2 && !level) return null;
  return { to, name, rules, bots: Array(seats - 2).fill(level), rated };
}

/** A player id from what a player typed: the id itself, or a link with `player=ID` or
 * `/player/ID` in it; `null` when neither. @param {string} text */
export function playerIdFrom(text) {
  const trimmed = text.trim();
  const found = trimmed.match(/(?:[?&]player=|\/player\/)([A-Za-z0-9_-]{1,48})/) || trimmed.match(/^([A-Za-z0-9_-]{1,48})$/);
  return found ? found[1] : null;
}

/** Whether a player's page offers to befriend or follow the player it shows: a person's page
 * (not a bot's), not one's own. @param {string | null} shown @param {string | null} me */
export function offerFor(shown, me) {
  return Boolean(shown && me && shown !== me && !shown.startsWith("bot:"));
}

/** What the lobby's Friends panel shows: the friends' features to a member (a player kept by
 * a passkey or a recovery code), the line saying that friends come with signing in to anyone
 * else: a browser holding no player, or a guest's (the server said `sign_in_needed`).
 * @param {{token: string | null, member: boolean}} who @returns {"friends" | "sign_in"} */
export function panelShows({ token, member }) {
  return token && member ? "friends" : "sign_in";
}

/** Whether the panel may be drawn again with news of its own accord (a pulse): not while the
 * player fills in a challenge or has the focus in the panel, which a redraw would lose.
 * @param {{challenging: string | null, focusInside: boolean}} panel */
export function mayRedraw({ challenging, focusInside }) {
  return challenging === null && !focusInside;
}

const CODES = new Set(["sign_in_needed", "no_player", "not_yourself", "not_friends", "challenge_open",
  "too_many_challenges", "no_challenge", "blocked_player", "too_many_follows", "too_many_friends"]);

/** The catalog key of a refusal of the friends' endpoints, `null` for one the page's own
 * refusals say (errors.js). @param {string | null} code */
export function refusalKey(code) {
  return code && CODES.has(code) ? `friends.err_${code}` : null;
}
