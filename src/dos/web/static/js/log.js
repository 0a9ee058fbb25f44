// @ts-check
// The official rule set's actions in words for the log, with the shared `game.log_*` templates
// (as dos.i18n.describe writes them for the terminal client), and what an action brought about:
// the others' bonus draw, a round won, the next round, the game won.

import { t } from "./i18n.js";
import { parseCard, cardLabel, COLOURS } from "./cards.js";
import { parseAction } from "./notation.js";
import { roundsOf } from "./game.js";

/** @typedef {import("./view").View} View */

/** @param {string} card */
function coloursOf(card) {
  const c = parseCard(card);
  if (!c) return [];
  if (c.name === "DOS") return c.designation ? [c.designation] : Object.keys(COLOURS);
  return [c.colour];
}

/** The common colour of a match (its colour bonus), or null. @param {string[]} cards @param {string} target */
function bonusColour(cards, target) {
  let common = coloursOf(target);
  for (const card of cards) common = common.filter((x) => coloursOf(card).includes(x));
  return common.length ? common[0] : null;
}

/** @param {string} card */
function numbersOf(card) {
  const c = parseCard(card);
  if (!c) return [];
  if (c.wild && c.name !== "DOS") return c.designation ? [Number(c.designation)] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  return c.number === null ? [] : [c.number];
}

/** The match's cards with the designations the engine would show (best colour result).
 * @param {string[]} cards @param {string} target */
function shownCards(cards, target) {
  const colour = bonusColour(cards, target);
  const wanted = numbersOf(target);
  const picked = cards.length === 1
    ? [numbersOf(cards[0]).find((n) => wanted.includes(n))]
    : (() => {
      for (const a of numbersOf(cards[0])) {
        const b = numbersOf(cards[1]).find((n) => wanted.includes(a + n));
        if (b !== undefined) return [a, b];
      }
      return [undefined, undefined];
    })();
  return cards.map((card, i) => {
    const c = parseCard(card);
    if (!c || c.designation) return card;
    if (c.name === "DOS") return colour ? `DOS=${colour}` : card;
    if (c.wild && picked[i] !== undefined) return `${card}=${picked[i]}`;
    return card;
  });
}

/** @param {string[]} cards @param {string} target */
export function matchKind(cards, target) {
  const bonus = bonusColour(cards, target) !== null;
  if (cards.length === 1) return bonus ? "game.single_color_match" : "game.single_number_match";
  return bonus ? "game.double_color_match" : "game.double_number_match";
}

/**
 * One sentence for `text` played by `seat`, given the view just before it (`before`: its
 * center and phase) and the players' names.
 * @param {string} text @param {number} seat @param {Partial<import("./view").View> | null} before
 * @param {string[]} names
 */
export function describe(text, seat, before, names) {
  const action = parseAction(text);
  const who = action.seat ?? seat;
  const player = names[who] ?? `#${who + 1}`;
  switch (action.kind) {
    case "match": {
      const target = before && before.center ? before.center[action.target] : null;
      if (!target) return `${player}: ${text}`;
      const shown = shownCards(action.cards, target);
      const labels = shown.map(cardLabel);
      const cards = labels.length === 2
        ? t("game.cards_pair", { first: labels[0], second: labels[1] }) : labels[0];
      const colour = bonusColour(action.cards, target);
      const targetName = parseCard(target)?.name === "DOS" && colour
        ? cardLabel(`DOS=${colour}`) : cardLabel(target);
      return t("game.log_match", { player, cards, target: targetName, kind: t(matchKind(action.cards, target)) });
    }
    case "draw": return t("game.log_draw", { player });
    case "lay": return t("game.log_lay", { player, card: cardLabel(action.cards[0]) });
    case "place": return t("game.log_place", { player, card: cardLabel(action.cards[0]) });
    case "end":
      return t(before && before.phase === "placing" ? "game.log_decline" : "game.log_end", { player });
    case "dos": return t("game.log_call", { player });
    case "catch": return t("game.log_catch", { player, caught: names[action.target] ?? `#${action.target + 1}` });
    default: return `${player}: ${text}`;
  }
}

/** What the action between `before` and `after` (public views) brought about, as lines of the
 * log: the others' bonus draw as the turn ends (RULES.md §4.3), a round won and the next one
 * dealt, the game won. @param {View} before @param {View} after @param {string[]} names */
export function outcome(before, after, names) {
  const lines = [];
  if (before.bonuses && before.bonuses.double > 0 && after.turn !== before.turn) {
    lines.push({ text: t("game.log_bonus_draw"), kind: "" });
  }
  if (roundsOf(after) > roundsOf(before)) {
    const result = after.result ?? (after.round_results || [])[roundsOf(after) - 1];
    lines.push({ text: t("game.log_round_won", { player: names[result.winner], points: result.points }), kind: "round" });
    if (after.phase !== "over") {
      lines.push({ text: t("game.log_round_start", { round: after.round, dealer: names[after.dealer ?? -1] }), kind: "round" });
    }
  }
  if (after.phase === "over" && before.phase !== "over" && after.winner !== null && after.winner !== undefined) {
    const winner = after.winner;
    lines.push({ text: t("game.log_game_won", { player: names[winner], points: /** @type {number[]} */ (after.scores)[winner] }), kind: "round" });
  }
  return lines;
}
