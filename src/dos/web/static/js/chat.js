// @ts-check
// The table's chat (server messages `chat`, `chat_rules`, `chat_history`): texts shown as
// text, never HTML; quick reactions in the reader's language; a player can mute another
// (remembered for the table); spectators read, and write only when the host allows it.
//
// The chat is kept by the server: each connection starts from the lines kept so far
// (`chat_history`), so a reload, a late spectator or a reconnect shows them all, once. One
// chat panel goes where the player is (`placeChat`): beside the table, in the waiting room,
// or inside the round summary and the game-over dialog, which would otherwise cover it.

import { t } from "./i18n.js";
import { icon } from "./sound.js";
import { store } from "./store.js";
import { moderationButton } from "./moderationbutton.js";

const SPEAKER_OFF = ["M3 9v6h4l5 4V5L7 9H3z",
  "M15 9.4 16.4 8l2.1 2.1L20.6 8 22 9.4l-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z"];

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const REACTIONS = ["gg", "nice", "oops", "wow", "thanks", "hurry"];
/** The lines a page keeps: the server's `dos.server.tables.chat.HISTORY_MAX`. */
const LINES_MAX = 200;


/** Puts the chat panel where it can be used: into the open dialog's `.chat-slot` (the round
 * summary, the game over), else the waiting room's while it shows, else beside the table.
 * Called whenever the view changes or such a dialog opens or closes. */
export function placeChat() {
  // The chat panel, and where it lives beside the table (a marker in the board): the store's.
  const { panel, home } = store.chat;
  if (!panel) return;
  const dialog = $("dialog");
  const slot = (dialog && /** @type {HTMLDialogElement} */ (dialog).open && dialog.querySelector(".chat-slot"))
    || (document.body.dataset.view === "waiting" ? $("waiting-chat") : null);
  const focused = panel.contains(document.activeElement) ? document.activeElement : null;
  if (slot) {
    if (panel.parentElement !== slot) slot.append(panel);
  } else if (home && home.nextSibling !== panel) home.after(panel);
  panel.dataset.place = !slot ? "table" : slot.id === "waiting-chat" ? "waiting" : "dialog";
  const list = /** @type {HTMLElement} */ (panel.querySelector(".chat-log"));
  list.scrollTop = list.scrollHeight;  // moving it scrolled it back to the top
  if (focused && document.contains(focused) && !focused.closest("[hidden]")) /** @type {HTMLElement} */ (focused).focus();
}

export class Chat {
  /** @param {{send: import("./view").Send, names: () => string[],
   *   me: () => ({seat: number | null, host: number | null, code: string | null})}} deps */
  constructor({ send, names, me }) {
    this.send = send;
    this.names = names;
    this.me = me;
    /** @type {import("./protocol").ChatHistoryLine[]} */
    this.lines = [];
    this.spectators = false;
    // The elements, held: the panel moves (placeChat), and may be out of the page a moment.
    this.el = {
      input: /** @type {HTMLInputElement} */ ($("chat-input")), sendButton: /** @type {HTMLButtonElement} */ ($("chat-send")), reactions: $("chat-reactions"),
      readOnly: $("chat-read-only"), host: $("chat-host"), spectators: /** @type {HTMLInputElement} */ ($("chat-spectators")),
      list: $("chat-log"), muted: $("chat-muted"),
    };
    const panel = /** @type {HTMLElement} */ (this.el.list.closest(".chat-area"));
    const home = document.createComment("the chat's place beside the table");
    panel.before(home);
    store.chat.panel = panel;
    store.chat.home = home;
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.el.input.value.trim();
      if (!text) return;
      if (this.send({ type: "chat", text })) this.el.input.value = "";
    });
    this.el.spectators.addEventListener("change", (event) => {
      this.send({ type: "chat_spectators", allowed: /** @type {HTMLInputElement} */ (event.target).checked });
    });
    this.renderReactions();
  }

  mutedKey() {
    return `dos.muted.${this.me().code}`;
  }

  muted() {
    try {
      return new Set(JSON.parse(localStorage.getItem(this.mutedKey()) || "[]"));
    } catch {
      return new Set();
    }
  }

  /** @param {number | null} seat */
  toggleMute(seat) {
    const muted = this.muted();
    if (muted.has(seat)) muted.delete(seat);
    else muted.add(seat);
    localStorage.setItem(this.mutedKey(), JSON.stringify([...muted]));
    this.render();
  }

  /** A new table: no lines yet. */
  reset() {
    this.lines = [];
    this.spectators = false;
    this.render();
  }

  /** @param {import("./protocol").ChatLine} message */
  add(message) {
    this.lines.push(message);
    if (this.lines.length > LINES_MAX) this.lines.shift();
    this.render();
  }

  /** The lines the table kept (`chat_history`, on every connect): they replace any held, so
   * a reconnect shows each line once. @param {import("./protocol").ChatHistoryLine[]} lines */
  setHistory(lines) {
    this.lines = (lines || []).slice(-LINES_MAX);
    this.render();
  }

  /** @param {boolean} spectators */
  setRules(spectators) {
    this.spectators = spectators;
    this.render();
  }

  /** Who said ``line``: the name its author had (a seat changes hands: a line of a player
   * who left stays theirs), else the seat's name now, else its number.
   * @param {import("./protocol").ChatHistoryLine} line */
  author(line) {
    if (line.seat === null || line.seat === undefined) return t("web.spectator");
    return line.name || this.names()[line.seat] || t("web.seat_n", { seat: line.seat + 1 });
  }

  renderReactions() {
    const box = this.el.reactions;
    box.replaceChildren();
    box.setAttribute("aria-label", t("web.chat_reactions"));
    for (const reaction of REACTIONS) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary reaction";
      button.dataset.reaction = reaction;
      button.textContent = t(`web.reaction_${reaction}`);
      button.addEventListener("click", () => this.send({ type: "chat", reaction }));
      box.append(button);
    }
  }

  render() {
    const { seat, host } = this.me();
    const canWrite = seat !== null || this.spectators;
    const el = this.el;
    el.input.disabled = !canWrite;
    el.sendButton.disabled = !canWrite;
    for (const button of el.reactions.querySelectorAll("button")) button.disabled = !canWrite;
    el.readOnly.hidden = canWrite;
    el.host.hidden = seat === null || seat !== host;
    el.spectators.checked = this.spectators;
    const muted = this.muted();
    const list = el.list;
    list.replaceChildren();
    for (const line of this.lines) {
      if (line.seat !== null && muted.has(line.seat)) continue;
      const li = document.createElement("li");
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = `${this.author(line)}: `;
      const words = document.createElement("span");
      words.className = "words";
      words.textContent = line.reaction ? t(`web.reaction_${line.reaction}`) : line.text;  // text, never HTML
      li.append(who, words);
      if (line.seat !== null && line.seat !== seat) {
        const mute = document.createElement("button");
        mute.type = "button";
        mute.className = "linkish mute";
        mute.dataset.seat = String(line.seat);
        mute.append(icon(SPEAKER_OFF[0], SPEAKER_OFF[1]));
        mute.setAttribute("aria-label", t("web.chat_mute", { name: this.author(line) }));
        mute.title = mute.getAttribute("aria-label") || "";
        mute.addEventListener("click", () => this.toggleMute(line.seat));
        const lineSeat = line.seat;
        const hide = () => { if (!this.muted().has(lineSeat)) this.toggleMute(lineSeat); };
        const unhide = () => { if (this.muted().has(lineSeat)) this.toggleMute(lineSeat); };
        li.append(" ", mute, moderationButton({ name: line.name || this.author(line), code: this.me().code, seat: lineSeat, seatName: line.name, hide, unhide }));
      }
      list.append(li);
    }
    const mutedNames = [...muted].map((s) => this.names()[s]).filter(Boolean);
    const note = el.muted;
    note.replaceChildren();
    note.hidden = !mutedNames.length;
    for (const s of muted) {
      if (!this.names()[s]) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "linkish unmute";
      button.dataset.seat = s;
      button.textContent = t("web.chat_unmute", { name: this.names()[s] });
      button.addEventListener("click", () => this.toggleMute(s));
      note.append(button);
    }
    list.scrollTop = list.scrollHeight;
  }
}
