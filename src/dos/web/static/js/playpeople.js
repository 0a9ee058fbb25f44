// @ts-check
// Play people: a table with people of about one's rating, beside Play now in the lobby. The
// player chooses the rule set, the table size and when bots may fill the empty seats (never,
// or after a wait: the menu's options are the page's, in index.html); the waiting panel says
// the time waited and the rating band now, and cancels. This module loads at the first search
// (main.js), not with the page. A heartbeat (POST /api/queue/status) goes every couple of
// seconds, whatever page shows: matched on the lobby, the page goes to the table (the longest
// waiting, at seat 0, starts the game as it shows); matched on another page, the panel says
// the table is ready and the lobby shows it on the way back. Closing the tab leaves the queue
// (a beacon), and without heartbeats the server drops the entry anyway. The decisions are
// queue.js's; docs/matchmaking.md.

import { t, onLangChange } from "./i18n.js";
import { postJSON } from "./lobby.js";
import * as session from "./session.js";
import { store } from "./store.js";
import { bandWords, botWaitOf, clock, decide, grantOf, joinBody, nextPoll } from "./queue.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $select = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));

export class PlayPeople {
  /** @param {{onSeated: (grant: ReturnType<typeof grantOf>, options: {start: boolean}) => void,
   *   onError: (message: string) => void}} handlers */
  constructor({ onSeated, onError }) {
    this.onSeated = onSeated;
    this.onError = onError;
    /** @type {import("./queue.js").QueueStatus | null} */
    this.status = null;
    /** @type {string | null} the token the queue knows this player by */
    this.token = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.expired = false;
    $("play-people-bots").addEventListener("change", () => {
      if (this.status && this.status.state === "waiting") this.join();  // the same place, a new wait
    });
    $("play-people-cancel").addEventListener("click", () => this.leave());
    $("play-people-go").addEventListener("click", () => this.go());
    // A closed tab leaves the queue at once where the browser lets it say so; else its
    // entry expires without heartbeats.
    window.addEventListener("pagehide", () => {
      if (!this.token || !this.status || this.status.state !== "waiting") return;
      const body = new Blob([JSON.stringify({ player_token: this.token })], { type: "application/json" });
      navigator.sendBeacon("/api/queue/leave", body);
    });
    onLangChange(() => this.render());
    this.render();
  }

  /** The waiting panel and the button, in the page's language. */
  render() {
    const status = this.status;
    const waiting = status !== null && status.state === "waiting";
    const ready = status !== null && status.state === "matched";
    $("play-people-panel").hidden = !waiting && !ready && !this.expired;
    $("play-people-button").hidden = waiting || ready;
    $("play-people-cancel").hidden = !waiting;
    $("play-people-go").hidden = !ready;
    let said = "";
    if (waiting) said = t("web.play_people_waiting", { time: clock(status.waited || 0) });
    else if (ready) said = t("web.play_people_ready");
    else if (this.expired) said = t("web.play_people_expired");
    $("play-people-status").textContent = said;
    $("play-people-band").textContent = waiting ? t("web.play_people_band", { band: bandWords(status.band || 0) }) : "";
    $("play-people-band").hidden = !waiting;
  }

  async join() {
    const name = /** @type {HTMLInputElement} */ ($("player-name")).value.trim() || session.name() || t("web.guest_name");
    const body = joinBody({
      name,
      rules: $select("play-people-rules").value,
      seats: Number($select("play-people-seats").value) || 2,
      botsAfter: botWaitOf($select("play-people-bots").value),
      token: this.token || session.playerToken(),
    });
    $("play-people-button").setAttribute("disabled", "");
    try {
      this.heard(await postJSON("/api/queue", body));
    } catch (error) {
      this.onError(/** @type {Error} */ (error).message);
    } finally {
      $("play-people-button").removeAttribute("disabled");
    }
  }

  async leave() {
    this.stop();
    const token = this.token;
    this.status = null;
    this.expired = false;
    this.render();
    if (token) await postJSON("/api/queue/leave", { player_token: token }).catch(() => null);
  }

  /** The heartbeat: still here; the status it brings. */
  async beat() {
    this.timer = null;
    if (!this.token) return;
    try {
      this.heard(await postJSON("/api/queue/status", { player_token: this.token }));
    } catch {
      this.later(2000);  // the network: try again; the server keeps the entry a while
    }
  }

  /** What a status makes the page do (queue.js `decide`).
   * @param {import("./queue.js").QueueStatus} status */
  heard(status) {
    this.stop();
    this.token = status.player_token;
    const { action, expired } = decide(status, store.page.shown);
    this.status = action === "idle" ? null : status;
    this.expired = expired && action === "idle";
    this.render();
    if (action === "wait") this.later(nextPoll(status));
    else if (action === "enter") this.go();
  }

  /** To the table of the match. */
  go() {
    const status = this.status;
    if (!status || !status.seat) return;
    const grant = grantOf(status.seat);
    this.status = null;
    this.render();
    session.saveGrant(grant);
    this.onSeated(grant, { start: grant.seat === 0 });
  }

  /** @param {number} ms */
  later(ms) {
    this.timer = setTimeout(() => this.beat(), ms);
  }

  stop() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
