// @ts-check
// Actions in words for the log, with the shared `game.log_*` templates (as dos.i18n.describe
// writes them for the terminal client).

import { t, tn } from "./i18n.js";
import { parseCard, cardLabel, colourName, COLOURS } from "./cards.js";
import { parseAction } from "./actions.js";

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
export function describe(text, seat, before, names, rules = "official") {
  const action = parseAction(text);
  const who = action.seat ?? seat;
  const player = names[who] ?? `#${who + 1}`;
  if (rules === "classic") return describeClassic(text, player, before);
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

/** A classic action in words: play a card (with a wish), draw (one card, or the pending
 * Draw Two / Wild Draw Four cards: `before.pending`), the reaction test.
 * @param {string} text @param {string} player @param {Partial<import("./view").View> | null} before */
function describeClassic(text, player, before) {
  const action = String(text).replace(/^\d+:\s*/, "");
  if (action === "draw" && before && (before.pending ?? 0) > 0) {
    return t("classic.log_draw_pending", { player, count: before.pending });
  }
  if (action === "draw") return t("game.log_draw", { player });
  if (action === "timeout") return t("web.classic_log_timeout", { player });
  const react = /^react (\d+) (\d+)ms$/.exec(action);
  if (react) return tn("web.classic_log_react", react[1], { player, hits: react[1], ms: react[2] });
  const [card, wish] = action.split("=");
  const played = t("web.classic_log_play", { player, card: cardLabel(card) });
  return wish && COLOURS[wish] ? `${played} ${t("web.classic_log_wish", { colour: colourName(wish) })}` : played;
}
