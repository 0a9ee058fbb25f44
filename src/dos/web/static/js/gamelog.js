// @ts-check
// The table's log: each update in words (the rule set's client says them, rulesets.js), with
// what it brought about; one's own draws name the card, to this page alone. Rebuilt from the
// server's `log` on every (re)connect. At most 500 lines are kept.

import { t } from "./i18n.js";
import { store } from "./store.js";
import { newCards } from "./game.js";
import { loadedTableClient } from "./rulesets.js";
import * as sound from "./sound.js";
import { names } from "./render.js";

/** @typedef {import("./view").View} View */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const KEPT = 500;

/** @param {string} text */
export function addLog(text, kind = "") {
  const li = document.createElement("li");
  li.textContent = text;
  if (kind) li.className = kind;
  const log = $("log");
  log.append(li);
  while (log.firstElementChild && log.children.length > KEPT) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** Empties the log; a dealt game's first line is its commitment to its deals, which its
 * replay checks once it is over (shuffle.js). */
export function clearLog() {
  $("log").replaceChildren();
  const commitment = store.game.table?.commitment;
  if (commitment) addLog(t("web.shuffle_sealed", { commitment }), "shuffle");
}

/** One action in words, with what it brought about (a round's or the game's end), given the
 * (public) view just before it and just after it; `known`: the cards this seat drew.
 * @param {string} action @param {number} seat @param {View | null} before @param {View} after
 * @param {string[] | null} [known] */
export function logStep(action, seat, before, after, known = null) {
  const table = store.game.table;
  const client = table && loadedTableClient(table.rules);
  if (!client) return;  // (the table's messages wait for its client: connection.js)
  const seats = names();
  // One's own draw says which card it was (only this seat's page knows).
  const own = seat === store.game.seat && /(^|:\s*)draw$/.test(String(action));
  const drawn = !own ? [] : known || newCards(before, after);
  if (drawn.length) {
    addLog(t("game.log_draw_seen", { player: seats[seat], card: drawn.map(client.cardLabel).join(", ") }), "mine");
  } else addLog(client.describe(action, seat, before, seats));
  if (!before) return;
  for (const line of client.outcome(before, after, seats)) addLog(line.text, line.kind);
}

/** The whole log again, from the game's actions (server message `log`).
 * @param {import("./view").ServerMessage & {type: "log"}} message */
export function rebuildLog(message) {
  clearLog();
  message.entries.forEach((entry, i) => {
    const after = i + 1 < message.entries.length ? message.entries[i + 1].before : message.now;
    logStep(entry.action, entry.seat, entry.before, after, entry.drawn || null);
  });
}

/** A catch of `caught` came too late: said in the log, with its own sound. @param {number} caught */
export function lateCatch(caught) {
  const seats = names();
  addLog(t("web.log_catch_late", { player: seats[store.game.seat ?? -1], caught: seats[caught] }), "mine");
  sound.play("late");
}
