// @ts-check
// Friends on every page of the site (docs/friends.md), loaded once this browser holds a
// player: the pulse says where the page is (the player's presence) and brings back the
// challenges to them and the answers to theirs, every `poll_ms` the server asks (and at once
// when the page comes back into view); an invitation shows as a toast wherever the player
// is, whose Play seats them at the new table; the challenger is taken to it as soon as it is
// accepted, or told it was declined or expired. The lobby's panel is friendspanel.js; a
// player's page offers to befriend or follow them (friendsplayer.js).

import { t, loadPart, onLangChange } from "./i18n.js";
import * as session from "./session.js";
import { store } from "./store.js";
import { rulesName } from "./rulesets.js";
import { whereFrom, newInvitations, news, newsKey, panelShows } from "./friends.js";
import { call, refusalText } from "./friendsapi.js";
import { FriendsPanel } from "./friendspanel.js";
import { playerActions } from "./friendsplayer.js";

/** @typedef {import("./friends.js").ChallengeInfo} ChallengeInfo */

const FIRST_PULSE_MS = 4000;

/** The friends' styles, added to the page once. */
function addStyles() {
  if (document.getElementById("friends-css")) return;
  const link = document.createElement("link");
  link.id = "friends-css";
  link.rel = "stylesheet";
  link.href = "/static/css/friends.css";
  document.head.append(link);
}

/** The toasts' box, made once, at the end of the page's body. */
function toastBox() {
  let box = document.getElementById("friends-toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "friends-toasts";
    box.className = "friends-toasts";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    document.body.append(box);
  }
  return box;
}

class Friends {
  /** @param {{enterTable: (code: string) => void, showError: (message: string) => void}} page */
  constructor(page) {
    this.page = page;
    /** Invitations shown (their ids), answers told (`id:status`). */
    this.shown = new Set();
    this.told = new Set();
    /** @type {ChallengeInfo[]} the invitations open now */
    this.open = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.member = true;
    this.panel = new FriendsPanel({
      enterTable: page.enterTable,
      pulseSoon: () => this.pulse(),
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.pulse();
    });
    onLangChange(() => {  // the friends' words come with the new language's catalog (i18n.js)
      this.renderToasts();
      if (this.panel.overview) this.panel.render(this.panel.overview);
    });
  }

  /** The player changed (signed in, out, another's token): pulse as them. */
  restart() {
    this.member = true;
    this.shown.clear();
    this.open = [];
    this.renderToasts();
    this.pulse();
  }

  /** One pulse now, and the next after the server's `poll_ms`. */
  async pulse() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (panelShows({ token: session.playerToken(), member: this.member }) === "sign_in") {
      this.panel.render(null);
      return;
    }
    const answer = await call("POST", "/pulse", whereFrom(store.game));
    if (answer.code === "sign_in_needed" || answer.status === 401) {
      this.member = false;  // a guest: the panel says to sign in; a sign-in restarts
      this.panel.render(null);
      return;
    }
    let wait = FIRST_PULSE_MS;
    if (answer.ok) {
      wait = answer.body.poll_ms;
      this.receive(answer.body);
      if (store.page.shown === "lobby") await this.panel.refresh({ quiet: true });
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pulse(), wait);
  }

  /** @param {{challenges: ChallengeInfo[], outcomes: import("./friends.js").Outcome[]}} inbox */
  receive(inbox) {
    for (const challenge of newInvitations(inbox.challenges, this.shown)) this.shown.add(challenge.id);
    this.open = inbox.challenges.filter((c) => c.status === "open");
    this.renderToasts();
    for (const outcome of news(inbox.outcomes, this.told)) {
      const { challenge, landing } = outcome;
      this.told.add(`${challenge.id}:${challenge.status}`);
      if (challenge.status === "accepted" && landing) {
        session.saveGrant({
          ...landing, player_id: /** @type {string} */ (session.playerId()),
          player_token: /** @type {string} */ (session.playerToken()),
          table: /** @type {any} */ (null),
        });
        this.page.enterTable(landing.code);
      }
      this.note(t(newsKey(challenge.status), { name: this.panel.nameOf(challenge.challenged) }));
    }
  }

  /** A short note among the toasts, closed by its button. @param {string} text */
  note(text) {
    const item = document.createElement("div");
    item.className = "friends-toast note";
    const words = document.createElement("span");
    words.textContent = text;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "secondary small";
    close.textContent = t("friends.close");
    close.addEventListener("click", () => item.remove());
    item.append(words, close);
    toastBox().append(item);
  }

  /** The invitations open now, each with Play and Decline. */
  renderToasts() {
    const box = toastBox();
    for (const old of box.querySelectorAll(".invitation")) old.remove();
    for (const challenge of this.open) {
      const item = document.createElement("div");
      item.className = "friends-toast invitation";
      item.dataset.challenge = challenge.id;
      const words = document.createElement("span");
      const kind = challenge.rated ? t("friends.rated_kind") : t("friends.casual");
      words.textContent = t("friends.invitation", {
        name: challenge.name, rules: rulesName(challenge.rules), seats: challenge.bots.length + 2, kind,
      });
      const play = document.createElement("button");
      play.type = "button";
      play.className = "primary";
      play.textContent = t("friends.play");
      play.addEventListener("click", () => this.accept(challenge));
      const decline = document.createElement("button");
      decline.type = "button";
      decline.className = "secondary";
      decline.textContent = t("friends.decline");
      decline.addEventListener("click", () => this.decline(challenge));
      item.append(words, play, decline);
      box.prepend(item);
    }
  }

  /** @param {ChallengeInfo} challenge */
  async accept(challenge) {
    const name = session.name() || t("friends.default_name");
    const answer = await call("POST", `/challenges/${encodeURIComponent(challenge.id)}/accept`, { name });
    this.open = this.open.filter((c) => c.id !== challenge.id);
    this.renderToasts();
    if (!answer.ok) {
      this.page.showError(refusalText(answer));
      return;
    }
    session.saveGrant(answer.body);
    this.page.enterTable(answer.body.code);
  }

  /** @param {ChallengeInfo} challenge */
  async decline(challenge) {
    this.open = this.open.filter((c) => c.id !== challenge.id);
    this.renderToasts();
    const answer = await call("POST", `/challenges/${encodeURIComponent(challenge.id)}/decline`);
    if (!answer.ok && answer.code !== "no_challenge") this.page.showError(refusalText(answer));
  }
}

/** @type {Promise<Friends> | null} */
let made = null;

/** Starts friends on this page (once; again for another player: a restart).
 * @param {{enterTable: (code: string) => void, showError: (message: string) => void}} page */
export async function start(page) {
  if (made) {
    (await made).restart();
    return;
  }
  addStyles();
  made = loadPart("friends").then(() => new Friends(page));
  (await made).pulse();
  playerActions();  // on a player's page
}
