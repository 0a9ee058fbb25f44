// Actions in notation (docs/notation.md): parsing the server's legal lists, finding the match a
// selection makes, and whether wild designations change a match's outcome (RULES.md §3).

import { parseCard, COLOURS } from "./cards.js";

/** {seat, kind: match|draw|lay|end|place|dos|catch, cards: [..], target, text} or null. */
export function parseAction(text) {
  let rest = String(text).trim();
  let seat = null;
  const prefix = /^(\d+)\s*:\s*(.*)$/.exec(rest);
  if (prefix) {
    seat = Number(prefix[1]);
    rest = prefix[2];
  }
  const lower = rest.toLowerCase();
  const base = { seat, text: String(text), cards: [], target: -1 };
  if (lower === "draw" || lower === "end" || lower === "dos") return { ...base, kind: lower };
  let m = /^catch\s+(\d+)$/.exec(lower);
  if (m) return { ...base, kind: "catch", target: Number(m[1]) };
  m = /^(lay|place)\s+(\S+)$/i.exec(rest);
  if (m) return { ...base, kind: m[1].toLowerCase(), cards: [m[2].toUpperCase()] };
  m = /^(.+)@(\d+)$/.exec(rest.replace(/\s+/g, ""));
  if (m) {
    const cards = m[1].split("+").map((c) => c.toUpperCase());
    return { ...base, kind: "match", cards, target: Number(m[2]) };
  }
  return { ...base, kind: "other" };
}

const bare = (card) => card.split("=")[0];
const sameCards = (a, b) =>
  a.length === b.length && [...a].map(bare).sort().join() === [...b].map(bare).sort().join();

/** The legal match of these hand cards on Center Row card `target`, or null. */
export function findMatch(legal, cards, target) {
  return legal.find((a) => a.kind === "match" && a.target === target && sameCards(a.cards, cards))
    || null;
}

/** Center Row indices these hand cards can be matched on. */
export function targetsFor(legal, cards) {
  return new Set(legal.filter((a) => a.kind === "match" && sameCards(a.cards, cards))
    .map((a) => a.target));
}

/** Hand cards that take part in some legal match. */
export function playableCards(legal) {
  const names = new Set();
  for (const a of legal) if (a.kind === "match") for (const c of a.cards) names.add(bare(c));
  return names;
}

function colours(card) {
  const c = parseCard(card);
  if (!c) return new Set();
  if (c.name === "DOS") return new Set(c.designation ? [c.designation] : Object.keys(COLOURS));
  return new Set([c.colour]);
}

function colourBonus(cards, target) {
  let common = colours(target);
  for (const card of cards) common = new Set([...colours(card)].filter((x) => common.has(x)));
  return common.size > 0;
}

/**
 * The outcomes the wild designations of a legal match can give that a player could prefer:
 * one entry per distinct outcome, {bonus: bool, text: action to send}. The engine's own
 * choice (the best colour result, RULES.md §3 Decision) is sent as the plain legal action.
 * A colour bonus is never worse for its earner while its placements are optional (§4.3:
 * place or not, card by card; the others draw): then there is nothing to ask. Only with
 * `bonus_lay_mandatory` may a player rather decline it (a Wild DOS that takes another
 * colour), so only then are there two entries.
 */
export function designationOutcomes(match, center, options = {}) {
  const target = center[match.target];
  const dosIndexes = match.cards.map((c, i) => (bare(c) === "DOS" ? i : -1)).filter((i) => i >= 0);
  const best = colourBonus(match.cards, target);
  const outcomes = [{ bonus: best, text: match.text }];
  if (!best || !dosIndexes.length || !options.bonus_lay_mandatory) return outcomes;
  const letters = Object.keys(COLOURS);
  const combos = dosIndexes.length === 1 ? letters.map((a) => [a])
    : letters.flatMap((a) => letters.map((b) => [a, b]));
  for (const combo of combos) {
    const cards = match.cards.map((c) => bare(c));
    dosIndexes.forEach((index, k) => { cards[index] = `DOS=${combo[k]}`; });
    if (!colourBonus(cards, target)) {
      const prefix = match.seat === null ? "" : `${match.seat}: `;
      outcomes.push({ bonus: false, text: `${prefix}${cards.join("+")}@${match.target}` });
      break;
    }
  }
  return outcomes;
}

/** The kind of a match by its rulebook name key (game.single_number_match, ...). */
export function matchKindKey(cards, bonus) {
  if (cards.length === 1) return bonus ? "game.single_color_match" : "game.single_number_match";
  return bonus ? "game.double_color_match" : "game.double_number_match";
}
