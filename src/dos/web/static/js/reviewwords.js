// @ts-check
// The official rule set's moves as the review says them, in the page's language, never in
// notation: a move in short, its Center Row card counted from 1 as the table numbers it
// ("blue 7 on Center Row card 1", "draw a card"), and what a move gains, in the words of the
// hints (`game.hint_reason_*`, as dos.server.tables.hints says them): its kind of match and the
// bonus that comes with it, the points it sheds, the wild cards it keeps for later.

import { t } from "./i18n.js";
import { cardLabel, cardOrder, cardPoints, parseCard } from "./cards.js";
import { parseAction } from "./notation.js";
import { matchKind } from "./log.js";

/** @typedef {{center?: string[], phase?: string}} Before  what is known of the game before */

/** Cards in words, two of them as a pair. @param {string[]} cards */
function cardsText(cards) {
  const labels = cards.map(cardLabel);
  return labels.length === 2 ? t("game.cards_pair", { first: labels[0], second: labels[1] }) : labels.join(", ");
}

/** A move in short ("blue 7 on Center Row card 1"); `before` (if known) tells ending the
 * matches from declining more bonus cards. @param {string} text @param {Before | null} before */
export function moveWords(text, before) {
  const action = parseAction(text);
  switch (action.kind) {
    case "match": return t("web.review_move_match", { cards: cardsText(action.cards), place: action.target + 1 });
    case "draw": return t("web.review_move_draw");
    case "lay": return t("web.review_move_lay", { card: cardLabel(action.cards[0]) });
    case "place": return t("web.review_move_place", { card: cardLabel(action.cards[0]) });
    case "end": return t(before && before.phase === "placing" ? "web.review_move_decline" : "web.review_move_end");
    default: return text;
  }
}

/** What the move `text` gains, made from `before` with `hand` (the mover's cards then).
 * @param {string} text @param {Before} before @param {string[]} hand */
export function gainWords(text, before, hand) {
  const action = parseAction(text);
  const points = action.cards.reduce((sum, card) => sum + cardPoints(card), 0);
  switch (action.kind) {
    case "match": {
      const target = (before.center || [])[action.target];
      if (!target) return moveWords(text, before);
      const kind = matchKind(action.cards, target);
      const left = [...hand];
      for (const card of action.cards) {
        const at = left.indexOf(card.split("=")[0]);
        if (at >= 0) left.splice(at, 1);
      }
      const params = { kind: t(kind), cards: cardsText(action.cards), target: cardLabel(target), points };
      if (!left.length) return t("game.hint_reason_out", params);
      const key = kind === "game.double_color_match" ? "game.hint_reason_double_colour"
        : kind === "game.single_color_match" ? "game.hint_reason_single_colour" : "game.hint_reason_match";
      const wilds = [...new Set(left.filter((card) => parseCard(card)?.wild))]
        .sort((a, b) => cardOrder(a) - cardOrder(b));
      return wilds.length ? t(`${key}_keeps`, { ...params, kept: wilds.map(cardLabel).join(", ") }) : t(key, params);
    }
    case "draw": return t("game.hint_reason_draw");
    case "lay": return t("game.hint_reason_lay", { card: cardLabel(action.cards[0]), points });
    case "place": return t("game.hint_reason_place", { card: cardLabel(action.cards[0]), points });
    case "end": return t(before.phase === "placing" ? "game.hint_reason_decline" : "game.hint_reason_end");
    default: return text;
  }
}
