// @ts-check
// The official table's decisions on actions in notation (docs/notation.md, parsed by
// notation.js): the match a selection makes, whether wild designations change a match's
// outcome (RULES.md §3), the DOS race's buttons, "DOS! with this move". Pure functions, tested
// in node (tests/js/actions.test.js); loaded with the official table.

import { parseCard, COLOURS } from "./cards.js";

/** @typedef {import("./view").ParsedAction} ParsedAction */

/** @param {string} card */
const bare = (card) => card.split("=")[0];
/** @param {string[]} a @param {string[]} b */
const sameCards = (a, b) =>
  a.length === b.length && [...a].map(bare).sort().join() === [...b].map(bare).sort().join();

/** The legal match of these hand cards on Center Row card `target`, or null.
 * @param {ParsedAction[]} legal @param {string[]} cards @param {number} target */
export function findMatch(legal, cards, target) {
  return legal.find((a) => a.kind === "match" && a.target === target && sameCards(a.cards, cards))
    || null;
}

/** Center Row indices these hand cards can be matched on.
 * @param {ParsedAction[]} legal @param {string[]} cards */
export function targetsFor(legal, cards) {
  return new Set(legal.filter((a) => a.kind === "match" && sameCards(a.cards, cards))
    .map((a) => a.target));
}

/** Hand cards that take part in some legal match. @param {ParsedAction[]} legal */
export function playableCards(legal) {
  const names = new Set();
  for (const a of legal) if (a.kind === "match") for (const c of a.cards) names.add(bare(c));
  return names;
}

/** @param {string} card @returns {Set<string | null>} */
function colours(card) {
  const c = parseCard(card);
  if (!c) return new Set();
  if (c.name === "DOS") return new Set(c.designation ? [c.designation] : Object.keys(COLOURS));
  return new Set([c.colour]);
}

/** @param {string[]} cards @param {string} target */
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
 * @param {ParsedAction} match @param {string[]} center
 * @param {{bonus_lay_mandatory?: unknown}} [options]
 * @returns {{bonus: boolean, text: string}[]}
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

/** The kind of a match by its rulebook name key (game.single_number_match, ...).
 * @param {string[]} cards @param {boolean} bonus */
export function matchKindKey(cards, bonus) {
  if (cards.length === 1) return bonus ? "game.single_color_match" : "game.single_number_match";
  return bonus ? "game.double_color_match" : "game.double_number_match";
}

// --- the table's decisions, pure (tests/js/actions.test.js) ---
/** @typedef {{seat: number, version: number | null} | null} Pressed */

/** Cards in hand after one's own match, lay, place or draw (RULES.md §6: a hand that becomes
 * two by a draw owes DOS! as well; a draw from an empty pile gives nothing, and the server
 * then ignores the call); null for others.
 * @param {ParsedAction} action @param {number} handSize */
export function leftAfter(action, handSize) {
  if (action.seat !== null) return null;
  if (["match", "lay", "place"].includes(action.kind)) return handSize - action.cards.length;
  return action.kind === "draw" ? handSize + 1 : null;
}

/** "DOS! with this move": shown while a move would leave two cards (a draw to a hand of one
 * included); disabled while the selection (`selected` cards) cannot make one; pressed
 * (`armed`) only while one is left.
 * @param {ParsedAction[]} legal @param {number} handSize @param {number} selected
 * @param {boolean} armed */
export function dosWithMove(legal, handSize, selected, armed) {
  const leaving = legal.filter((a) => leftAfter(a, handSize) === 2);
  return {
    hidden: !leaving.length,
    disabled: selected > 0 && !leaving.some((a) => a.cards.length === selected),
    armed: armed && leaving.length > 0,
  };
}

/** Whether a move carries the DOS! call. @param {ParsedAction} action
 * @param {number} handSize @param {boolean} armed */
export function callsDos(action, handSize, armed) {
  return armed && leftAfter(action, handSize) === 2;
}

/** DOS! and Catch! (RULES.md §6) on the newest state: DOS! lit while it must be called, shown
 * with two cards; a Catch! per seat that can be caught. On the version of the Catch! pressed,
 * all wait and that one shows pressed.
 * @param {ParsedAction[]} legal @param {number} handSize @param {Pressed} pressed
 * @param {number | null} version */
export function race(legal, handSize, pressed, version) {
  const mustCall = legal.some((a) => a.kind === "dos");
  const waiting = pressed !== null && pressed.version === version;
  return {
    dos: { hidden: !(mustCall || handSize === 2), disabled: !mustCall, urgent: mustCall },
    catches: legal.filter((a) => a.kind === "catch").map((a) => ({
      seat: a.target,
      waiting,
      pressed: waiting && pressed !== null && pressed.seat === a.target,
    })),
  };
}

/** The catch Catch! sends (of `seat`, or the first), or null (none, or pressed already).
 * @param {ParsedAction[]} legal @param {number | null} seat @param {Pressed} pressed
 * @param {number | null} version */
export function catchToSend(legal, seat, pressed, version) {
  const action = legal.find((a) => a.kind === "catch" && (seat === null || a.target === seat));
  if (!action || (pressed && pressed.version === version)) return null;
  return action;
}

/** What the selected hand cards make on Center Row card `target`: `{match, outcomes}` (more
 * than one outcome: ask), or `{hint}` (a catalog key: why not).
 * @param {ParsedAction[]} legal @param {string[]} hand @param {number[]} selected
 * @param {number} target @param {string[]} center @param {{bonus_lay_mandatory?: unknown}} options
 * @returns {{hint: string} | {match: ParsedAction, outcomes: {bonus: boolean, text: string}[]}} */
export function matchOfSelection(legal, hand, selected, target, center, options) {
  if (!selected.length) return { hint: "web.hint_select_first" };
  const match = findMatch(legal, selected.map((i) => hand[i]), target);
  if (!match) return { hint: "web.hint_no_match_here" };
  return { match, outcomes: designationOutcomes(match, center, options) };
}

/** The lay (or place) of the one selected card: `{action}`, `{hint}` unless one card is
 * selected, null when it cannot go.
 * @param {ParsedAction[]} legal @param {string[]} hand @param {number[]} selected
 * @param {"lay" | "place"} kind @returns {{hint: string} | {action: ParsedAction} | null} */
export function layOfSelection(legal, hand, selected, kind) {
  if (selected.length !== 1) return { hint: "web.hint_pick_lay" };
  const card = hand[selected[0]];
  const action = legal.find((a) => a.kind === kind && a.cards[0] === card);
  return action ? { action } : null;
}
