// @ts-check
// An invite: a join link (/t/CODE) opened by someone who has no seat at that table says who
// invites, the rule set and the seats (taken, open, bots: GET /api/tables/{code}). Once the
// game has started (the server refuses a join with `started`), it says so and offers to watch.
// What an invite has no use for stays hidden: the list of listed tables. A link to a table
// the server does not know says so (lobby.js, `showNotice`).

import { t } from "./i18n.js";
import { nameTag, seatName, seatLevel } from "./seats.js";
import { rulesName } from "./rulesets.js";
import { showNotice } from "./lobby.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

export class Invite {
  /** @param {{onWatch: (code: string) => void}} handlers */
  constructor({ onWatch }) {
    this.code = null;
    this.table = null;
    this.started = false;
    $("invite-watch").addEventListener("click", () => {
      if (this.code) onWatch(this.code);
    });
  }

  /** Shows the invite to the table `code`; `started`: a join was refused as too late.
   * @param {string} code */
  async show(code, { started = false } = {}) {
    this.code = code;
    this.started = started;
    let table = null;
    let missing = false;
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(code)}`);
      if (response.ok) table = await response.json();
      missing = response.status === 404;
    } catch {
      table = null;  // the invite says what it knows; joining still works or says why not
    }
    if (this.code !== code) return;  // another invite, or none, meanwhile
    if (missing) showNotice("web.notice_no_table", { code });
    this.table = table;
    this.render();
  }

  /** The join came too late: the game has started. Says so, and the keyboard goes to Watch.
   * @param {string} code */
  async refused(code) {
    await this.show(code, { started: true });
    if (this.code === code) $("invite-watch").focus();
  }

  hide() {
    this.code = null;
    this.table = null;
    this.started = false;
    this.render();
  }

  render() {
    const box = $("invite");
    const table = this.table;
    const shown = this.code !== null;
    box.hidden = !shown || (!table && !this.started);
    $("listed-tables").hidden = shown;
    const started = shown && (this.started || (table !== null && table.status === "playing"));
    $("join-button").hidden = started;
    $("invite-started").hidden = !started;
    $("invite-started").textContent = started ? t("web.err_started") : "";
    $("invite-watch").hidden = !started;
    const list = $("invite-seats");
    list.replaceChildren();
    if (!shown || !table) {
      $("invite-host").textContent = "";
      $("invite-rules").textContent = "";
      return;
    }
    const host = table.seats[table.host];
    $("invite-host").textContent = t("web.invite_from", { host: seatName(host, table.host) });
    $("invite-rules").textContent = t("web.waiting_rules", {
      rules: rulesName(table.rules), seats: table.seats.length,
    });
    for (const seat of table.seats) {
      const li = document.createElement("li");
      li.dataset.seat = seat.seat;
      const name = nameTag(seatName(seat, seat.seat), seatLevel(seat));
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = seat.seat === table.host ? t("web.host") : "";
      li.append(name, tag);
      list.append(li);
    }
  }
}
