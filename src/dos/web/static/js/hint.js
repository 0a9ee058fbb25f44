// @ts-check
// Hints at the table (docs/protocol.md, "Hints"): a Hint button, shown where the server says
// hints are allowed (`TableInfo.hints`) and only on one's own turn, asks `{"type": "hint"}`;
// the answer (to this connection only) lights the suggested cards in the hand and the target
// on the Center Row, and says why in words (its `reason`: a catalog key and its parameters).
// The host's switch that allows them (`allow_hints`) is host.js's, shown without this module.
// A hint is about one moment: it is forgotten as soon as the game moves on, and one the game
// outran before it came (`hint_stale`) is said so, the button offered again. The page loads
// this module (and css/review.css) with the first table that allows hints.

import { t, tWords } from "./i18n.js";
import { hintControl } from "./hintstate.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The styles of this module, added to the page once (not in the first load). */
function addStyle() {
  if (document.querySelector('link[href="/static/css/review.css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/css/review.css";
  document.head.append(link);
}

export class HintControl {
  /** @param {import("./view").Send} send  sends a message on the table's connection */
  constructor(send) {
    this.send = send;
    addStyle();
    /** @type {number | null} */
    this.version = null;  // the game version the page shows
    this.asked = null;  // the version a hint was asked at
    this.hint = null;  // the `hint` message for `version`
    this.stale = false;  // the server said the hint asked came too late (`hint_stale`)
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.id = "btn-hint";
    this.button.className = "hint-button secondary";
    this.button.hidden = true;
    this.button.addEventListener("click", () => this.ask());
    this.box = document.createElement("p");
    this.box.id = "hint-box";
    this.box.className = "hint-box";
    this.box.setAttribute("role", "status");
    this.box.setAttribute("aria-live", "polite");
    this.box.hidden = true;
    const actions = $("actions");
    actions.append(this.button);
    actions.after(this.box);
    // The table redraws its cards on a selection too: the hint's stay lit.
    const again = new MutationObserver(() => { if (this.hint) this.light(); });
    for (const id of ["hand", "center-row"]) again.observe($(id), { childList: true });
  }

  /** After each render of the table: the button where hints are allowed on one's own turn,
   * the hint of this very moment lit again (the table redraws its cards).
   * @param {import("./protocol").TableInfo} table @param {import("./view").View} view
   * @param {number} version @param {number | null} seat
   * @param {boolean} offered  the table's rule set has hints (GET /api/info) */
  render(table, view, version, seat, offered) {
    if (version !== this.version) {
      this.version = version;
      this.hint = null;
      this.asked = null;
      this.stale = false;
    }
    const state = hintControl(table, view, seat, this.asked !== null, offered);  // hintstate.js
    this.button.textContent = this.asked !== null && !this.hint ? t("web.hint_asking") : t("web.hint_button");
    this.button.disabled = state.disabled;
    this.button.hidden = state.hidden;
    this.light();
  }

  ask() {
    if (this.asked !== null) return;
    if (this.hint) {  // asked already at this moment: shown again
      this.light();
      return;
    }
    if (this.send({ type: "hint" })) {
      this.asked = this.version;
      this.stale = false;
      this.button.disabled = true;
      this.button.textContent = t("web.hint_asking");
      this.light();
    }
  }

  /** The server's `hint`: shown if it is about the moment on show.
   * @param {import("./protocol").HintMessage} message */
  show(message) {
    if (message.version !== this.version) return;
    this.hint = message;
    this.asked = null;
    this.stale = false;
    this.button.disabled = false;
    this.button.textContent = t("web.hint_button");
    this.light();
  }

  /** An `error`: a refused hint frees the button (the page's banner says why). A hint the
   * game outran (`hint_stale`: it moved on while the hint was worked out) is said here, in
   * the hint's box, and the button offers it again. Returns whether it was said here (then
   * the page shows no banner: nothing the player did was refused).
   * @param {import("./protocol").ErrorMessage} message */
  refused(message) {
    const code = String(message.code || "");
    if (this.asked !== null && (code.startsWith("hint_") || code === "rate_limited")) {
      this.asked = null;
      this.button.disabled = false;
      this.button.textContent = t("web.hint_button");
    }
    if (code !== "hint_stale") return false;
    this.stale = true;
    this.light();
    return true;
  }

  /** Lights the hint's cards and target, and says why. */
  light() {
    for (const el of document.querySelectorAll(".card.hinted")) el.classList.remove("hinted");
    const hint = this.hint;
    this.box.hidden = !hint && !this.stale;
    if (!hint) {
      this.box.textContent = this.stale ? t("game.hint_refused_stale") : "";
      delete this.box.dataset.action;
      return;
    }
    this.box.dataset.action = hint.action;  // the suggestion in notation (for tools, tests)
    const left = [...hint.cards];
    for (const el of document.querySelectorAll("#hand button.card")) {
      const at = left.indexOf(String(/** @type {HTMLElement} */ (el).dataset.card).split("=")[0]);
      if (at >= 0) {
        left.splice(at, 1);
        el.classList.add("hinted");
      }
    }
    if (hint.target !== null && hint.target !== undefined) {
      const target = $(`center-${hint.target}`);
      if (target) target.classList.add("hinted");
    }
    this.box.textContent = t("web.hint_says", { reason: tWords(/** @type {import("./view").Words} */ (hint.reason)) });
  }
}
