// @ts-check
// The Hint button's state (hint.js), decided without the page: a pure function, with node
// tests (tests/js/actions.test.js). Loaded with hint.js, not in the page's first load (the
// host's switch that allows hints is host.js's: it shows before any hint is allowed).

/** @typedef {{hints?: boolean, rated: boolean, host: number,
 *   seats: {name: string | null, bot: string | null}[]}} HintTable */

/**
 * The Hint button (hint.js): it shows at a table of a rule set that has hints (`offered`:
 * GET /api/info) and that allows them, on one's own turn while a move of the turn is legal
 * (not only DOS! or a catch); it waits (disabled, "asking") while a hint asked is not
 * answered.
 * @param {HintTable | null} table
 * @param {{turn: number, phase: string, legal?: string[]} | null} view
 * @param {number | null} seat @param {boolean} asking  a hint is asked and not answered
 * @param {boolean} offered  the table's rule set has hints
 */
export function hintControl(table, view, seat, asking, offered) {
  const mine = Boolean(view) && view !== null && seat !== null && view.turn === seat
    && view.phase !== "over" && (view.legal || []).some((a) => !/^(\d+:|catch|dos$)/.test(a));
  return {
    hidden: !(offered && table !== null && table.hints && mine),
    disabled: asking,
  };
}
