// @ts-check
// The table's log: each update in words (the rule set's client says them, rulesets.js), with
// what it brought about; one's own draws name the card, to this page alone. Rebuilt from the
// server's `log` on every (re)connect. At most 500 lines are kept.
// Each line keeps what it says (the action, the views around it, who drew what), not its
// words: a change of language says every line again in the new language.

import { t, onLangChange } from "./i18n.js";
import { store } from "./store.js";
import { newCards } from "./game.js";
import { loadedTableClient } from "./rulesets.js";
import * as sound from "./sound.js";
import { seatText } from "./seats.js";

/** @typedef {import("./view").View} View */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const KEPT = 500;

/** @typedef {HTMLLIElement & {say?: () => string}} LogLine  a line and how to say it */

/** How to name the seats as they are now, in whatever language is the page's when asked
 * (a line keeps the names of its moment: a stand-in later does not rename it). */
function namer() {
  const seats = store.game.table ? store.game.table.seats : [];
  return () => seats.map((s, seat) => seatText(s, seat));
}

/** A line of the log; `say` makes its words in the page's language, now and after a change of
 * language. @param {() => string} say */
export function addLog(say, kind = "") {
  const li = /** @type {LogLine} */ (document.createElement("li"));
  li.say = say;
  li.textContent = say();
  if (kind) li.className = kind;
  const log = $("log");
  log.append(li);
  while (log.firstElementChild && log.children.length > KEPT) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** Every line of the log said again, in the page's language. */
export function sayLogAgain() {
  for (const li of /** @type {NodeListOf<LogLine>} */ (document.querySelectorAll("#log > li"))) {
    if (li.say) li.textContent = li.say();
  }
}

onLangChange(sayLogAgain);

/** Empties the log; a dealt game's first line is its commitment to its deals, which its
 * replay checks once it is over (shuffle.js). */
export function clearLog() {
  $("log").replaceChildren();
  const commitment = store.game.table?.commitment;
  if (commitment) addLog(() => t("web.shuffle_sealed", { commitment }), "shuffle");
}

/** One action in words, with what it brought about (a round's or the game's end), given the
 * (public) view just before it and just after it; `known`: the cards this seat drew.
 * @param {string} action @param {number} seat @param {View | null} before @param {View} after
 * @param {string[] | null} [known] */
export function logStep(action, seat, before, after, known = null) {
  const table = store.game.table;
  const client = table && loadedTableClient(table.rules);
  if (!client) return;  // (the table's messages wait for its client: connection.js)
  const names = namer();
  // One's own draw says which card it was (only this seat's page knows).
  const own = seat === store.game.seat && /(^|:\s*)draw$/.test(String(action));
  const drawn = !own ? [] : known || newCards(before, after);
  if (drawn.length) {
    addLog(() => t("game.log_draw_seen", { player: names()[seat], card: drawn.map(client.cardLabel).join(", ") }), "mine");
  } else addLog(() => client.describe(action, seat, before, names()));
  if (!before) return;
  client.outcome(before, after, names()).forEach((line, i) => {
    addLog(() => client.outcome(before, after, names())[i].text, line.kind);
  });
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
  const seat = store.game.seat ?? -1;
  const names = namer();
  addLog(() => t("web.log_catch_late", { player: names()[seat], caught: names()[caught] }), "mine");
  sound.play("late");
}
