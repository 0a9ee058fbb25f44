// @ts-check
// The pause between two rounds (server message `pause`, docs/protocol.md): the next round
// waits until every player at the table has continued, or the countdown has ended. Shows the
// countdown and who is still reading, in the status bar and in the round summary.

import { t } from "./i18n.js";

export class Pause {
  constructor() {
    /** @type {number | null} */
    this.deadline = null;
    /** @type {number[]} */
    this.waiting = [];
    /** @type {string[]} */
    this.names = [];
    /** @type {ReturnType<typeof setInterval> | null} */
    this.ticker = null;
  }

  get active() {
    return this.waiting.length > 0;
  }

  /** A `pause` message: who is waited for and the seconds left (none: the pause is over).
   * @param {{waiting: number[], seconds: number | null}} message @param {string[]} names */
  update(message, names) {
    this.waiting = message.waiting || [];
    this.names = names;
    this.deadline = this.active && message.seconds !== null
      ? Date.now() + message.seconds * 1000 : null;
    if (this.active && !this.ticker) this.ticker = setInterval(() => this.render(), 250);
    if (!this.active && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
    this.render();
  }

  /** @param {number | null} seat */
  waitsFor(seat) {
    return seat !== null && this.waiting.includes(seat);
  }

  text() {
    if (!this.active) return "";
    const seconds = this.deadline === null ? 0
      : Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
    const players = this.waiting.map((seat) => this.names[seat] ?? `#${seat + 1}`).join(", ");
    return `${t("web.pause_countdown", { seconds })} ${t("web.pause_waiting", { players })}`;
  }

  render() {
    const words = this.text();
    const bar = /** @type {HTMLElement} */ (document.getElementById("pause-info"));
    bar.hidden = !this.active;
    bar.textContent = words;
    document.body.dataset.paused = String(this.active);
    const inDialog = document.getElementById("pause-countdown");
    if (inDialog) inDialog.textContent = words;
  }
}
