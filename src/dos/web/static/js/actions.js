// @ts-check
// Actions in notation (docs/notation.md): parsing the server's legal lists, finding the match a
// selection makes, and whether wild designations change a match's outcome (RULES.md §3).

import { parseCard, COLOURS } from "./cards.js";

/** @typedef {import("./view").ParsedAction} ParsedAction */

/** {seat, kind: match|draw|lay|end|place|dos|catch|other, cards: [..], target, text}.
 * @param {unknown} text
 * @returns {ParsedAction} */
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
  if (m) return { ...base, kind: m[1].toLowerCase() === "lay" ? "lay" : "place", cards: [m[2].toUpperCase()] };
  m = /^(.+)@(\d+)$/.exec(rest.replace(/\s+/g, ""));
  if (m) {
    const cards = m[1].split("+").map((c) => c.toUpperCase());
    return { ...base, kind: "match", cards, target: Number(m[2]) };
  }
  return { ...base, kind: "other" };
}

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

/** The cards an action (in notation, of any seat) moves to the table, or null.
 * @param {string} action @param {string} rules  the table's rule set */
export function cardsMoved(action, rules) {
  const text = String(action).replace(/^\d+:\s*/, "");
  if (rules === "classic") {
    if (text === "draw" || text === "timeout" || text.startsWith("react")) return null;
    return [text.split("=")[0]];
  }
  const parsed = parseAction(text);
  return ["match", "lay", "place"].includes(parsed.kind) ? parsed.cards : null;
}

// --- what the table offers: its decisions as pure functions (tests/js/actions.test.js) ---

/** Cards left in a hand of `handSize` after `action` (a turn action of one's own: a match,
 * a lay or a place), or null for an action that lays none.
 * @param {ParsedAction} action @param {number} handSize */
export function leftAfter(action, handSize) {
  const lays = action.seat === null && ["match", "lay", "place"].includes(action.kind);
  return lays ? handSize - action.cards.length : null;
}

/** The toggle "DOS! with this move": shown while a legal move would leave two cards in hand;
 * disabled while the `selected` cards (how many) cannot make such a move; pressed while
 * `armed`, which it stops being when no such move is left.
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

/** Whether a move goes with the DOS! call: asked for (`armed`) and it leaves two cards.
 * @param {ParsedAction} action @param {number} handSize @param {boolean} armed */
export function callsDos(action, handSize, armed) {
  return armed && leftAfter(action, handSize) === 2;
}

/**
 * DOS! and Catch! (RULES.md §6, a race), from the newest state's legal actions: DOS! shows
 * while it must be called or the hand has two cards, lit while it must; one Catch! per seat
 * that can be caught now, none once the call (or another catch) has come. `pressed`: the
 * Catch! pressed and the newest version then; on that same version every catch waits (a
 * second could only be refused), and the one pressed shows pressed.
 * @param {ParsedAction[]} legal @param {number} handSize
 * @param {{seat: number, version: number | null} | null} pressed
 * @param {number | null} version
 */
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

/** The catch a press of Catch! sends (of `seat`, or of the first seat that can be caught),
 * or null: none to make, or one already pressed on this version.
 * @param {ParsedAction[]} legal @param {number | null} seat
 * @param {{seat: number, version: number | null} | null} pressed
 * @param {number | null} version */
export function catchToSend(legal, seat, pressed, version) {
  const action = legal.find((a) => a.kind === "catch" && (seat === null || a.target === seat));
  if (!action || (pressed && pressed.version === version)) return null;
  return action;
}

/**
 * What the selected hand cards (`selected`: indexes into `hand`) make on Center Row card
 * `target`: `{match, outcomes}` (the legal match, and the outcomes its wild designations can
 * give: more than one is a question for the player), or `{hint}` (a catalog key: why not).
 * @param {ParsedAction[]} legal @param {string[]} hand @param {number[]} selected
 * @param {number} target @param {string[]} center @param {{bonus_lay_mandatory?: unknown}} options
 * @returns {{hint: string} | {match: ParsedAction, outcomes: {bonus: boolean, text: string}[]}}
 */
export function matchOfSelection(legal, hand, selected, target, center, options) {
  if (!selected.length) return { hint: "web.hint_select_first" };
  const match = findMatch(legal, selected.map((i) => hand[i]), target);
  if (!match) return { hint: "web.hint_no_match_here" };
  return { match, outcomes: designationOutcomes(match, center, options) };
}

/** The lay (or place: `kind`) of the one selected card, `{action}`; `{hint}` when not one card
 * is selected; null when that card cannot go.
 * @param {ParsedAction[]} legal @param {string[]} hand @param {number[]} selected
 * @param {"lay" | "place"} kind
 * @returns {{hint: string} | {action: ParsedAction} | null} */
export function layOfSelection(legal, hand, selected, kind) {
  if (selected.length !== 1) return { hint: "web.hint_pick_lay" };
  const card = hand[selected[0]];
  const action = legal.find((a) => a.kind === kind && a.cards[0] === card);
  return action ? { action } : null;
}

/**
 * The Hint button (hint.js) and the host's switch that allows hints: the button shows at an
 * official table that allows hints, on one's own turn while a move of the turn is legal (not
 * only DOS! or a catch); it waits (disabled, "asking") while a hint asked is not answered.
 * The switch shows to the host of a casual official table with more than one person.
 * @param {{rules: string, hints?: boolean, rated: boolean, host: number,
 *   seats: {name: string | null, bot: string | null}[]} | null} table
 * @param {{turn: number, phase: string, legal?: string[]} | null} view
 * @param {number | null} seat @param {boolean} asking  a hint is asked and not answered
 */
export function hintControl(table, view, seat, asking) {
  const official = Boolean(table) && table !== null && table.rules !== "classic";
  const mine = Boolean(view) && view !== null && seat !== null && view.turn === seat
    && view.phase !== "over" && (view.legal || []).some((a) => !/^(\d+:|catch|dos$)/.test(a));
  const people = table ? table.seats.filter((s) => s.name !== null && !s.bot).length : 0;
  return {
    hidden: !(official && table !== null && table.hints && mine),
    disabled: asking,
    allowHidden: !(official && table !== null && !table.rated && seat !== null
      && seat === table.host && people > 1),
    allowed: Boolean(table && table.hints),
  };
}
