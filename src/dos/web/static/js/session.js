// What the browser remembers between visits (localStorage): the player's name and token, and
// the seat token of every table joined, so that a reload comes back to the same seat.

const get = (key) => localStorage.getItem(key);
const set = (key, value) => localStorage.setItem(key, value);

export const name = () => get("dos.name") || "";
export const setName = (value) => set("dos.name", value);
export const playerToken = () => get("dos.player_token");

/** Keeps a seat grant (POST /api/tables or /join): the seat token opens the seat again. */
export function saveGrant(grant) {
  set("dos.player_token", grant.player_token);
  set("dos.player_id", grant.player_id);
  set(`dos.seat.${grant.code}`, JSON.stringify({ seat: grant.seat, token: grant.token }));
}

/** {seat, token} for a table code, or null. */
export function seatFor(code) {
  try {
    return JSON.parse(get(`dos.seat.${code}`) || "null");
  } catch {
    return null;
  }
}

export function forget(code) {
  localStorage.removeItem(`dos.seat.${code}`);
}
