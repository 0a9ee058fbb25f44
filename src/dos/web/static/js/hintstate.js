// @ts-check
// The Hint button's state (hint.js) and the host's switch that allows hints (host.js),
// decided without the page: pure functions, with node tests (tests/js/actions.test.js). The
// switch is the host's control and shows whether or not hint.js is loaded (that loads only
// once hints are allowed).

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

/**
 * The host's switch that allows hints (host.js): it shows to the host of a casual table of a
 * rule set that has hints with more than one person (a person alone with bots has hints
 * without asking), and is on while the table allows them.
 * @param {HintTable | null} table @param {number | null} seat
 * @param {boolean} offered  the table's rule set has hints
 */
export function hintSwitch(table, seat, offered) {
  const people = table ? table.seats.filter((s) => s.name !== null && !s.bot).length : 0;
  return {
    hidden: !(offered && table !== null && !table.rated && seat !== null && seat === table.host
      && people > 1),
    allowed: Boolean(table && table.hints),
  };
}
