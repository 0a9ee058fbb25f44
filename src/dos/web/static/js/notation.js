// @ts-check
// Actions in notation (docs/notation.md), as the server's legal lists and updates say them:
// parsed into their seat, kind, cards and target; and the cards an official action moves to
// the table. Pure functions, tested in node (tests/js/actions.test.js).

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

/** The cards an action moves to the table, or null. @param {string} action */
export function cardsMoved(action) {
  const text = String(action).replace(/^\d+:\s*/, "");
  const parsed = parseAction(text);
  return ["match", "lay", "place"].includes(parsed.kind) ? parsed.cards : null;
}
