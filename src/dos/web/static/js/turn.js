// @ts-check
// What every rule set's table says alike: a player's name, whose turn it is, and the turn
// timer's countdown in the status bar.

import { t } from "./i18n.js";

/** @typedef {import("./view").TableModel} TableModel */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** A seat's name in running text ("Seat 3" for a seat without a player).
 * @param {TableModel | null} model @param {number} seat */
export function playerName(model, seat) {
  const player = model ? model.players[seat] : null;
  return (player && player.name) || t("web.seat_n", { seat: seat + 1 });
}

/** The turn line: the game over, your turn, or whose turn.
 * @param {TableModel} model @param {{turn: number, seat: number | null, phase: string}} view */
export function turnText(model, view) {
  if (view.phase === "over") return t("game.game_over");
  return view.turn === view.seat ? t("web.your_turn") : t("game.turn_of", { player: playerName(model, view.turn) });
}

/**
 * The turn timer in the status bar, counting down each second until `model.deadline` (none
 * once the game is over). The grace period after a turn timer ran out is not a new turn: it
 * says whose seat a bot takes. Returns the ticker, for the next call to stop.
 * @param {TableModel} model @param {ReturnType<typeof setInterval> | undefined} ticker
 * @returns {ReturnType<typeof setInterval> | undefined}
 */
export function renderTimer(model, ticker) {
  clearInterval(ticker);
  const el = $("timer-info");
  const deadline = model.deadline;
  if (!deadline || !model.view || model.view.phase === "over") {
    el.hidden = true;
    return undefined;
  }
  el.hidden = false;
  const grace = model.timerPhase === "grace";
  el.classList.toggle("grace", grace);
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let handle = undefined;
  const tick = () => {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    el.textContent = grace
      ? t("web.grace_n", { seconds: left, player: playerName(model, /** @type {number} */ (model.timerSeat)) })
      : t("web.timer_n", { seconds: left });
    if (!left) clearInterval(handle);
  };
  tick();
  handle = setInterval(tick, 1000);
  return handle;
}
