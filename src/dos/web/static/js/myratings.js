// @ts-check
// The player's own ratings in "Your player" (account.js): each rule set and table size they
// have played rated, the rating marked provisional until it is established, and a link to
// their own page (its history: a second device signed in as them shows that it came along).
// Loaded at the first player the panel shows: a first visit has none.

import { t, lang } from "./i18n.js";
import { rulesName } from "./rulesets.js";

/** The player's ratings (GET /api/players/{id}, with one point of its history: the ratings
 * are all the panel shows), provisional ones too: none before a first rated game (404), nor
 * when they cannot be had. @param {string} playerId
 * @returns {Promise<import("./view").Rating[]>} */
export async function ratingsOf(playerId) {
  try {
    const response = await fetch(`/api/players/${encodeURIComponent(playerId)}?limit=1`);
    return response.ok ? (await response.json()).ratings || [] : [];
  } catch {
    return [];
  }
}

/** @param {string} tag @param {string} [text] @param {string} [id] */
function element(tag, text, id) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (id) node.id = id;
  return node;
}

/** The panel's part: a title, the ratings (or that there are none yet), the player's page.
 * @param {import("./view").Rating[]} ratings @param {string} playerId @returns {HTMLElement[]} */
export function ratingParts(ratings, playerId) {
  const parts = [element("h4", t("web.account_ratings"))];
  if (!ratings.length) {
    parts.push(element("p", t("web.account_no_ratings"), "account-ratings"));
    return parts;
  }
  const number = new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const list = element("ul", undefined, "account-ratings");
  list.className = "account-passkeys";
  for (const rating of ratings) {
    const shown = number.format(rating.rating);
    const value = rating.provisional ? t("rank.provisional_rating", { rating: shown }) : shown;
    const board = t("rank.caption", { rules: rulesName(rating.rules), players: rating.players });
    const li = element("li", `${board}: ${value} · ${t("rank.games")}: ${rating.games}`);
    if (rating.provisional) li.dataset.provisional = "true";
    list.append(li);
  }
  const link = /** @type {HTMLAnchorElement} */ (element("a", t("web.account_your_page"), "account-page"));
  link.href = `/leaderboard?player=${encodeURIComponent(playerId)}`;
  const line = element("p");
  line.append(link);
  parts.push(list, line);
  return parts;
}
