// @ts-check
// The tournaments' pages: the list with the form that creates one (/tournaments), and one
// tournament's live standings (/tournaments/<id>): its status, the visitor's buttons (join,
// leave, go to their table, the organiser's start of a Swiss round), the standings and the
// top tables to watch, looked at again every few seconds while it runs. The decisions are
// tournament.js's; every word comes from the catalog (the `tour` texts, loaded with the page).

import { t, setLang, preferredLang, onLangChange, LANGS, LANG_NAMES } from "./i18n.js";
import { store } from "./store.js";
import * as session from "./session.js";
import { loadInfo, rulesName } from "./rulesets.js";
import {
  createBody, idOf, movedOn, nextPoll, offers, refusalKey, rowAction, rows, statusLine, topTables,
} from "./tournament.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** What this page keeps (the store's `tournaments`). */
const kept = store.tournaments;

/** @param {string | null} key @param {string} [message] */
function showError(key, message) {
  const banner = $("tour-error");
  banner.textContent = key ? t(key, { message: message ?? "" }) : "";
  banner.hidden = !key;
}

/** A request to the API; a refusal is shown in the catalog's words and yields null.
 * @param {string} url @param {unknown} [body] */
async function call(url, body) {
  const response = await fetch(url, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    showError(refusalKey(data.code), data.message);
    return null;
  }
  showError(null);
  return data;
}

/** Keeps who the server says the visitor is (a new guest gets a token on joining).
 * @param {{player_id?: string, player_token?: string}} answer */
function remember(answer) {
  if (answer.player_id && answer.player_token) session.signIn({ player_id: answer.player_id, player_token: answer.player_token });
}

function renderList() {
  const body = $("tour-rows");
  body.replaceChildren(...kept.list.map((item) => {
    const row = document.createElement("tr");
    const name = document.createElement("td");
    const link = document.createElement("a");
    link.href = `/tournaments/${item.id}`;
    link.textContent = item.name;
    name.append(link);
    const cells = [t(`tour.format_${item.format}`), String(item.players), t(`tour.status_${item.status}`)];
    row.append(name, ...cells.map((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (i === 1) td.className = "num";
      return td;
    }));
    return row;
  }));
  $("tour-none").hidden = kept.list.length > 0;
}

function renderOne() {
  const one = kept.one;
  $("tour-missing").hidden = !!one;
  $("tour-body").hidden = !one;
  if (!one) return;
  const me = session.playerId();
  $("tour-name").textContent = one.name;
  $("tour-kind").textContent = t("tour.kind", {
    format: t(`tour.format_${one.format}`), rules: rulesName(one.rules), seats: one.seats,
    rated: t(one.rated ? "tour.rated" : "tour.casual"),
  });
  renderStatus();
  $("tour-scoring").textContent = t(one.format === "swiss" ? "tour.points_swiss" : one.streaks ? "tour.points_arena_streaks" : "tour.points_arena");
  const can = offers(one, me);
  $("tour-join").hidden = !can.join;
  $("tour-join-name").hidden = !can.join;
  $("tour-leave").hidden = !can.leave;
  $("tour-play").hidden = !can.play;
  $("tour-start").hidden = !can.start;
  $("tour-start").textContent = t("tour.start_round", { round: can.nextRound });
  $("tour-standings").replaceChildren(...rows(one, me).map((r) => {
    const row = document.createElement("tr");
    if (r.mine) {
      row.className = "you";
      row.setAttribute("aria-current", "true");
    }
    const status = [r.playing ? t("tour.at_table") : "", r.left ? t("tour.left") : "", r.streak ? t("tour.streak") : ""];
    for (const [text, num] of /** @type {[string, boolean][]} */ ([
      [String(r.place), true], [r.mine ? `${r.name} (${t("game.you")})` : r.name, false],
      [r.points, true], [String(r.games), true],
      [String(r.firsts), true], [r.tieBreak, true], [status.filter(Boolean).join(" · "), false],
    ])) {
      const td = document.createElement("td");
      td.textContent = text;
      if (num) td.className = "num";
      row.append(td);
    }
    const standing = one.standings.find((x) => x.player_id === r.playerId);
    const action = standing ? rowAction(one, me, standing) : null;
    if (action) /** @type {HTMLElement} */ (row.lastElementChild).append(" ", organiserButton(action, r.playerId, r.name));
    return row;
  }));
  const tables = topTables(one);
  $("tour-tables").replaceChildren(...tables.map((table) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = table.href;
    link.textContent = t("tour.watch", { players: table.names.join(", ") });
    item.append(link);
    return item;
  }));
  $("tour-no-tables").hidden = tables.length > 0;
}

/** The status line, its countdown at this second: the server's `now` of the last load moved
 * on by this browser's clock since (the page loads again only every few seconds). */
function renderStatus() {
  const one = kept.one;
  if (!one) return;
  if (kept.skewOf !== one.now) {
    kept.skewOf = one.now;
    kept.skew = one.now - Date.now() / 1000;
  }
  const line = statusLine(movedOn(one, kept.skew, Date.now() / 1000));
  $("tour-status").textContent = t(line.key, line.params);
}

/** The organiser's button on a player's row: drop them, or add them again.
 * @param {"drop" | "add"} action @param {string} playerId @param {string} name */
function organiserButton(action, playerId, name) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = t(action === "drop" ? "tour.drop" : "tour.add_back");
  button.setAttribute("aria-label", t(action === "drop" ? "tour.drop_who" : "tour.add_back_who", { name }));
  button.addEventListener("click", () => organise(action, playerId));
  return button;
}

/** @param {"drop" | "add"} action @param {string} playerId */
async function organise(action, playerId) {
  const answer = await call(`/api/tournaments/${kept.id}/${action}`, { player_token: session.playerToken(), player_id: playerId });
  if (answer) {
    kept.one = answer;
    renderOne();
  }
}

async function loadOne() {
  if (!kept.id) return;
  const response = await fetch(`/api/tournaments/${kept.id}`);
  kept.one = response.ok ? await response.json() : null;
  renderOne();
  clearTimeout(kept.timer);
  const wait = kept.one ? nextPoll(kept.one) : null;
  if (wait !== null) kept.timer = setTimeout(loadOne, wait);
}

async function loadList() {
  const answer = await call("/api/tournaments");
  kept.list = answer ? answer.tournaments : [];
  renderList();
}

/** @param {string} action */
async function act(action) {
  const token = session.playerToken();
  if (!token) return;
  const answer = await call(`/api/tournaments/${kept.id}/${action}`, { player_token: token });
  if (answer) {
    kept.one = answer;
    renderOne();
  }
}

async function join() {
  const name = $input("tour-name-input").value.trim() || session.name();
  if (!name) {
    $input("tour-name-input").focus();
    return;
  }
  session.setName(name);
  const token = session.playerToken();
  const answer = await call(`/api/tournaments/${kept.id}/join`, { name, ...(token ? { player_token: token } : {}) });
  if (answer) {
    remember(answer);
    kept.one = answer;
    renderOne();
  }
}

async function play() {
  const answer = await call(`/api/tournaments/${kept.id}/seat`, { player_token: session.playerToken() });
  if (answer && answer.seat) {
    session.saveGrant(answer.seat);
    location.assign(`/t/${answer.seat.code}`);
  }
}

async function create(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  session.setName(field("name").value.trim());
  const body = createBody({
    name: field("name").value.trim(), title: field("title").value.trim(), format: field("format").value,
    rules: field("rules").value, seats: Number(field("seats").value), rounds: Number(field("rounds").value),
    minutes: Number(field("minutes").value), rated: field("rated").checked, streaks: field("streaks").checked,
    play: field("play").checked, token: session.playerToken(),
  });
  const answer = await call("/api/tournaments", body);
  if (answer) {
    remember(answer);
    location.assign(`/tournaments/${answer.id}`);
  }
}

function showFormat() {
  const arena = $input("tour-form").querySelector("select[name=format]");
  const isArena = /** @type {HTMLSelectElement} */ (arena).value === "arena";
  $("tour-rounds").hidden = isArena;
  $("tour-minutes").hidden = !isArena;
  $("tour-streaks").hidden = !isArena;
}

async function start() {
  const select = /** @type {HTMLSelectElement} */ ($("lang-select"));
  for (const code of LANGS) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = LANG_NAMES[code];
    select.append(option);
  }
  select.addEventListener("change", () => setLang(select.value));
  onLangChange((code) => {
    select.value = code;
    if (kept.id) renderOne();
    else renderList();
  });
  // The `tour` texts come with every catalog this page loads (i18n.js fetches the parts it
  // holds with each language): the page is labelled once, whole.
  store.i18n.parts.add("tour");
  const [info] = await Promise.all([loadInfo().catch(() => null), setLang(preferredLang())]);
  kept.id = idOf(location.pathname);
  $input("tour-name-input").value = session.name();
  $("tour-join").addEventListener("click", join);
  $("tour-leave").addEventListener("click", () => act("leave"));
  $("tour-start").addEventListener("click", () => act("start"));
  $("tour-play").addEventListener("click", play);
  $("tour-form").addEventListener("submit", create);
  $("tour-form").addEventListener("change", showFormat);
  const rules = /** @type {HTMLSelectElement} */ ($("tour-rules"));
  for (const ruleset of info ? info.rulesets : []) {
    const option = document.createElement("option");
    option.value = ruleset.name;
    option.textContent = rulesName(ruleset.name);
    rules.append(option);
  }
  $input("tour-form").querySelector("input[name=name]")?.setAttribute("value", session.name());
  $("tour-list").hidden = !!kept.id;
  $("tour-one").hidden = !kept.id;
  if (kept.id) {
    await loadOne();
    setInterval(renderStatus, 1000);
  } else await loadList();
  document.body.dataset.ready = "true";
}

start();
