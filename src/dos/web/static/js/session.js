// @ts-check
// What the browser remembers between visits (localStorage): the player's name and token, and
// the seat token of every table joined, so that a reload comes back to the same seat.
// Signing in (account.js) puts another player's token here; signing out forgets them all.

import { store } from "./store.js";

/** @param {string} key */
const get = (key) => localStorage.getItem(key);
/** @param {string} key @param {string} value */
const set = (key, value) => localStorage.setItem(key, value);

export const name = () => get("dos.name") || "";
/** @param {string} value */
export const setName = (value) => set("dos.name", value);
export const playerToken = () => get("dos.player_token");
export const playerId = () => get("dos.player_id");

/** Calls `listener()` whenever the player this browser holds changes. @param {() => void} listener */
export function onChange(listener) {
  store.session.listeners.add(listener);
}

function changed() {
  for (const listener of store.session.listeners) listener();
}

/** Keeps a seat grant (POST /api/tables or /join, or a match of the queue): the seat token
 * opens the seat again.
 * @param {Pick<import("./protocol").SeatGrant, "code" | "seat" | "token" | "player_id" | "player_token"> &
 *   Partial<import("./protocol").SeatGrant>} grant */
export function saveGrant(grant) {
  const before = playerId();
  set("dos.player_token", grant.player_token);
  set("dos.player_id", grant.player_id);
  set(`dos.seat.${grant.code}`, JSON.stringify({ seat: grant.seat, token: grant.token }));
  if (before !== grant.player_id) changed();
}

/** A fresh token for the same player (the server renews it when asked). @param {string | null | undefined} token */
export function renewToken(token) {
  if (token) set("dos.player_token", token);
}

function forgetSeats() {
  for (const code of seatCodes()) forget(code);
}

/** Another player signed in here: their token; the seats of the one before are not theirs.
 * @param {{player_id: string, player_token: string}} player */
export function signIn({ player_id, player_token }) {
  if (playerId() !== player_id) forgetSeats();
  set("dos.player_token", player_token);
  set("dos.player_id", player_id);
  changed();
}

/** Signed out: this browser forgets the player, their name and their seats. */
export function signOut() {
  for (const key of ["dos.player_token", "dos.player_id", "dos.name"]) localStorage.removeItem(key);
  forgetSeats();
  changed();
}

/** {seat, token} for a table code, or null. @param {string} code */
export function seatFor(code) {
  try {
    return JSON.parse(get(`dos.seat.${code}`) || "null");
  } catch {
    return null;
  }
}

/** The codes of the tables this browser holds a seat at. @returns {string[]} */
export function seatCodes() {
  const codes = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith("dos.seat.")) codes.push(key.slice("dos.seat.".length));
  }
  return codes.sort();
}

/** @param {string | null} code */
export function forget(code) {
  localStorage.removeItem(`dos.seat.${code}`);
}
