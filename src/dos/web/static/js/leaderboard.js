// @ts-check
// The leaderboard (/leaderboard) and a player's page (/leaderboard?player=ID): openskill
// ratings from GET /api/leaderboard and GET /api/players/{id} (docs/ratings.md). Every word
// comes from the message catalog (rank.* keys); the rating-over-time plot is inline SVG, of
// the player's latest page of rating changes (the newest 200 at most). A provisional rating
// (a player not yet established) is marked, and is not on the leaderboard. Opened without a
// board in its address, the page shows the player's own board (the one they played most
// on), else the board with the most players: never an empty board while another has players.
// The player's own row is marked; each game on a player's page links to its replay. Two
// boards (`board=people`, the default, or `bots`: the bot levels and the AI players, each AI
// with an "AI" badge, as on its page), chosen in the form and kept in the address.

import { t, setLang, preferredLang, onLangChange, LANGS, LANG_NAMES, lang } from "./i18n.js";
import { storedName } from "./seats.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const SVG = "http://www.w3.org/2000/svg";
const PAGE = 50;
const SEATS = [2, 3, 4];
const RULES = ["official", "classic"];

const BOARDS = ["people", "bots"];

/** The board or player page shown, as the address says it.
 * @type {{board: string, rules: string, players: number, offset: number, player: string | null}} */
let state = { board: "people", rules: "official", players: 2, offset: 0, player: null };
// The server's JSON: the board on show, the player page on show (undefined: not loaded).
/** @type {any} */
let board = null;
/** @type {any} */
let page = null;
let loaded = false;

/** @param {number} value */
function fixed(value) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    .format(value);
}

/** @param {number} value */
function signed(value) {
  const text = fixed(Math.abs(value));
  return value > 0.05 ? `+${text}` : value < -0.05 ? `−${text}` : text;
}

/** @param {string} rules */
function rulesName(rules) {
  return t(`web.rules_${rules}`);
}

/** A player's name as shown: a bot level in words, a guest by their name.
 * @param {import("./view").RankedPlayer} entry */
function shownName(entry) {
  if (entry.bot) {
    const level = entry.player_id.slice(4);
    return t("rank.bot", { level: t(`web.level_${level}`) });
  }
  return entry.name;
}

/** The "AI" badge of a player who plays through the agent API or MCP (docs/ratings.md). */
function aiBadge() {
  const badge = document.createElement("span");
  badge.className = "ai-badge";
  badge.textContent = t("rank.ai");
  badge.title = t("rank.ai_title");
  return badge;
}

/** @param {HTMLElement} row @param {string} text @param {string} [className] */
function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.append(td);
  return td;
}

/** @param {import("./view").RankedPlayer} entry */
function playerLink(entry) {
  const link = document.createElement("a");
  link.href = `/leaderboard?player=${encodeURIComponent(entry.player_id)}`;
  link.textContent = shownName(entry);
  return link;
}

/** @param {string | null} key */
function showError(key) {
  const banner = $("rank-error");
  banner.textContent = key ? t(key) : "";
  banner.hidden = !key;
}

/** @param {string} url */
async function getJson(url) {
  const response = await fetch(url);
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

// --- the leaderboard --------------------------------------------------------------------------

async function loadBoard() {
  const query = new URLSearchParams({
    rules: state.rules, players: String(state.players), offset: String(state.offset),
    limit: String(PAGE), board: state.board,
  });
  try {
    board = await getJson(`/api/leaderboard?${query}`);
    showError(null);
  } catch {
    board = null;
    showError("rank.error");
  }
  renderBoard();
}

function renderBoard() {
  $("board-view").hidden = false;
  $("player-view").hidden = true;
  $field("board-kind").value = state.board;
  $field("board-rules").value = state.rules;
  $field("board-players").value = String(state.players);
  $("board-caption").textContent = t(state.board === "bots" ? "rank.caption_bots" : "rank.caption", {
    rules: rulesName(state.rules), players: state.players,
  });
  $("board-note").hidden = state.board !== "bots";
  const rows = $("board-rows");
  rows.replaceChildren();
  const entries = board ? board.entries : [];
  const me = myId();
  for (const entry of entries) {
    const row = document.createElement("tr");
    const mine = entry.player_id === me;
    if (mine) {
      row.className = "you";
      row.setAttribute("aria-current", "true");
    }
    const place = document.createElement("th");
    place.scope = "row";
    place.className = "num";
    place.textContent = String(entry.place);
    row.append(place);
    const who = cell(row, "");
    who.append(playerLink(entry));
    if (entry.ai) who.append(" ", aiBadge());
    if (mine) who.append(` (${t("game.you")})`);
    cell(row, fixed(entry.rating), "num");
    cell(row, t("rank.mu_sigma", { mu: fixed(entry.mu), sigma: fixed(entry.sigma) }), "num");
    cell(row, String(entry.games), "num");
    cell(row, String(entry.wins), "num");
    rows.append(row);
  }
  $("board-table").hidden = entries.length === 0;
  $("board-empty").hidden = entries.length !== 0;
  const total = board ? board.total : 0;
  $("board-range").textContent = entries.length
    ? t("rank.range", { first: state.offset + 1, last: state.offset + entries.length, total })
    : "";
  $field("board-prev").disabled = state.offset === 0;
  $field("board-next").disabled = state.offset + entries.length >= total;
  document.title = `${t("rank.title")} · DOS`;
}

// --- a player's page --------------------------------------------------------------------------

async function loadPlayer() {
  try {
    page = await getJson(`/api/players/${encodeURIComponent(String(state.player))}`);
    showError(null);
  } catch {
    page = undefined;
    showError("rank.error");
  }
  renderPlayer();
}

/** @param {string} rules @param {number} players */
function seriesKey(rules, players) {
  return `${rules}/${players}`;
}

function renderPlayer() {
  $("board-view").hidden = true;
  $("player-view").hidden = false;
  const found = Boolean(page);
  $("player-missing").hidden = found || page === undefined;
  $("player-body").hidden = !found;
  $("player-title").textContent = found
    ? t("rank.player_title", { name: shownName(page) })
    : t("rank.title");
  if (found && page.ai) $("player-title").append(" ", aiBadge());
  if (!found) return;
  document.title = `${shownName(page)} · DOS`;

  const ratings = $("player-ratings");
  ratings.replaceChildren();
  const series = /** @type {HTMLSelectElement} */ ($("plot-series"));
  const chosen = series.value;
  series.replaceChildren();
  for (const rating of page.ratings) {
    const row = document.createElement("tr");
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = rulesName(rating.rules);
    row.append(head);
    cell(row, String(rating.players), "num");
    const shown = fixed(rating.rating);
    cell(row, rating.provisional ? t("rank.provisional_rating", { rating: shown }) : shown, "num");
    cell(row, t("rank.mu_sigma", { mu: fixed(rating.mu), sigma: fixed(rating.sigma) }), "num");
    cell(row, String(rating.games), "num");
    cell(row, String(rating.wins), "num");
    if (rating.provisional) row.dataset.provisional = "true";
    ratings.append(row);
    const option = document.createElement("option");
    option.value = seriesKey(rating.rules, rating.players);
    option.textContent = t("rank.caption", {
      rules: rulesName(rating.rules), players: rating.players,
    });
    series.append(option);
  }
  if ([...series.options].some((o) => o.value === chosen)) series.value = chosen;
  const note = $("player-provisional");
  note.hidden = !page.ratings.some((/** @type {import("./view").Rating} */ rating) => rating.provisional);
  note.textContent = t("rank.provisional_note", { games: page.established_games });
  renderPlot();

  const games = $("player-games");
  games.replaceChildren();
  for (const game of page.recent) {
    const row = document.createElement("tr");
    const head = document.createElement("th");
    head.scope = "row";
    // The game is a link to its replay (the main page's /replay/{id}).
    const replay = document.createElement("a");
    replay.href = `/replay/${encodeURIComponent(game.game_id)}`;
    replay.textContent = t("rank.game_n", { game: game.game_id, rules: rulesName(game.rules) });
    head.append(replay);
    row.append(head);
    cell(row, game.players.map(storedName).join(", "));
    cell(row, game.won ? t("rank.won") : t("rank.place_n", { place: game.rank + 1 }), "num");
    cell(row, signed(game.rating_change), game.rating_change >= 0 ? "num up" : "num down");
    games.append(row);
  }
}

/** The SVG plot of one series: the conservative rating (mu − 3σ, dashed) and mu with a
 * ±σ band, after each rated game. @param {import("./view").RatingPoint[]} points */
export function plot(points, width = 640, height = 260) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  const left = 44, right = 12, top = 12, bottom = 30;
  const start = { mu: points.length ? points[0].mu_before : 25, sigma: points.length ? points[0].sigma_before : 25 / 3 };
  const values = [start, ...points.map((p) => ({ mu: p.mu, sigma: p.sigma }))];
  const low = Math.floor(Math.min(...values.map((v) => v.mu - 3 * v.sigma)) / 5) * 5;
  const high = Math.ceil(Math.max(...values.map((v) => v.mu + v.sigma)) / 5) * 5;
  /** @param {number} i */
  const x = (i) => left + (values.length > 1 ? (i * (width - left - right)) / (values.length - 1) : 0);
  /** @param {number} v */
  const y = (v) => top + ((high - v) * (height - top - bottom)) / Math.max(high - low, 1);
  /** @param {string} name @param {Record<string, string | number>} attrs @param {string} [text] */
  const add = (name, attrs, text) => {
    const el = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  for (let v = low; v <= high; v += 5) {
    add("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" });
    add("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end" }, String(v));
  }
  add("line", { x1: left, x2: left, y1: top, y2: height - bottom, class: "axis" });
  add("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, class: "axis" });
  add("text", { x: (left + width - right) / 2, y: height - 8, "text-anchor": "middle" }, t("rank.axis_games"));
  const upper = values.map((v, i) => `${x(i)},${y(v.mu + v.sigma)}`);
  const lower = values.map((v, i) => `${x(i)},${y(v.mu - v.sigma)}`).reverse();
  add("polygon", { points: [...upper, ...lower].join(" "), class: "band" });
  add("polyline", { points: values.map((v, i) => `${x(i)},${y(v.mu)}`).join(" "), class: "mu" });
  add("polyline", {
    points: values.map((v, i) => `${x(i)},${y(v.mu - 3 * v.sigma)}`).join(" "), class: "ordinal",
  });
  values.forEach((v, i) => {
    const dot = add("circle", { cx: x(i), cy: y(v.mu - 3 * v.sigma), r: 3, class: "dot" });
    const title = document.createElementNS(SVG, "title");
    title.textContent = t("rank.point", {
      game: i, rating: fixed(v.mu - 3 * v.sigma), mu: fixed(v.mu), sigma: fixed(v.sigma),
    });
    dot.append(title);
  });
  return svg;
}

function renderPlot() {
  const [rules, players] = ($field("plot-series").value || "").split("/");
  const points = page.history.filter((/** @type {import("./view").RatingPoint} */ p) => p.rules === rules && String(p.players) === players);
  const label = t("rank.plot_label", { rules: rulesName(rules), players });
  const svg = plot(points);
  svg.setAttribute("aria-label", label);
  $("plot").replaceChildren(svg);
  // The page holds the latest rating changes only: say so when there are more.
  const partial = page.history.length < page.history_total;
  $("plot-caption").textContent = partial
    ? `${t("rank.plot_caption")} ${t("rank.plot_page", {
      count: page.history.length, total: page.history_total,
    })}`
    : t("rank.plot_caption");
}

// --- start ------------------------------------------------------------------------------------

/** This browser's player (js/session.js keeps it), or null. */
function myId() {
  return localStorage.getItem("dos.player_id");
}

/** Whether the address names a board (else the page picks one: `pickBoard`). */
function namesBoard() {
  const query = new URLSearchParams(location.search);
  return query.has("rules") || query.has("players") || query.has("board");
}

function readAddress() {
  const query = new URLSearchParams(location.search);
  const rules = query.get("rules");
  const players = Number(query.get("players"));
  const board = query.get("board");
  state = {
    board: board !== null && BOARDS.includes(board) ? board : "people",
    rules: rules !== null && RULES.includes(rules) ? rules : "official",
    players: SEATS.includes(players) ? players : 2,
    offset: Math.max(0, Number(query.get("offset")) || 0),
    player: query.get("player"),
  };
}

/** How many players each board of `kind` (people or bots) lists, in the order of `boards`.
 * @param {string} kind @param {{rules: string, players: number}[]} boards */
function totalsOf(kind, boards) {
  return Promise.all(boards.map(({ rules, players }) => {
    const query = new URLSearchParams({ rules, players: String(players), limit: "1", board: kind });
    return getJson(`/api/leaderboard?${query}`).then((b) => (b ? b.total : 0), () => 0);
  }));
}

/** The board to open on: the player's own (where they are listed, the one with the most
 * games; the bots' board for an AI), else the people's board with the most players, else the
 * bots' board with the most, else the first. */
/** @returns {Promise<{board: string, rules: string, players: number}>} */
async function pickBoard() {
  const me = myId();
  const boards = RULES.flatMap((rules) => SEATS.map((players) => ({ rules, players })));
  const [mine, totals] = await Promise.all([
    me ? getJson(`/api/players/${encodeURIComponent(me)}`).catch(() => null) : null,
    totalsOf("people", boards),
  ]);
  const listed = /** @type {import("./view").Rating[]} */ ((mine && mine.ratings) || []).filter((r) => !r.provisional
    && boards.some((b) => b.rules === r.rules && b.players === r.players));
  if (listed.length) {
    const best = listed.reduce((a, b) => (b.games > a.games ? b : a));
    return { board: mine.ai ? "bots" : "people", rules: best.rules, players: best.players };
  }
  /** @type {[string, number[] | null][]} */
  const kinds = [["people", totals], ["bots", null]];
  for (const [kind, counts] of kinds) {
    const found = counts || await totalsOf(kind, boards);
    const fullest = found.indexOf(Math.max(...found));
    if (found[fullest] > 0) return { board: kind, ...boards[fullest] };
  }
  return { board: "people", ...boards[0] };
}

/** The board the address names, else the one `pickBoard` picks. */
async function openBoard() {
  if (!namesBoard()) state = { ...state, ...(await pickBoard()) };
  await loadBoard();
}

function go() {
  const query = new URLSearchParams({ rules: state.rules, players: String(state.players) });
  if (state.board !== "people") query.set("board", state.board);
  if (state.offset) query.set("offset", String(state.offset));
  history.pushState(null, "", `/leaderboard?${query}`);
  loadBoard();
}

function render() {
  if (state.player) renderPlayer();
  else renderBoard();
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
    if (loaded) render();
  });
  const seats = $field("board-players");
  for (const count of SEATS) {
    const option = document.createElement("option");
    option.value = String(count);
    option.textContent = String(count);
    seats.append(option);
  }
  $("board-form").addEventListener("submit", (event) => {
    event.preventDefault();
    state = {
      ...state, board: $field("board-kind").value, rules: $field("board-rules").value,
      players: Number(seats.value), offset: 0,
    };
    go();
  });
  $("board-prev").addEventListener("click", () => {
    state = { ...state, offset: Math.max(0, state.offset - PAGE) };
    go();
  });
  $("board-next").addEventListener("click", () => {
    state = { ...state, offset: state.offset + PAGE };
    go();
  });
  $("plot-series").addEventListener("change", renderPlot);
  window.addEventListener("popstate", () => {
    readAddress();
    if (state.player) loadPlayer();
    else openBoard();
  });
  readAddress();
  await setLang(preferredLang());
  loaded = true;
  if (state.player) await loadPlayer();
  else await openBoard();
  document.body.dataset.ready = "true";
}

start();
