// @ts-check
// The table's messages, applied one at a time (docs/protocol.md): one small handler per
// message type. Each changes the store's game through game.js's pure transitions, then asks
// the effects (connection.js gives the page's: draw, log, sound, dialogs) for what the page
// shows of it. The handlers know neither the page nor the rule sets (tests/js/dispatch.test.js
// runs them on a store of its own with recorded effects).

import {
  welcomed, stateArrived, updateArrived, tableArrived, timerSet, refusedAction,
} from "./game.js";

/** @typedef {import("./view").Arrived} Arrived */
/** @typedef {import("./view").Effects} Effects */
/** @typedef {import("./store.js").Store} Store */
/**
 * One handler per message type.
 * @typedef {{[K in Arrived["type"]]?: (message: Extract<Arrived, {type: K}>) => void}} Handlers
 */

/** The handlers of `store`'s table, with the page's `fx`. @param {Store} store
 * @param {Effects} fx @returns {Handlers} */
export function handlers(store, fx) {
  const parts = store.parts;
  return {
    welcome(message) {
      store.game = welcomed(store.game, message);
    },

    state(message) {
      const { game, newGame } = stateArrived(store.game, message, fx.now(), message.receivedAt ?? null);
      store.game = game;
      fx.clearError();  // the game moved on: a refusal was about a state that is gone
      if (parts.pause) parts.pause.update({ waiting: [], seconds: null }, fx.names());  // a `pause` follows if any
      if (newGame) {
        fx.clearLog();
        if (fx.isOpen("over")) fx.closeDialog();
      }
      fx.render();
    },

    update(message) {
      const before = store.game.view;
      store.game = updateArrived(store.game, message, message.receivedAt ?? null);
      const after = /** @type {import("./view").View} */ (store.game.view);
      fx.logStep(message.action, message.seat, before, after);
      fx.clearError();  // the game moved on (anyone's action): the refusal is about a state gone
      fx.render();
      fx.sound(message.action, before, after);
    },

    table(message) {
      const { game, sync } = tableArrived(store.game, message);
      store.game = game;
      if (sync) fx.send({ type: "sync" });
      fx.render();
    },

    log(message) {
      if (store.game.table && message.game === store.game.table.game) fx.rebuildLog(message);
    },

    chat(message) {
      if (parts.chat) parts.chat.add(message);
    },

    chat_rules(message) {
      if (parts.chat) parts.chat.setRules(message.spectators);
    },

    chat_history(message) {
      if (parts.chat) parts.chat.setHistory(message.lines);
    },

    hint(message) {
      if (parts.hints) parts.hints.show(message);
    },

    pause(message) {
      const pause = parts.pause;
      if (!pause) return;
      pause.update(message, fx.names());
      if (pause.waitsFor(store.game.seat) && !fx.isOpen("round") && store.game.view) fx.openRoundSummary();
      else if (!pause.active && fx.isOpen("round")) fx.closeDialog();
    },

    timer(message) {
      store.game = timerSet(store.game, message, fx.now());
      fx.renderTimer();
    },

    error(message) {
      const { game, caught } = refusedAction(store.game, message.id);
      store.game = game;
      if (caught !== null) fx.lateCatch(caught);  // a catch that came too late: said in the log
      // A hint the game outran is said by the hint's own box: no banner (nothing refused).
      if (parts.hints && parts.hints.refused(message)) return;
      fx.refusal(message, { game: Boolean(message.id) });
      // Which action it refuses: one sent before the last can be answered late.
      if (message.id) fx.refused(message.id);
    },
  };
}

/** Applies one message with its handler (a type without one changes nothing).
 * @param {Handlers} all @param {Arrived} message */
export function apply(all, message) {
  const handler = /** @type {((message: Arrived) => void) | undefined} */ (all[message.type]);
  if (handler) handler(message);
}
