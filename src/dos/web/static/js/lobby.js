// @ts-check
// The lobby: a name, creating a table (rule set, options, seats, bots, private or listed),
// joining one by code or link, the list of listed tables, "your games" (yourgames.js: the
// tables whose seat this browser holds, one click back), the notice of an address that names
// nothing, and the waiting room. The rules menu,
// the target score, the bots' levels and each rule set's option fields come from the server's
// offer (GET /api/info) and the rule set's client (rulesets.js).

import { t, tn, translatePage } from "./i18n.js";
import { errorText, codeOf } from "./errors.js";
import * as session from "./session.js";
import { nameTag, seatName, seatLevel } from "./seats.js";
import { moderationButton } from "./moderationbutton.js";
import { defaultLevel, describeLevel } from "./newcomer.js";
import { loadInfo, rulesets, rulesName, can, levelsOf, clientFor, loadedClient } from "./rulesets.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @param {string} method @param {string} path @param {object} [body] */
async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new Error(t("web.error_generic"));  // the network, not the server: no words to map
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    // The player's words for the refusal, never the server's English; its code for programs.
    const error = new Error(errorText({ code: codeOf(data), status: response.status }));
    /** @type {{code?: string, status?: number}} */ (error).code = codeOf(data);
    throw error;
  }
  return data;
}

/** @param {string} path */
export const getJSON = (path) => api("GET", path);
/** @param {string} path @param {object} body */
export const postJSON = (path, body) => api("POST", path, body);

/** A table code from what a player typed: a code, or a join link ending in /t/CODE. @param {string} text */
export function codeFrom(text) {
  const value = String(text).trim();
  const m = /\/t\/([A-Za-z0-9]+)\/?$/.exec(value);
  return (m ? m[1] : value).toUpperCase();
}

function playerName() {
  const name = $field("player-name").value.trim();
  if (!name) {
    $("player-name").focus();
    throw new Error(t("web.error_name_needed"));
  }
  session.setName(name);
  return name;
}

// A new level menu starts at the level last chosen in one (kept for the next visit), else at
// easy until a first game is finished (newcomer.js); the server checks every seat's level.
const LAST_LEVEL = "dos.lobby.level";

/**
 * One option field of a rule set: a number, or a checkbox (`checked` given).
 * @typedef {{name: string, key: string, id?: string, min?: number, max?: number,
 *   step?: number, value?: number, checked?: boolean}} Field
 */

/** A rule set's option fields for the create form, under "Options" (each rule set's client
 * names its own, rulesets.js). @param {Field[]} fields */
export function fieldset(fields) {
  const box = document.createElement("fieldset");
  const legend = document.createElement("legend");
  legend.dataset.i18n = "web.options";
  box.append(legend);
  for (const field of fields) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = field.name;
    if (field.id) input.id = field.id;
    const words = document.createElement("span");
    words.dataset.i18n = field.key;
    if (field.checked !== undefined) {
      input.type = "checkbox";
      input.checked = input.defaultChecked = field.checked;
      label.className = "check";
      label.append(input, " ", words);
    } else {
      input.type = "number";
      for (const limit of /** @type {const} */ (["min", "max", "step"])) {
        if (field[limit] !== undefined) input[limit] = String(field[limit]);
      }
      if (field.value !== undefined) input.value = input.defaultValue = String(field.value);
      label.append(words, input);
    }
    box.append(label);
  }
  translatePage(box);
  return box;
}

/** The bots' seats of the rule set chosen: people first, then the bots, each at the level
 * its own menu says (none where bots cannot play it). @param {HTMLFormElement} form */
function seatsFromForm(form) {
  const seats = Number(form.seats.value);
  const bots = levelsOf(form.rules.value).length ? Math.min(Number(form.bots.value), seats - 1) : 0;
  const levels = [...document.querySelectorAll("#bot-levels select")].map((s) => /** @type {HTMLSelectElement} */ (s).value);
  return [...Array(seats - bots).fill(null), ...levels.slice(0, bots)];
}

/** The options of the rule set chosen: a target score where games have one, and its own
 * fields (its client's, once loaded). @param {HTMLFormElement} form */
function optionsFromForm(form) {
  const rules = form.rules.value;
  const client = loadedClient(rules);
  return {
    ...(can(rules, "target_score") ? { target_score: Number(form.target_score.value) || 200 } : {}),
    ...(client && client.optionsOf ? client.optionsOf(form) : {}),
  };
}

// --- the notice: a dead end said on top of the lobby ------------------------------------
// What the address named and is not there (no such page, replay or table; a seat that is not
// this browser's any more), in the player's language. The words are kept on the element
// (their catalog key and parameters), so that a change of language says them again
// (`renderNotice`); showing the page's next address clears it (views.js).

/** Says `key` (with `params`) on top of the lobby.
 * @param {string} key @param {Record<string, string | number>} [params] */
export function showNotice(key, params = {}) {
  const box = $("lobby-notice");
  box.dataset.key = key;
  box.dataset.params = JSON.stringify(params);
  renderNotice();
}

/** The notice goes (the page shows another address). */
export function clearNotice() {
  const box = $("lobby-notice");
  delete box.dataset.key;
  delete box.dataset.params;
  renderNotice();
}

/** The notice in the page's language. */
export function renderNotice() {
  const box = $("lobby-notice");
  const key = box.dataset.key;
  box.hidden = !key;
  box.textContent = key ? t(key, JSON.parse(box.dataset.params || "{}")) : "";
}

export class Lobby {
  /** @param {{onSeated: (grant: import("./protocol").SeatGrant) => void,
   *   onError: (message: string) => void, onStarted: (code: string) => void,
   *   onBack: (code: string) => void, onShown: () => void}} handlers (`onStarted`: a join
   *   refused as the game started; `onBack`: back to a table of "your games"; `onShown`:
   *   the lobby is drawn again) */
  constructor({ onSeated, onError, onStarted, onBack, onShown }) {
    this.onSeated = onSeated;
    this.onShown = onShown;
    this.onError = onError;
    this.onStarted = onStarted;
    this.onBack = onBack;
    /** @type {Promise<import("./yourgames.js").YourGames> | null} */
    this.yourGames = null;  // loaded once this browser holds a seat (not on a first visit)
    $field("player-name").value = session.name();
    $("player-name").addEventListener("change", () => session.setName($field("player-name").value.trim()));
    /** @type {HTMLFormElement} */ ($("create-form")).addEventListener("submit", (event) => {
      event.preventDefault();
      this.create();
    });
    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.join(codeFrom($field("join-code").value));
    });
    $("create-rules").addEventListener("change", () => this.syncForm());
    $("create-seats").addEventListener("input", () => this.syncForm());
    $("create-bots").addEventListener("input", () => this.syncForm());
    /** @type {string[]} */
    this.levels = [];  // each bot's chosen level, kept while the counts and rule set change
    $("refresh-tables").addEventListener("click", () => this.refresh());
    this.syncForm();
  }

  /** The server's offer (GET /api/info): the rule sets in its order, seat counts. */
  async loadInfo() {
    try {
      const info = await loadInfo();
      const rules = /** @type {HTMLSelectElement} */ ($("create-rules"));
      const chosen = rules.value;
      rules.replaceChildren(...rulesets().map((ruleset) => {
        const option = document.createElement("option");
        option.value = ruleset.name;
        option.textContent = rulesName(ruleset.name);
        return option;
      }));
      if (chosen && info.rules.includes(chosen)) rules.value = chosen;
      if (info.seats && info.seats.length) {
        $field("create-seats").min = String(Math.min(...info.seats));
        $field("create-seats").max = String(Math.max(...info.seats));
      }
      this.syncForm();
    } catch {
      // The form keeps its own limits; the server still checks every field.
    }
  }

  /** The rules menu's names in the page's language. */
  renderRules() {
    for (const option of /** @type {HTMLSelectElement} */ ($("create-rules")).options) {
      option.textContent = rulesName(option.value);
    }
  }

  syncForm() {
    const form = /** @type {HTMLFormElement} */ ($("create-form"));
    const rules = form.rules.value;
    this.renderRules();
    this.showOptions(rules);
    /** @type {HTMLElement} */ ($("create-target").closest("label")).hidden = !can(rules, "target_score");
    const bots = levelsOf(rules).length > 0;  // where bots cannot play it, no bots field
    /** @type {HTMLElement} */ ($("create-bots").closest("label")).hidden = !bots;
    const seats = Number(form.seats.value) || 2;
    form.bots.max = Math.max(0, seats - 1);
    if (Number(form.bots.value) > seats - 1) form.bots.value = seats - 1;
    this.renderBotLevels(seats, bots ? Math.max(0, Number(form.bots.value) || 0) : 0);
  }

  /** The option fields of rule set `rules` show, the others' hide; a rule set's own are made
   * by its client, loaded at its first choice. @param {string} rules */
  showOptions(rules) {
    const box = $("rules-options");
    for (const panel of /** @type {HTMLCollectionOf<HTMLElement>} */ (box.children)) panel.hidden = panel.dataset.rules !== rules;
    if (!rules || [...box.children].some((panel) => /** @type {HTMLElement} */ (panel).dataset.rules === rules)) return;
    const made = document.createElement("div");  // its place, kept while its client loads
    made.dataset.rules = rules;
    made.hidden = true;
    box.append(made);
    clientFor(rules).then((client) => {
      if (!client.optionsPanel) return;
      const panel = client.optionsPanel();
      panel.dataset.rules = rules;
      panel.classList.add(`options-${rules}`);
      panel.hidden = /** @type {HTMLFormElement} */ ($("create-form")).rules.value !== rules;
      made.replaceWith(panel);
    }).catch(() => made.remove());  // not loaded (offline): the next choice tries again
  }

  /** The bot levels of the rule set chosen in the form, easiest first. */
  allowedLevels() {
    return levelsOf(/** @type {HTMLFormElement} */ ($("create-form")).rules.value);
  }

  /** One level menu per bot seat (the bots take the last seats), each level's strength in
   * words under it. @param {number} seats @param {number} bots */
  renderBotLevels(seats, bots) {
    const allowed = this.allowedLevels();
    const rules = /** @type {HTMLFormElement} */ ($("create-form")).rules.value;
    const box = $("bot-levels");
    box.replaceChildren();
    for (let i = 0; i < bots; i++) {
      const seat = seats - bots + i;
      const label = document.createElement("label");
      const span = document.createElement("span");
      span.textContent = t("web.bot_level_of", { bot: t("game.bot_name", { number: seat + 1 }) });
      const select = document.createElement("select");
      select.id = `create-level-${i + 1}`;
      select.className = "bot-level";
      for (const level of allowed) {
        const option = document.createElement("option");
        option.value = level;
        option.textContent = t(`web.level_${level}`);
        select.append(option);
      }
      const kept = this.levels[i];
      select.value = allowed.includes(kept) ? kept : defaultLevel(allowed, LAST_LEVEL);
      label.append(span, select);
      box.append(label);
      const words = `create-level-words-${i + 1}`;
      select.addEventListener("change", () => {
        this.levels[i] = select.value;
        localStorage.setItem(LAST_LEVEL, select.value);
        describeLevel(select, label, words, rules);
      });
      describeLevel(select, label, words, rules);
    }
  }

  async create() {
    const form = /** @type {HTMLFormElement} */ ($("create-form"));
    try {
      const turnSeconds = Number(form.turn_seconds.value);
      /** @type {import("./protocol").CreateTable} */
      const body = {
        name: playerName(),
        rules: form.rules.value,
        options: optionsFromForm(form),
        seats: seatsFromForm(form),
        public: form.visibility.value === "listed",
        rated: form.rated ? form.rated.checked : true,
        turn_seconds: turnSeconds > 0 ? turnSeconds : null,
        player_token: session.playerToken(),
      };
      // The timer as the form offers it: the server's default (60 s at a table for people
      // together, none for one person against bots); any other value, as asked.
      if (form.turn_seconds.value === form.turn_seconds.defaultValue) delete body.turn_seconds;
      const grant = await api("POST", "/api/tables", body);
      session.saveGrant(grant);
      this.onSeated(grant);
    } catch (error) {
      this.onError(/** @type {Error} */ (error).message);
    }
  }

  /** @param {string} code */
  async join(code) {
    if (!code) {
      $("join-code").focus();
      return;
    }
    try {
      const grant = await api("POST", `/api/tables/${encodeURIComponent(code)}/join`, {
        name: playerName(),
        player_token: session.playerToken(),
      });
      session.saveGrant(grant);
      this.onSeated(grant);
    } catch (error) {
      if (/** @type {{code?: string, status?: number}} */ (error).code === "started" && this.onStarted) this.onStarted(code);
      else this.onError(/** @type {Error} */ (error).message);
    }
  }

  async refresh() {
    this.onShown();
    if (this.yourGames || session.seatCodes().length) {
      this.yourGames ||= import("./yourgames.js").then(({ YourGames }) => new YourGames({ onBack: this.onBack }));
      this.yourGames.then((games) => games.refresh()).catch(() => { this.yourGames = null; });
    }
    const list = $("table-list");
    try {
      const { tables } = /** @type {import("./protocol").TableList} */ (await getJSON("/api/tables"));
      list.replaceChildren();
      const open = tables.filter((table) => table.status === "lobby");
      if (!open.length) {
        const li = document.createElement("li");
        li.textContent = t("web.no_open_tables");
        list.append(li);
      }
      for (const table of open) {
        const li = document.createElement("li");
        const host = table.seats[table.host] ? table.seats[table.host].name : "";
        const free = table.seats.filter((s) => !s.name && !s.bot).length;
        const label = document.createElement("span");
        label.textContent = tn("web.table_entry", free, { code: table.code, host, free });
        const button = document.createElement("button");
        button.type = "button";
        button.className = "secondary";
        button.textContent = t("web.join");
        button.setAttribute("aria-label", `${t("web.join")} ${table.code}`);
        button.addEventListener("click", () => this.join(table.code));
        li.append(label, button);
        list.append(li);
      }
    } catch (error) {
      this.onError(/** @type {Error} */ (error).message);
    }
  }

  /** The waiting room: the code, the link, who sits where; the host's start button.
   * @param {import("./protocol").TableInfo} table @param {number | null} mySeat */
  renderWaiting(table, mySeat) {
    $("waiting-code").textContent = table.code;
    const link = `${location.origin}/t/${table.code}`;
    /** @type {HTMLAnchorElement} */ ($("invite-link")).href = link;
    $("invite-link").textContent = link;
    $("waiting-rules").textContent = t("web.waiting_rules", {
      rules: rulesName(table.rules),
      seats: table.seats.length,
    });
    const list = $("seat-list");
    list.replaceChildren();
    for (const seat of table.seats) {
      const li = document.createElement("li");
      li.dataset.seat = String(seat.seat);
      // "Bot 2" and its level apart, as at the table (seats.js: one naming everywhere).
      const name = nameTag(seatName(seat, seat.seat), seatLevel(seat));
      name.classList.add("seat-name");
      const tag = document.createElement("span");
      tag.className = "tag";
      const tags = [];
      if (seat.seat === table.host) tags.push(t("web.host"));
      if (seat.seat === mySeat) tags.push(t("game.you"));
      if (seat.name && !seat.bot) tags.push(seat.connected ? t("web.connected") : t("web.disconnected"));
      tag.textContent = tags.join(" · ");
      li.append(name, tag);
      // Another person: mute, block or report them (moderationbutton.js).
      if (seat.name && !seat.bot && seat.seat !== mySeat) li.append(moderationButton({ name: seat.name, code: table.code, seat: seat.seat }));
      list.append(li);
    }
    const host = mySeat === table.host;
    $("start-button").hidden = !host;
    $("waiting-hint").textContent = host ? t("web.start_hint") : t("web.waiting_for_host");
  }
}
