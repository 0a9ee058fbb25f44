// @ts-check
// Shuffles anyone can check (docs/records.md, "How to check a shuffle"). At the deal the table
// shows the game's commitment, SHA-256("dos-deal:SEED:SALT") (TableInfo.commitment; the log's
// first line, gamelog.js); once the game is over its replay reveals the seed and salt (Replay.shuffle), and
// this page recomputes the hash with WebCrypto: the seed and salt open the commitment or they
// do not. The browser does not run the engine: that each round was dealt from the seed is the
// server's replay shown here, which anyone checks on their own computer with `dos verify` on
// the game's record.

import { t, loadPart } from "./i18n.js";

/** @typedef {import("./protocol").ShuffleReveal} ShuffleReveal */
/** @typedef {"verified" | "mismatch" | "unchecked" | "none"} Check */

/** The text whose SHA-256 is the commitment. @param {string} seed @param {string} salt */
export function hashedText(seed, salt) {
  return `dos-deal:${seed}:${salt}`;
}

/** The page's WebCrypto; null where it has none (a page not served over https or from this
 * computer). */
const pageCrypto = () => globalThis.crypto?.subtle ?? null;

/** The SHA-256 of `text` in lowercase hexadecimal; null without WebCrypto (`subtle` null).
 * @param {string} text @param {SubtleCrypto | null} [subtle] */
export async function sha256Hex(text, subtle = pageCrypto()) {
  if (!subtle) return null;
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether the revealed seed and salt open the commitment: "verified", "mismatch",
 * "unchecked" (no WebCrypto here) or "none" (a game dealt before commitments).
 * @param {ShuffleReveal | null | undefined} shuffle @param {SubtleCrypto | null} [subtle]
 * @returns {Promise<Check>} */
export async function checkShuffle(shuffle, subtle = pageCrypto()) {
  if (!shuffle) return "none";
  const hash = await sha256Hex(hashedText(shuffle.seed, shuffle.salt), subtle);
  if (hash === null) return "unchecked";
  return hash === shuffle.commitment ? "verified" : "mismatch";
}

/** What the panel says for a check (its texts: the catalog's `shuffle`, loaded with the panel).
 * @type {Record<Check, string>} */
const SAID = {
  verified: "shuffle.opened",
  mismatch: "shuffle.not_opened",
  unchecked: "shuffle.unchecked",
  none: "shuffle.none",
};

/** The replay's shuffle check, below its board: the check's result, a line per round (a link
 * to its deal, "shuffle verified" once the hash matched), the commitment, seed and salt, and
 * the record to check with `dos verify`. */
export class ShufflePanel {
  /** @param {(step: number) => void} goTo  shows a step of the replay */
  constructor(goTo) {
    this.goTo = goTo;
    this.token = 0;  // changes with each game: an older check's answer is dropped
    const panel = document.createElement("details");
    panel.id = "shuffle-panel";
    panel.className = "shuffle-panel";
    this.title = document.createElement("summary");
    this.status = document.createElement("p");
    this.status.id = "shuffle-status";
    this.status.setAttribute("role", "status");
    this.rounds = document.createElement("ul");
    this.rounds.id = "shuffle-rounds";
    this.values = document.createElement("dl");
    this.values.className = "shuffle-values";
    this.record = document.createElement("a");
    this.record.id = "shuffle-record";
    panel.append(this.title, this.status, this.rounds, this.values, this.record);
    panel.hidden = true;  // shown once its words and the check are in: never an empty heading
    const close = document.getElementById("replay-close");
    if (close) close.before(panel);
    this.panel = panel;
  }

  /** Shows game `gameId`'s shuffle (null: dealt before commitments) once checked.
   * @param {number | null} gameId @param {ShuffleReveal | null | undefined} shuffle */
  async show(gameId, shuffle) {
    const token = ++this.token;
    this.panel.hidden = true;
    this.status.textContent = "";
    this.rounds.replaceChildren();
    this.values.replaceChildren();
    const [check] = await Promise.all([checkShuffle(shuffle), loadPart("shuffle").catch(() => {})]);
    if (token !== this.token) return;
    this.panel.dataset.check = check;
    this.title.textContent = t("shuffle.title");
    this.status.textContent = t(SAID[check]);
    this.panel.hidden = false;
    this.record.hidden = !shuffle || gameId === null;
    if (!shuffle || gameId === null) return;
    this.record.href = `/api/games/${encodeURIComponent(gameId)}/record`;
    this.record.textContent = t("shuffle.record");
    shuffle.rounds.forEach((step, index) => {
      const item = document.createElement("li");
      const link = document.createElement("button");
      link.type = "button";
      link.className = "linkish";
      const round = t("game.round_number", { round: index + 1 });
      link.textContent = check === "verified" ? `${round}: ${t("shuffle.verified")}` : round;
      link.addEventListener("click", () => this.goTo(step));
      item.append(link);
      this.rounds.append(item);
    });
    for (const [key, value] of [
      ["shuffle.commitment", shuffle.commitment],
      ["shuffle.seed", shuffle.seed],
      ["shuffle.salt", shuffle.salt],
    ]) {
      const term = document.createElement("dt");
      term.textContent = t(key);
      const text = document.createElement("dd");
      const code = document.createElement("code");
      code.textContent = value;
      code.style.wordBreak = "break-all";  // 64 hexadecimal digits fit a phone's width
      text.append(code);
      this.values.append(term, text);
    }
  }
}
