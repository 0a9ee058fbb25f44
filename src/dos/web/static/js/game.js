// @ts-check
// The game as this seat knows it, and how each server message changes it: pure functions
// from a `Game` (and a message) to the next `Game`, never touching the page (tests/js/
// game.test.js). dispatch.js applies them to the store; what the page then shows is the
// effects' business.

/** @typedef {import("./view").Game} Game */
/** @typedef {import("./view").View} View */
/** @typedef {import("./view").ServerMessage} ServerMessage */

/** The game of a page at no table. @returns {Game} */
export function initialGame() {
  return {
    code: null, seat: null, table: null, view: null, version: 0, history: [], result: null,
    deadline: null, timerSeat: null, timerPhase: null, receivedAt: null,
    overShownFor: null, roundsShown: 0, actionCount: 0, catches: {}, autostart: null,
  };
}

/** A spectator's view has no hand and no legal actions: shown as an empty hand.
 * @param {View | null} view @returns {View | null} */
export function normalized(view) {
  if (!view) return view;
  return { ...view, hand: view.hand || [], legal: view.legal || [] };
}

/** The rounds a view has seen finish (a log brief says its count). @param {View} view */
export const roundsOf = (view) => view.rounds ?? (view.round_results || []).length;

/** The timer's deadline (Date.now() milliseconds) from the seconds left, at `now`.
 * @param {import("./view").TimerInfo | null | undefined} timer @param {number} now */
export function timerOf(timer, now) {
  if (!timer || timer.seat === null || timer.seat === undefined || timer.seconds === null) {
    return { deadline: null, timerSeat: null, timerPhase: null };
  }
  return { deadline: now + timer.seconds * 1000, timerSeat: timer.seat, timerPhase: timer.phase };
}

/** The page goes to table `code`, at `seat` (null: watching); nothing of it is known yet.
 * @param {Game} game @param {string} code @param {number | null} seat @returns {Game} */
export function entered(game, code, seat) {
  return { ...game, code, seat, table: null, view: null };
}

/** The page is at no table. @param {Game} game @returns {Game} */
export function left(game) {
  return { ...game, code: null, table: null, view: null };
}

/** `welcome`: the seat this connection holds. @param {Game} game
 * @param {ServerMessage & {type: "welcome"}} message @returns {Game} */
export function welcomed(game, message) {
  return { ...game, seat: message.seat };
}

/** `state`: the whole table and game; whether it is another game than the one known (then
 * its rounds finished already need no summary). @param {Game} game
 * @param {ServerMessage & {type: "state"}} message @param {number} now  Date.now()
 * @param {number | null} receivedAt @returns {{game: Game, newGame: boolean}} */
export function stateArrived(game, message, now, receivedAt) {
  const newGame = !game.table || game.table.game !== message.table.game;
  const view = normalized(message.view);
  return {
    newGame,
    game: {
      ...game,
      table: message.table,
      version: message.version,
      view,
      history: (message.view && message.view.history) || [],
      result: message.result ?? null,
      receivedAt,
      ...timerOf(message.timer, now),
      roundsShown: newGame ? (view ? (view.round_results || []).length : 0) : game.roundsShown,
    },
  };
}

/** `update`: one action and the view after it; a catch it answers is no longer waited for.
 * @param {Game} game @param {ServerMessage & {type: "update"}} message
 * @param {number | null} receivedAt @returns {Game} */
export function updateArrived(game, message, receivedAt) {
  const history = [...game.history, message.action];
  const catches = { ...game.catches };
  if (message.id) delete catches[message.id];
  return {
    ...game,
    version: message.version,
    history,
    view: normalized({ ...message.view, history }),
    result: message.result ?? null,
    receivedAt,
    catches,
  };
}

/** `table`: the table changed; `sync`: its game has started while this page knew no game
 * (then it asks for the state). @param {Game} game
 * @param {ServerMessage & {type: "table"}} message @returns {{game: Game, sync: boolean}} */
export function tableArrived(game, message) {
  const wasLobby = game.table !== null && game.table.status === "lobby";
  return {
    game: { ...game, table: message.table },
    sync: wasLobby && message.table.status !== "lobby" && !game.view,
  };
}

/** `timer`: the turn timer again. @param {Game} game
 * @param {import("./view").TimerInfo} timer @param {number} now @returns {Game} */
export function timerSet(game, timer, now) {
  return { ...game, ...timerOf(timer, now) };
}

/** The id of the next action this page sends. @param {Game} game
 * @returns {{game: Game, id: string}} */
export function nextAction(game) {
  const count = game.actionCount + 1;
  return { game: { ...game, actionCount: count }, id: `a${count}` };
}

/** A catch of `caught` went out under `id`. @param {Game} game @param {string} id
 * @param {number} caught @returns {Game} */
export function catchSent(game, id, caught) {
  return { ...game, catches: { ...game.catches, [id]: caught } };
}

/** An `error` about action `id`: if it refused a catch, the catch came too late (`caught`:
 * the seat it tried to catch). @param {Game} game @param {string | null | undefined} id
 * @returns {{game: Game, caught: number | null}} */
export function refusedAction(game, id) {
  if (!id || !(id in game.catches)) return { game, caught: null };
  const catches = { ...game.catches };
  const caught = catches[id];
  delete catches[id];
  return { game: { ...game, catches }, caught };
}

/** The version an action is made on: the newest state received if the action is legal there
 * too (DOS! and Catch! are decided on it; a move made while the last one is still on show
 * means the same there), else the state on show (the server then finds it `stale`).
 * @param {Game} game @param {import("./view").Received | null} latest @param {string} text */
export function versionFor(game, latest, text) {
  const legal = (latest && latest.view && latest.view.legal) || [];
  return latest && legal.includes(text) ? latest.version : game.version;
}

/** The cards in `after`'s hand that were not in `before`'s (what this seat drew).
 * @param {View | null} before @param {View} after */
export function newCards(before, after) {
  const left = [...((before && before.hand) || [])];
  const fresh = [];
  for (const card of (after && after.hand) || []) {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1);
    else fresh.push(card);
  }
  return fresh;
}

/** Whether the game on show is over. @param {Game} game */
export function isOver(game) {
  return Boolean(game.view && game.table
    && (game.view.phase === "over" || game.table.status === "finished"));
}

/** What end the page has to show now: the game's (once a game), a round's (once a round),
 * or none. @param {Game} game @returns {"over" | "round" | null} */
export function endToShow(game) {
  if (!game.view || !game.table) return null;
  if (isOver(game)) return game.overShownFor === game.table.game ? null : "over";
  return (game.view.round_results || []).length > game.roundsShown ? "round" : null;
}

/** The end shown (`endToShow`'s answer). @param {Game} game @param {"over" | "round"} end
 * @returns {Game} */
export function endShown(game, end) {
  const rounds = ((game.view && game.view.round_results) || []).length;
  if (end === "round") return { ...game, roundsShown: rounds };
  return { ...game, overShownFor: game.table ? game.table.game : null, roundsShown: rounds };
}

/** Whether it is this seat's turn in the game on show. @param {Game} game */
export function myTurn(game) {
  return Boolean(game.view && game.view.turn === game.seat && game.view.phase !== "over");
}

/** Whether the game is being played (not over): leaving then hands the seat to a bot.
 * @param {Game} game */
export function playing(game) {
  return Boolean(game.table && game.table.status === "playing" && game.view
    && game.view.phase !== "over");
}
