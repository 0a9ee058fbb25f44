// @ts-check
// Where each player sits around the table top: the player at the bottom (their hand), the
// others in seat order going round from them: up the left side, across the top, down the
// right side. 2 players: one opposite; 3: left and right; 4: left, top, right; more: shared
// out between the three sides. The places are grid cells of #opponents (style.css, "Seats").
// A seat's name is the same everywhere (waiting room, table, invite, log): a person's name,
// "Bot N" for a bot, and a bot's level apart from its name (a badge; "Bot N (level)" in
// running text), so that neither is cut where the other is long.

import { t, has } from "./i18n.js";

const TRACKS = 6; // each side is cut in 6 tracks: 1, 2 or 3 boxes per side fit evenly

/** How many opponents sit on the left, top and right for `count` opponents. @param {number} count */
export function sides(count) {
  if (count <= 1) return { left: 0, top: count, right: 0 };
  if (count === 2) return { left: 1, top: 0, right: 1 };
  const side = Math.min(3, Math.round(count / 3));
  return { left: side, top: count - 2 * side, right: side };
}

/** Places the `li[data-seat]` of `list` around the table for the player of seat `me`
 * (null: a spectator, who sees the table from seat 0's chair, that seat included).
 * @param {HTMLElement} list @param {number | null | undefined} me */
export function placeSeats(list, me) {
  const items = /** @type {HTMLElement[]} */ ([...list.children]);
  const count = items.length;
  const base = me === null || me === undefined ? 0 : me;
  const watching = me === null || me === undefined;
  const others = items
    .filter((li) => watching || Number(li.dataset.seat) !== me)
    .sort((a, b) => ((Number(a.dataset.seat) - base + count) % count) - ((Number(b.dataset.seat) - base + count) % count));
  const { left, top } = sides(others.length);
  const span = (/** @type {number} */ n) => TRACKS / Math.max(1, Math.min(n, TRACKS));
  others.forEach((li, index) => {
    let side;
    let at;
    let of;
    if (index < left) [side, at, of] = ["left", left - 1 - index, left]; // going up the left side
    else if (index < left + top) [side, at, of] = ["top", index - left, top];
    else [side, at, of] = ["right", index - left - top, others.length - left - top];
    li.dataset.place = side;
    li.style.setProperty("--slot", String(2 + at * span(of)));
    li.style.setProperty("--span", String(span(of)));
    li.style.order = String(index); // the phone's row across the top: the same order
  });
  for (const li of items) {
    if (!others.includes(li)) {
      li.dataset.place = "bottom";
      li.style.order = String(count);
    }
  }
}

/** A small fan of card backs for a hand of `size` cards (the count is said in words beside it).
 * @param {number} size */
export function fan(size) {
  const el = document.createElement("span");
  el.className = "fan";
  el.setAttribute("aria-hidden", "true");
  const shown = Math.min(size, 7);
  for (let i = 0; i < shown; i++) {
    const back = document.createElement("span");
    back.className = "card back mini";
    back.style.setProperty("--tilt", `${(i - (shown - 1) / 2) * 8}deg`);
    el.append(back);
  }
  return el;
}

/** A seat's name without its level: the player's, "Bot N" for a bot seat, "open seat" for an
 * open one (a person's seat a stand-in bot plays keeps the person's name).
 * @param {import("./view").NamedSeat} seat @param {number} index */
export function seatName(seat, index) {
  if (seat.bot && !seat.away) return seat.name || t("game.bot_name", { number: index + 1 });
  return seat.name || t("web.open_seat");
}

/** The level of a bot seat ("easy"...), or null (a person, or a stand-in for one).
 * @param {import("./view").NamedSeat} seat */
export function seatLevel(seat) {
  return seat.bot && !seat.away ? seat.bot : null;
}

/** A seat's name in running text: "Bot 2 (easy)" for a bot (web.bot_named), else its name.
 * @param {import("./view").NamedSeat} seat @param {number} index */
export function seatText(seat, index) {
  const level = seatLevel(seat);
  const name = seatName(seat, index);
  return level ? t("web.bot_named", { bot: name, level: t(`web.level_${level}`) }) : name;
}

/** A name as shown in a seat's box: `.who` (the name, then `suffix`) and, for a bot, `.level`
 * (its level as a badge beside it, or below it where the box is narrow).
 * @param {string} name @param {string | null} [level] @param {string} [suffix] */
export function nameTag(name, level = null, suffix = "") {
  const el = document.createElement("span");
  el.className = "name";
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = name + suffix;
  el.append(who);
  if (level) {
    const badge = document.createElement("span");
    badge.className = "level";
    badge.textContent = t(`web.level_${level}`);
    el.append(badge);
  }
  return el;
}

/** A player's name as a game keeps it, shown as the table shows it: the server keeps a bot
 * seat's as "<level> bot" (dos.server.tables.table), shown "Bot 2 (easy)" in the page's words.
 * @param {string} name @param {number} index */
export function storedName(name, index) {
  const bot = /^([a-z]+) bot$/.exec(String(name));
  return bot && has(`web.level_${bot[1]}`) ? seatText({ bot: bot[1], name: null }, index) : name;
}
