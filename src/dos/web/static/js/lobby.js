// @ts-check
// The lobby: a name, creating a table (rule set, options, seats, bots, private or listed),
// joining one by code or link, the list of listed tables, and the waiting room.

import { t, tn } from "./i18n.js";
import { errorText, codeOf } from "./errors.js";
import * as session from "./session.js";
import { nameTag, seatName, seatLevel } from "./seats.js";
import { defaultLevel, describeLevel } from "./newcomer.js";

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

// The levels offered until the server says its own (GET /api/info: each rule set's levels,
// easiest first, from the bot registry); the server checks every seat's level anyway. A new
// menu starts at the level last chosen in one (kept for the next visit), else at easy until a
// first game is finished (newcomer.js).
const LEVELS = ["easy", "medium", "hard", "expert"];
const LAST_LEVEL = "dos.lobby.level";

/** People first, then the bots, each at the level its own menu says. */
/** @param {HTMLFormElement} form */
function seatsFromForm(form) {
  const seats = Number(form.seats.value);
  const bots = Math.min(Number(form.bots.value), seats - 1);
  const levels = [...document.querySelectorAll("#bot-levels select")].map((s) => /** @type {HTMLSelectElement} */ (s).value);
  return [...Array(seats - bots).fill(null), ...levels.slice(0, bots)];
}

/** @param {HTMLFormElement} form */
function optionsFromForm(form) {
  if (form.rules.value === "classic") {
    return {
      reaction_time_ms: Math.round(Number(form.reaction_seconds.value) * 1000),
      penalty_cards: Number(form.penalty_cards.value),
      stacking: form.stacking.checked,
    };
  }
  if (form.rules.value !== "official") return {};
  return {
    target_score: Number(form.target_score.value) || 200,
    dealer_starts: form.dealer_starts.checked,
    deal_passes_left: form.deal_passes_left.checked,
    bonus_lay_mandatory: form.bonus_lay_mandatory.checked,
  };
}

export class Lobby {
  /** @param {{onSeated: (grant: import("./protocol").SeatGrant) => void,
   *   onError: (message: string) => void, onStarted: (code: string) => void}} handlers (`onStarted`: a join refused as the game started) */
  constructor({ onSeated, onError, onStarted }) {
    this.onSeated = onSeated;
    this.onError = onError;
    this.onStarted = onStarted;
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
    /** @type {Record<string, string[]>} */
    this.levelsByRules = {};  // rule set -> its bot levels, from the server
    $("refresh-tables").addEventListener("click", () => this.refresh());
    this.syncForm();
  }

  /** Limits from the server (GET /api/info): rule sets, levels, seat counts. */
  async loadInfo() {
    try {
      const info = await getJSON("/api/info");
      const rules = /** @type {HTMLSelectElement} */ ($("create-rules"));
      for (const option of [...rules.options]) option.hidden = !info.rules.includes(option.value);
      this.levelsByRules = info.levels_by_rules || { official: info.levels };
      if (info.seats && info.seats.length) {
        $field("create-seats").min = String(Math.min(...info.seats));
        $field("create-seats").max = String(Math.max(...info.seats));
      }
      this.syncForm();
    } catch {
      // The form keeps its own limits; the server still checks every field.
    }
  }

  syncForm() {
    const form = /** @type {HTMLFormElement} */ ($("create-form"));
    /** @param {string} selector */
    const part = (selector) => /** @type {HTMLElement} */ (form.querySelector(selector));
    part(".options-official").hidden = form.rules.value !== "official";
    part(".options-classic").hidden = form.rules.value !== "classic";
    /** @type {HTMLElement} */ ($("create-target").closest("label")).hidden = form.rules.value !== "official";
    const seats = Number(form.seats.value) || 2;
    form.bots.max = Math.max(0, seats - 1);
    if (Number(form.bots.value) > seats - 1) form.bots.value = seats - 1;
    this.renderBotLevels(seats, Math.max(0, Number(form.bots.value) || 0));
  }

  /** The bot levels of the rule set chosen in the form, easiest first. */
  allowedLevels() {
    return this.levelsByRules[/** @type {HTMLFormElement} */ ($("create-form")).rules.value] || LEVELS;
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
      rules: t(`web.rules_${table.rules}`),
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
      list.append(li);
    }
    const host = mySeat === table.host;
    $("start-button").hidden = !host;
    $("waiting-hint").textContent = host ? t("web.start_hint") : t("web.waiting_for_host");
  }
}
