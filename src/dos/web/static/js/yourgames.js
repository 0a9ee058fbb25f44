// @ts-check
// "Your games" in the lobby: the tables whose seat this browser still holds (session.js keeps
// each seat's token), each with its rules and where its game is, and one button back to it. A
// table the server no longer knows is forgotten.

import { t } from "./i18n.js";
import * as session from "./session.js";
import { rulesName } from "./rulesets.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** What a table's status says in the list. @param {string} status */
export function statusKey(status) {
  if (status === "playing") return "web.your_game_playing";
  if (status === "finished") return "web.your_game_finished";
  return "web.your_game_waiting";
}

export class YourGames {
  /** @param {{onBack: (code: string) => void}} handlers */
  constructor({ onBack }) {
    this.onBack = onBack;
    /** @type {import("./protocol").TableInfo[]} */
    this.tables = [];
  }

  /** Asks the server about every table this browser holds a seat at, then draws them. */
  async refresh() {
    const codes = session.seatCodes();
    const found = await Promise.all(codes.map(async (code) => {
      try {
        const response = await fetch(`/api/tables/${encodeURIComponent(code)}`);
        if (response.status === 404) session.forget(code);  // closed: the seat is gone
        return response.ok ? /** @type {import("./protocol").TableInfo} */ (await response.json()) : null;
      } catch {
        return null;  // offline: listed again at the next refresh
      }
    }));
    this.tables = /** @type {import("./protocol").TableInfo[]} */ (found.filter(Boolean));
    this.render();
  }

  render() {
    const list = $("your-games-list");
    list.replaceChildren();
    $("your-games").hidden = !this.tables.length;
    for (const table of this.tables) {
      const li = document.createElement("li");
      li.dataset.code = table.code;
      const label = document.createElement("span");
      label.textContent = `${table.code} · ${rulesName(table.rules)} · ${t(statusKey(table.status))}`;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "primary";
      button.textContent = t("web.your_game_back");
      button.setAttribute("aria-label", `${t("web.your_game_back")}: ${table.code}`);
      button.addEventListener("click", () => this.onBack(table.code));
      li.append(label, button);
      list.append(li);
    }
  }
}
