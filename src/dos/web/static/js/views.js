// @ts-check
// Which view shows (lobby, waiting room, table, replay, rules, tutorial), where the keyboard
// goes when one opens, the page's address (/t/CODE, /replay/ID, /learn) and the refusal banner
// over the page. The replay viewer and the tutorial load at their first use.

import { onLangChange, loadPart } from "./i18n.js";
import { store } from "./store.js";
import { isOpen } from "./dialog.js";
import { placeChat } from "./chat.js";
import { codeFrom, showNotice, clearNotice } from "./lobby.js";
import * as session from "./session.js";
import { enterTable, tableLoaded, names } from "./tableload.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const VIEWS = ["lobby", "waiting", "table", "replay", "rules", "learn"];

/** @param {string} name */
export function showView(name, { focus = true } = {}) {
  const page = store.page;
  const changed = name !== page.shown;
  if (changed) clearError();  // an error is about the view it was shown on
  for (const view of VIEWS) $(`view-${view}`).hidden = view !== name;
  page.shown = name;
  document.body.dataset.view = name;
  placeChat();  // the chat goes along: beside the table, or in the waiting room
  if (changed && focus) requestAnimationFrame(() => focusView(name));
}

/** A view that opens takes the keyboard to where its work is (never left on the body).
 * @param {string} name */
export function focusView(name) {
  if (store.page.shown !== name || isOpen()) return;
  const active = document.activeElement;
  if (active && active !== document.body && $(`view-${name}`).contains(active)) return;
  /** @type {HTMLElement | null} */
  let target = null;
  if (name === "waiting") target = $("start-button").hidden ? $("waiting-title") : $("start-button");
  else if (name === "table") target = /** @type {HTMLElement | null} */ (document.querySelector("#hand button.card")) || $("table-title");
  else if (name === "rules") target = $("rules-title");
  if (target) target.focus();
}

/** Shows a refusal over the page (it never moves the board). `game`: it refuses an action of
 * the game, which an open dialog covers: then it is not shown at all (behind the dialog, or
 * kept for after it, it would mislead). Any other (the chat's, which goes along into the
 * dialog) shows in the open dialog. @param {string} message */
export function showError(message, { game = false } = {}) {
  const dialog = /** @type {HTMLDialogElement} */ ($("dialog"));
  if (dialog.open && game) return;
  const banner = $("error-banner");
  const home = dialog.open ? dialog : $("main");
  if (banner.parentElement !== home) home.prepend(banner);
  banner.textContent = message;
  banner.hidden = false;
}

export function clearError() {
  $("error-banner").hidden = true;
  $("error-banner").textContent = "";
}

// --- the rules page ----------------------------------------------------------------------

/** The rules page, drawn in the page's language (rules.js and its examples load on first use:
 * the lobby's first load does without them). */
export function showRules() {
  return import("./rules.js").then(({ renderRules }) => renderRules());
}

/** Opens the rules page; its Back (or Esc) returns to the view and the control it came from. */
export function openRules() {
  const page = store.page;
  if (page.shown !== "rules") {
    page.beforeRules = page.shown;
    page.rulesOpener = document.activeElement;
  }
  showRules().then(() => {
    showView("rules", { focus: false });
    $("rules-title").focus();
  });
}

export function closeRules() {
  const page = store.page;
  if (page.shown !== "rules") return;
  const back = page.rulesOpener;
  showView(page.beforeRules, { focus: !(back && document.contains(back)) });
  if (back && document.contains(back) && !back.closest("[hidden]")) /** @type {HTMLElement} */ (back).focus();
  else focusView(page.shown);
}

// --- the replay viewer and the tutorial --------------------------------------------------

/** The replay viewer (replay.js: loaded at the first replay opened). */
function loadReplay() {
  const loading = store.loading;
  loading.replay ||= import("./replay.js").then(({ ReplayView }) => {
    const made = new ReplayView({
      onClose: () => {
        if (!/^\/replay\//.test(location.pathname)) {
          showView(store.game.table && store.game.view ? "table" : "lobby");
          return;
        }
        history.pushState({}, "", "/");  // a replay opened by its link: back to the lobby
        route();
      },
    });
    store.parts.replay = made;
    return made;
  }).catch((error) => {
    loading.replay = null;
    throw error;
  });
  return loading.replay;
}

/** The replay of a game, at `step` (a link to a moment: /replay/{id}?step=N).
 * @param {number | null} gameId */
export async function openReplay(gameId, step = 0) {
  try {
    showView("replay");
    await (await loadReplay()).load(gameId, names(), step);
    $("replay-next").focus();
  } catch (error) {
    if (/** @type {{status?: number}} */ (error).status === 404 && !store.game.table) {
      noSuchAddress("web.notice_no_replay");  // a replay link that names no game
      return;
    }
    showError(/** @type {Error} */ (error).message);
    showView(store.game.table ? "table" : "lobby");
  }
}

/** The lobby, saying that the address named nothing there (lobby.js), at the lobby's own
 * address. @param {string} key */
function noSuchAddress(key) {
  showNotice(key, { address: location.pathname });
  history.replaceState({}, "", "/");
  route({ keepNotice: true });
}

/** The tutorial (/learn), where this browser left it (tutorial.js, loaded only for it). */
async function openLearn() {
  showView("learn", { focus: false });
  const loading = store.loading;
  try {
    // One view, made once: a second open while the module loads waits for the same one.
    loading.learn ||= Promise.all([import("./tutorial.js"), loadPart("learn")]).then(([{ LearnView }]) => {
      const toLobby = () => {
        history.pushState({}, "", "/");
        route();
      };
      const made = new LearnView({ onPlay: toLobby, onLeave: toLobby });
      onLangChange(() => made.render());
      return made;
    }).catch((error) => {
      loading.learn = null;  // not loaded (offline): the next open tries again
      throw error;
    });
    await (await loading.learn).open();
  } catch (error) {
    showError(/** @type {Error} */ (error).message);
  }
}

// --- the address -------------------------------------------------------------------------

/** Shows what the address names: the tutorial, a replay, a table (its seat, else its invite),
 * the lobby; an address that names none of them says so on top of the lobby.
 * @param {{keepNotice?: boolean}} [options]  `keepNotice`: the notice just shown stays */
export function route({ keepNotice = false } = {}) {
  const { invite, lobby } = store.parts;
  if (!keepNotice) clearNotice();
  if (/^\/learn\/?$/.test(location.pathname)) {
    openLearn();
    return;
  }
  if (/^\/rules\/?$/.test(location.pathname)) {  // the leaderboard's link: Back goes to the lobby
    showView("lobby");
    openRules();
    return;
  }
  const replay = /^\/replay\/([^/]*)\/?$/.exec(location.pathname);
  if (replay) {
    if (!/^\d+$/.test(replay[1])) noSuchAddress("web.notice_no_replay");
    else openReplay(Number(replay[1]), Number(new URLSearchParams(location.search).get("step")) || 0);
    return;
  }
  const m = /^\/t\/([A-Za-z0-9]+)\/?$/.exec(location.pathname);
  if (m) {
    const code = codeFrom(m[1]);
    if (session.seatFor(code)) {
      enterTable(code);
      return;
    }
    showView("lobby");
    $("create-form").hidden = true;  // a join link: just a name and Join (or Watch)
    /** @type {HTMLInputElement} */ ($("join-code")).value = code;
    if (invite) invite.show(code);  // who invites, the rules, the seats; a started game: watch it
    (/** @type {HTMLInputElement} */ ($("player-name")).value ? $("join-button") : $("player-name")).focus();
    return;
  }
  if (!/^\/?$/.test(location.pathname)) {
    noSuchAddress("web.notice_no_page");
    return;
  }
  const table = tableLoaded();  // (a connection is made only by the table's modules)
  if (table && store.parts.conn) table.connection.leaveTable();
  if (invite) invite.hide();
  $("create-form").hidden = false;
  showView("lobby");
  if (lobby) lobby.refresh();
  if (store.parts.playNow) store.parts.playNow.render();  // rated once a game is finished
}

/** Draws the table on show (render.js `renderTable`); there is none before its modules load. */
function renderTable() {
  const table = tableLoaded();
  if (table) table.render.renderTable();
}

/** Everything on show again, in the page's language. */
export function rerender() {
  const { replay, invite, playNow, lobby } = store.parts;
  const shown = store.page.shown;
  if (shown === "rules") showRules();
  if (shown === "replay" && replay && replay.replay) replay.render();
  if (store.game.table) renderTable();
  if (shown === "lobby" && lobby) lobby.refresh();
  if (invite) invite.render();
  if (playNow) playNow.render();
  if (lobby) lobby.syncForm();  // the bots' level menus, in the new language
}

/** "Play": back to the table (or waiting room) if the page is at one, else the lobby. */
export function showPlay() {
  const { table } = store.game;
  if (store.page.shown === "learn") history.pushState({}, "", "/");  // out of the tutorial
  $("create-form").hidden = false;
  if (table) renderTable();
  else showView("lobby");
  if (table && store.page.shown === "rules") showView(table.status === "lobby" ? "waiting" : "table");
}
