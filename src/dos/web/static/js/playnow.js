// @ts-check
// Play now: one click from the lobby to a game against bots at a chosen level, for who came
// alone. A private table of the server's first rule set that bots play (GET /api/info, in its
// order), the player at seat 0 and bots in the others, started at once (render.js starts it
// when the table first shows). The level and the number of players are remembered for the
// next visit; until a first game is finished the level starts at easy, and the chosen level's
// strength is said in words under its menu (newcomer.js). Until a first game is finished the
// table is casual too, so that the newcomer has the Hint button (a person alone with bots at a
// casual table has hints); after it, Play now is rated (docs/client.md says why).

import { t } from "./i18n.js";
import { postJSON } from "./lobby.js";
import * as session from "./session.js";
import { defaultLevel, describeLevel, hasFinished } from "./newcomer.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const LEVEL = "dos.play_now.level";
const PLAYERS = "dos.play_now.players";

export class PlayNow {
  /** @param {{onSeated: (grant: import("./protocol").SeatGrant, options: {start: boolean}) => void,
   *   onError: (message: string) => void}} handlers */
  constructor({ onSeated, onError }) {
    this.onSeated = onSeated;
    this.onError = onError;
    /** @type {string[]} */
    this.levels = [];
    /** @type {string | null} */
    this.rules = null;
    $field("play-now-players").value = localStorage.getItem(PLAYERS) || "2";
    $("play-now-level").addEventListener("change", () => {
      localStorage.setItem(LEVEL, $field("play-now-level").value);
      this.describe();
    });
    $("play-now-players").addEventListener("change", () => localStorage.setItem(PLAYERS, $field("play-now-players").value));
    $("play-now-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.play();
    });
    this.render();
  }

  /** The rule set it plays, with its bot levels, easiest first (GET /api/info).
   * @param {import("./view").RulesetInfo | null} ruleset */
  setRuleset(ruleset) {
    this.rules = ruleset ? ruleset.name : null;
    this.levels = ruleset ? ruleset.levels : [];
    this.render();
  }

  /** Whether the next Play now is rated: once this browser's player has finished a game. */
  rated() {
    return hasFinished();
  }

  /** The level menu and what the game will be (with hints, or rated), in the page's language. */
  render() {
    $("play-now-hint").textContent = t(this.rated() ? "web.play_now_hint_rated" : "web.play_now_hint_newcomer");
    const select = /** @type {HTMLSelectElement} */ ($("play-now-level"));
    if (!this.levels.length) return;  // until the server has said its rule sets
    const wanted = select.value || defaultLevel(this.levels, LEVEL);
    select.replaceChildren();
    for (const level of this.levels) {
      const option = document.createElement("option");
      option.value = level;
      option.textContent = t(`web.level_${level}`);
      select.append(option);
    }
    select.value = this.levels.includes(wanted) ? wanted : defaultLevel(this.levels, LEVEL);
    this.describe();
  }

  /** The chosen level's strength in words, under the menu. */
  describe() {
    const select = /** @type {HTMLSelectElement} */ ($("play-now-level"));
    if (this.rules) describeLevel(select, /** @type {Element} */ (select.closest("label")), "play-now-level-words", this.rules);
  }

  async play() {
    if (!this.rules) return;
    const level = $field("play-now-level").value;
    const players = Number($field("play-now-players").value) || 2;
    // One click: a player who has not typed a name plays under the catalog's guest name.
    const name = $field("player-name").value.trim() || session.name() || t("web.guest_name");
    $field("play-now-button").disabled = true;
    try {
      const grant = await postJSON("/api/tables", {
        name,
        rules: this.rules,
        seats: [null, ...Array(players - 1).fill(level)],
        public: false,
        rated: this.rated(),
        player_token: session.playerToken(),
      });
      session.saveGrant(grant);
      this.onSeated(grant, { start: true });
    } catch (error) {
      this.onError(/** @type {Error} */ (error).message);
    } finally {
      $field("play-now-button").disabled = false;
    }
  }
}
