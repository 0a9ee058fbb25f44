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

import { t, setLang, preferredLang, onLangChange, LANGS, LANG_NAMES } from "./i18n.js";
import { storedName } from "./seats.js";
import { store } from "./store.js";
import { loadInfo, rulesName } from "./rulesets.js";
import { plot, fixed } from "./ratingplot.js";
import { followMenu } from "./menuedge.js";
import { moderationButton } from "./moderationbutton.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const PAGE = 50;
const SEATS = [2, 3, 4];

const BOARDS = ["people", "bots"];

/** What this page keeps (the store's `leaderboard`): the board or player page shown, as the
 * address says it (`shown`); the server's JSON on show (`board`, `player`: undefined when not
 * found); the rated rule sets, in the server's order (`rules`). */
const kept = store.leaderboard;

/** @param {number} value */
function signed(value) {
  const text = fixed(Math.abs(value));
  return value > 0.05 ? `+${text}` : value < -0.05 ? `−${text}` : text;
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
    rules: kept.shown.rules, players: String(kept.shown.players), offset: String(kept.shown.offset),
    limit: String(PAGE), board: kept.shown.board,
  });
  try {
    kept.board = await getJson(`/api/leaderboard?${query}`);
    showError(null);
  } catch {
    kept.board = null;
    showError("rank.error");
  }
  renderBoard();
}

function renderBoard() {
  const board = kept.board;
  $("board-view").hidden = false;
  $("player-view").hidden = true;
  $field("board-kind").value = kept.shown.board;
  $field("board-rules").value = kept.shown.rules;
  $field("board-players").value = String(kept.shown.players);
  $("board-caption").textContent = t(kept.shown.board === "bots" ? "rank.caption_bots" : "rank.caption", {
    rules: rulesName(kept.shown.rules), players: kept.shown.players,
  });
  $("board-note").hidden = kept.shown.board !== "bots";
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
    ? t("rank.range", { first: kept.shown.offset + 1, last: kept.shown.offset + entries.length, total })
    : "";
  $field("board-prev").disabled = kept.shown.offset === 0;
  $field("board-next").disabled = kept.shown.offset + entries.length >= total;
  document.title = `${t("rank.title")} · DOS`;
}

// --- a player's page --------------------------------------------------------------------------

async function loadPlayer() {
  try {
    kept.player = await getJson(`/api/players/${encodeURIComponent(String(kept.shown.player))}`);
    showError(null);
  } catch {
    kept.player = undefined;
    showError("rank.error");
  }
  renderPlayer();
}

/** @param {string} rules @param {number} players */
function seriesKey(rules, players) {
  return `${rules}/${players}`;
}

function renderPlayer() {
  const page = kept.player;
  $("board-view").hidden = true;
  $("player-view").hidden = false;
  const found = Boolean(page);
  $("player-missing").hidden = found || page === undefined;
  $("player-body").hidden = !found;
  $("player-title").textContent = found
    ? t("rank.player_title", { name: shownName(page) })
    : t("rank.title");
  if (found && page.ai) $("player-title").append(" ", aiBadge());
  $("player-moderation").replaceChildren();
  if (!found) return;
  // Another person (not a bot, not an AI): mute, block or report them (moderationbutton.js),
  // beside the title, not in it (the heading names the player and nothing else).
  if (!page.ai && !page.player_id.startsWith("bot:") && page.player_id !== myId()) {
    $("player-moderation").append(moderationButton({ name: shownName(page), playerId: page.player_id }));
  }
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

function renderPlot() {
  const page = kept.player;
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
  const kind = query.get("board");
  kept.shown = {
    board: kind !== null && BOARDS.includes(kind) ? kind : "people",
    rules: rules !== null && kept.rules.includes(rules) ? rules : kept.rules[0],
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
  const boards = kept.rules.flatMap((rules) => SEATS.map((players) => ({ rules, players })));
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
  if (!namesBoard()) kept.shown = { ...kept.shown, ...(await pickBoard()) };
  await loadBoard();
}

function go() {
  const query = new URLSearchParams({ rules: kept.shown.rules, players: String(kept.shown.players) });
  if (kept.shown.board !== "people") query.set("board", kept.shown.board);
  if (kept.shown.offset) query.set("offset", String(kept.shown.offset));
  history.pushState(null, "", `/leaderboard?${query}`);
  loadBoard();
}

/** The rule sets' menu: the rated ones, in the page's language. */
function renderRulesMenu() {
  const menu = /** @type {HTMLSelectElement} */ ($("board-rules"));
  const chosen = menu.value;
  menu.replaceChildren(...kept.rules.map((rules) => {
    const option = document.createElement("option");
    option.value = rules;
    option.textContent = rulesName(rules);
    return option;
  }));
  if (chosen) menu.value = chosen;
}

function render() {
  if (kept.shown.player) renderPlayer();
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
    renderRulesMenu();
    if (kept.loaded) render();
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
    kept.shown = {
      ...kept.shown, board: $field("board-kind").value, rules: $field("board-rules").value,
      players: Number(seats.value), offset: 0,
    };
    go();
  });
  $("board-prev").addEventListener("click", () => {
    kept.shown = { ...kept.shown, offset: Math.max(0, kept.shown.offset - PAGE) };
    go();
  });
  $("board-next").addEventListener("click", () => {
    kept.shown = { ...kept.shown, offset: kept.shown.offset + PAGE };
    go();
  });
  $("plot-series").addEventListener("change", renderPlot);
  window.addEventListener("popstate", () => {
    readAddress();
    if (kept.shown.player) loadPlayer();
    else openBoard();
  });
  const [info] = await Promise.all([loadInfo().catch(() => null), setLang(preferredLang())]);
  // The boards: one for each rated rule set the server offers, in its order.
  kept.rules = info ? info.rulesets.filter((ruleset) => ruleset.rated).map((ruleset) => ruleset.name) : [];
  renderRulesMenu();
  readAddress();
  kept.loaded = true;
  if (kept.shown.player) await loadPlayer();
  else await openBoard();
  followMenu();
  // Friends (friendsboot.js): a challenge reaches the player here too (Play goes to the
  // table), and a player's page offers to ask them to be friends or to follow them.
  if (localStorage.getItem("dos.player_token")) {
    import("./friendsboot.js").then((m) => m.start({
      enterTable: (code) => location.assign(`/t/${code}`),
      showError: (message) => {
        $("rank-error").textContent = message;
        $("rank-error").hidden = false;
      },
    }));
  }
  document.body.dataset.ready = "true";
}

start();
