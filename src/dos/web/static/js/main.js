// @ts-check
// The page's start: the language, the page's parts made once (lobby, invite, Play now, chat,
// the pause, the account panel) and kept in the store, the buttons and keys of the page's
// chrome, then what the address names. The page itself is made of: store.js (its state),
// dispatch.js (the table's messages), connection.js, render.js, views.js, gamelog.js (the
// table's, loaded at its first opening: tableload.js), and the rule sets' clients (rulesets.js).

import { t, setLang, preferredLang, onLangChange, LANGS, LANG_NAMES, lang, loadPart } from "./i18n.js";
import { store } from "./store.js";
import { Lobby, codeFrom, renderNotice } from "./lobby.js";
import { isOpen } from "./dialog.js";
import { PlayNow } from "./playnow.js";
import { Pause } from "./pause.js";
import * as sound from "./sound.js";
import { Chat } from "./chat.js";
import { bindNotifyButton } from "./attention.js";
import { AccountPanel } from "./account.js";
import { Invite } from "./invite.js";
import { TutorialOffer } from "./newcomer.js";
import { rulesets, rulesName } from "./rulesets.js";
import { followMenu } from "./menuedge.js";
import { enterTable, loadTable, tableLoaded, names } from "./tableload.js";
import * as session from "./session.js";
import { panelShows } from "./friends.js";
import {
  showError, clearError, openRules, closeRules, openReplay, route, rerender, showPlay, showView,
} from "./views.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The language menu; the page's words follow the language chosen. */
async function startLanguage() {
  const select = /** @type {HTMLSelectElement} */ ($("lang-select"));
  for (const code of LANGS) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = LANG_NAMES[code];
    select.append(option);
  }
  await setLang(preferredLang());
  select.value = lang();
  select.setAttribute("aria-label", t("web.language"));
  select.addEventListener("change", () => setLang(select.value));
  onLangChange(() => {
    select.setAttribute("aria-label", t("web.language"));
    rerender();
  });
  onLangChange(renderNotice);
  onLangChange(sound.bindToggle($("sound-toggle"), () => t("web.sound")));
  onLangChange(bindNotifyButton($("notify-toggle"), () => t("web.notify")));
}

/** The page's parts, made once and kept in the store. */
async function makeParts() {
  const parts = store.parts;
  parts.pause = new Pause();
  const chat = new Chat({
    send: (message) => {
      const table = tableLoaded();
      if (table && table.connection.send(message)) return true;
      showError(t("web.error_offline"));
      return false;
    },
    names: () => names(),
    me: () => ({ seat: store.game.seat, host: store.game.table ? store.game.table.host : null, code: store.game.code }),
  });
  parts.chat = chat;
  onLangChange(() => {
    chat.renderReactions();
    chat.render();
  });
  const account = new AccountPanel();  // "Your player": passkeys, recovery code, sign in/out
  const invite = new Invite({ onWatch: (code) => enterTable(code) });
  parts.invite = invite;
  const lobby = new Lobby({
    onSeated: (grant) => {
      clearError();
      enterTable(grant.code);
    },
    onError: showError,
    onStarted: (code) => invite.refused(code),  // a join too late: say so, offer to watch
    onBack: (code) => {
      clearError();
      enterTable(code);
    },
    onShown: () => account.refreshRatings(),  // a game may have ended: its rating
  });
  parts.lobby = lobby;
  const playNow = new PlayNow({
    onSeated: (grant, { start }) => {
      clearError();
      store.game = { ...store.game, autostart: start ? grant.code : null };
      enterTable(grant.code);
    },
    onError: showError,
  });
  parts.playNow = playNow;
  const offer = new TutorialOffer();  // the tutorial, offered to who has never played
  offer.render();
  onLangChange(() => offer.render());
  onLangChange(() => account.render());
  account.start();
  // The rule sets the server offers: the lobby's menu, Play now's rule set (its first with bots).
  await lobby.loadInfo();
  playNow.setRuleset(rulesets().find((ruleset) => ruleset.levels.length) || null);
  bindPlayPeople();
}

/** Play people's form: its rule sets (the server's, in its order), and its module
 * (playpeople.js) loaded at the first search, so that the first visit does not carry it. */
function bindPlayPeople() {
  const select = /** @type {HTMLSelectElement} */ ($("play-people-rules"));
  const fill = () => {
    const wanted = select.value;
    select.replaceChildren(...rulesets().map((ruleset) => new Option(rulesName(ruleset.name), ruleset.name)));
    if (wanted) select.value = wanted;
  };
  fill();
  onLangChange(fill);
  /** @type {Promise<import("./playpeople.js").PlayPeople> | null} */
  let made = null;
  $("play-people-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    made ||= import("./playpeople.js").then(({ PlayPeople }) => new PlayPeople({
      onSeated: (grant, { start }) => {
        clearError();
        store.game = { ...store.game, autostart: start ? grant.code : null };
        enterTable(grant.code);
      },
      onError: showError,
    }));
    (await made).join();
  });
}

/** The buttons and keys of the page's chrome (those of a table work once it is opened). */
function bindChrome() {
  const game = () => store.game;
  /** @param {import("./protocol").ClientMessage} message */
  const send = (message) => {
    const table = tableLoaded();
    if (table) table.connection.send(message);
  };
  const leaveSeat = () => {
    const table = tableLoaded();
    if (table) table.connection.leaveSeat();
  };
  $("watch-button").addEventListener("click", () => {
    const code = codeFrom(/** @type {HTMLInputElement} */ ($("join-code")).value);
    if (code) enterTable(code);
    else $("join-code").focus();
  });
  $("start-button").addEventListener("click", () => send({ type: "start" }));
  $("leave-button").addEventListener("click", leaveSeat);
  $("leave-table").addEventListener("click", leaveSeat);
  $("btn-rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("btn-replay").addEventListener("click", () => openReplay(game().table && /** @type {import("./protocol").TableInfo} */ (game().table).game_id));
  $("btn-lobby").addEventListener("click", leaveSeat);
  $("back-button").addEventListener("click", () => send({ type: "back" }));
  $("copy-link").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(/** @type {HTMLAnchorElement} */ ($("invite-link")).href));
  $("nav-rules").addEventListener("click", openRules);
  $("rules-close").addEventListener("click", closeRules);
  $("nav-play").addEventListener("click", showPlay);
  $("home-link").addEventListener("click", (event) => {
    event.preventDefault();
    if (!game().table) showView("lobby");
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && store.page.shown === "rules" && !isOpen()) {
      event.preventDefault();
      closeRules();
      return;
    }
    if (event.key === "?" && !(event.target instanceof Element ? event.target : document.body).closest("input, select, textarea")) $("nav-rules").click();
  });
  window.addEventListener("popstate", () => route());
}

/** The Friends panel of a browser that holds no player: its title, and that friends come with
 * signing in (in the page's language; friendspanel.js draws it for a guest's token). */
async function showFriendsSignIn() {
  await loadPart("friends");
  if (session.playerToken()) return;  // a player came meanwhile: friendsboot.js draws the panel
  const title = document.createElement("h3");
  title.id = "friends-title";
  title.textContent = t("friends.title");
  const line = document.createElement("p");
  line.className = "hint";
  line.textContent = t("friends.sign_in");
  const panel = $("friends-panel");
  panel.replaceChildren(title, line);
  panel.hidden = false;
}

async function boot() {
  // An address naming a table opens it: its modules load meanwhile.
  if (/^\/t\//.test(location.pathname)) loadTable().catch(() => {});  // (enterTable says so)
  await startLanguage();
  await makeParts();
  bindChrome();
  followMenu();
  route();
  // Friends (friendsboot.js): loaded only where this browser holds a player, so that a first
  // visit never pays for them; where it holds none, the panel says that friends come with
  // signing in.
  const friends = () => {
    const token = session.playerToken();
    if (token) import("./friendsboot.js").then((m) => m.start({ enterTable, showError }));
    if (panelShows({ token, member: Boolean(token) }) === "sign_in") showFriendsSignIn();
  };
  session.onChange(friends);
  onLangChange(() => {
    if (!session.playerToken()) showFriendsSignIn();
  });
  friends();
  // The admins' warnings (moderation.js).
  if (session.playerToken()) import("./moderation.js").then((m) => m.showWarnings());
  document.body.dataset.ready = "true";
}

boot().catch((error) => showError(String(error && error.message ? error.message : error)));
