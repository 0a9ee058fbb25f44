// The table's chat (server messages `chat`, `chat_rules`): texts shown as text, never HTML;
// quick reactions in the reader's language; a player can mute another (remembered for the
// table); spectators read, and write only when the host allows it.

import { t } from "./i18n.js";
import { icon } from "./sound.js";

const SPEAKER_OFF = ["M3 9v6h4l5 4V5L7 9H3z",
  "M15 9.4 16.4 8l2.1 2.1L20.6 8 22 9.4l-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z"];

const $ = (id) => document.getElementById(id);
const REACTIONS = ["gg", "nice", "oops", "wow", "thanks", "hurry"];

export class Chat {
  /** @param {{send: (message) => boolean, names: () => string[], me: () => ({seat, host, code})}} deps */
  constructor({ send, names, me }) {
    this.send = send;
    this.names = names;
    this.me = me;
    this.lines = [];
    this.spectators = false;
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("chat-input");
      const text = input.value.trim();
      if (!text) return;
      if (this.send({ type: "chat", text })) input.value = "";
    });
    $("chat-spectators").addEventListener("change", (event) => {
      this.send({ type: "chat_spectators", allowed: event.target.checked });
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

  add(message) {
    this.lines.push(message);
    if (this.lines.length > 200) this.lines.shift();
    this.render();
  }

  setRules(spectators) {
    this.spectators = spectators;
    this.render();
  }

  author(line) {
    if (line.seat === null || line.seat === undefined) return t("web.spectator");
    return this.names()[line.seat] || line.name || t("web.seat_n", { seat: line.seat + 1 });
  }

  renderReactions() {
    const box = $("chat-reactions");
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
    $("chat-input").disabled = !canWrite;
    $("chat-send").disabled = !canWrite;
    for (const button of $("chat-reactions").querySelectorAll("button")) button.disabled = !canWrite;
    $("chat-read-only").hidden = canWrite;
    $("chat-host").hidden = seat === null || seat !== host;
    $("chat-spectators").checked = this.spectators;
    const muted = this.muted();
    const list = $("chat-log");
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
        mute.dataset.seat = line.seat;
        mute.append(icon(SPEAKER_OFF[0], SPEAKER_OFF[1]));
        mute.setAttribute("aria-label", t("web.chat_mute", { name: this.author(line) }));
        mute.title = mute.getAttribute("aria-label");
        mute.addEventListener("click", () => this.toggleMute(line.seat));
        li.append(" ", mute);
      }
      list.append(li);
    }
    const mutedNames = [...muted].map((s) => this.names()[s]).filter(Boolean);
    const note = $("chat-muted");
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
