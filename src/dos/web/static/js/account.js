// @ts-check
// "Your player" (docs/accounts.md): keep the player of this browser on any device with a
// passkey or a recovery code, sign in as that player elsewhere, sign out. None of it is needed
// to play: a guest who does none of it plays on as a guest, asked nothing.
//
// WebAuthn's ceremonies are passkeys.js's, loaded at the first one. Where the browser has no
// WebAuthn (or the page is not on the server's passkey domain) the passkey parts are hidden,
// and a recovery code still works.

import { t, formatDate } from "./i18n.js";
import { errorText, codeOf } from "./errors.js";
import * as session from "./session.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** Whether this browser can make and use passkeys here. */
export function passkeysSupported() {
  return Boolean(window.isSecureContext && window.PublicKeyCredential && navigator.credentials
    && typeof navigator.credentials.create === "function"
    && typeof navigator.credentials.get === "function");
}

/** A refusal of the server, in the player's words, with its code and status. */
class AccountError extends Error {
  /** @param {string} message @param {string | null} [code] @param {number} [status] */
  constructor(message, code = null, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** @param {string} method @param {string} path
 * @param {{body?: unknown, token?: string | null}} [options] */
async function call(method, path, { body, token } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new AccountError(t("web.error_generic"));
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const code = codeOf(data);
    throw new AccountError(errorText({ code, status: response.status }), code, response.status);
  }
  return data;
}

/** @param {string} tag
 * @param {{id?: string, className?: string, text?: string, attrs?: Record<string, string>}} [options] */
function element(tag, { id, className, text, attrs } = {}) {
  const node = document.createElement(tag);
  if (id) node.id = id;
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  return node;
}

/** @param {string} id @param {string} text @param {string} className @param {() => void} onClick */
function button(id, text, className, onClick) {
  const node = element("button", { id, className, text, attrs: { type: "button" } });
  node.addEventListener("click", onClick);
  return node;
}

/** Whether the lobby, where this panel is, is on show: the ratings are asked for then only
 * (a game's end is on another view). */
const lobbyShown = () => !$("view-lobby").hidden;

/** @param {import("./view").Account} account @returns {import("./view").AccountState} */
const stateOf = (account) => ({ kind: account.registered ? "registered" : "guest", account });

/** The "Your player" panel of the lobby. Its `data-state` says what it shows (`anonymous`:
 * no player in this browser; `guest`; `registered`) and `data-player` whose it is. */
export class AccountPanel {
  constructor() {
    this.root = $("account-panel");
    this.body = $("account-body");
    this.message = $("account-message");
    /** @type {import("./view").AccountState | null} */
    this.state = null;
    this.rpId = null;
    this.code = null;  // a recovery code just made: {player, code}, shown this once
    this.busy = false;
    this.seq = 0;  // the newest rendering wins over a slower answer
    /** @type {import("./view").Rating[] | null} the player's ratings (null: not asked) */
    this.ratings = null;
    /** @type {typeof import("./myratings.js") | null} the module that asks and draws them */
    this.ratingView = null;
    session.onChange(() => this.refresh());
  }

  async start() {
    try {
      this.rpId = (await call("GET", "/api/account/relying-party")).id;
    } catch {
      this.rpId = null;  // passkeys stay hidden; a recovery code still works
    }
    await this.refresh();
  }

  /** Whether passkeys work on this page: the browser has WebAuthn, and the page is on the
   * domain the server's passkeys are for. */
  passkeysHere() {
    const host = location.hostname;
    return passkeysSupported() && Boolean(this.rpId)
      && (host === this.rpId || host.endsWith(`.${this.rpId}`));
  }

  async refresh() {
    const mine = ++this.seq;
    const token = session.playerToken();
    if (!token) {
      this.show({ kind: "anonymous" });
      return;
    }
    try {
      const account = await call("GET", "/api/account", { token });
      if (mine !== this.seq) return;
      session.renewToken(account.player_token);
      const ratings = lobbyShown() ? await this.ratingsOf(account.player_id) : null;
      if (mine !== this.seq) return;
      this.ratings = ratings;
      this.show(stateOf(account));
    } catch (error) {
      if (mine !== this.seq) return;
      if (/** @type {{code?: string, status?: number}} */ (error).status === 401) this.show({ kind: "anonymous" });  // expired or signed out
      else this.say(/** @type {Error} */ (error).message, true);
    }
  }

  /** The lobby shows again (lobby.js): the player's ratings as they are now (a game may
   * have ended since). */
  async refreshRatings() {
    const account = this.state && this.state.account;
    if (!account) return;
    const mine = this.seq;
    const ratings = await this.ratingsOf(account.player_id);
    if (mine !== this.seq || JSON.stringify(ratings) === JSON.stringify(this.ratings)) return;
    this.ratings = ratings;
    this.render();
  }

  /** The player's ratings, provisional ones too (myratings.js, loaded at the first player
   * this panel shows: a first visit has none). @param {string} playerId */
  async ratingsOf(playerId) {
    this.ratingView ||= await import("./myratings.js");
    return this.ratingView.ratingsOf(playerId);
  }

  /** The ratings' part of the panel, once asked for. @param {import("./view").Account} account */
  ratingParts(account) {
    return this.ratingView && this.ratings ? this.ratingView.ratingParts(this.ratings, account.player_id) : [];
  }

  /** @param {import("./view").AccountState} state */
  show(state) {
    this.seq++;
    this.state = state;
    this.render();
  }

  /** @param {string} text */
  say(text, error = false) {
    this.message.textContent = text;
    this.message.classList.toggle("account-error", error);
  }

  render() {
    if (!this.state) return;
    const { kind, account } = this.state;
    this.root.dataset.state = kind;
    this.root.dataset.player = account ? account.player_id : "";
    const focused = document.activeElement && this.body.contains(document.activeElement) ? document.activeElement.id : null;
    const passkeys = this.passkeysHere();
    const parts = [];
    if (kind === "anonymous") {
      parts.push(element("p", { text: t("web.account_intro") }), ...this.signInParts(passkeys, true));
    } else if (kind === "guest") {
      parts.push(element("p", { text: t("web.account_guest") }));
      const actions = element("div", { className: "account-actions" });
      if (passkeys) {
        actions.append(button("account-keep", t("web.account_keep"), "primary", () => this.register()));
      }
      actions.append(button("account-recovery-new", t("web.account_recovery_get"), "secondary",
        () => this.newRecovery()));
      parts.push(actions, ...this.codeParts(), ...this.ratingParts(account));
      const other = element("details", { className: "account-other" });
      other.append(element("summary", { text: t("web.account_other_player") }),
        ...this.signInParts(passkeys, false));
      parts.push(other);
    } else {
      parts.push(element("p", { text: t("web.account_registered") }), ...this.ratingParts(account),
        ...this.passkeyParts(account, passkeys));
      parts.push(element("p", { text: t(account.recovery ? "web.account_recovery_yes" : "web.account_recovery_no") }));
      parts.push(button("account-recovery-new", t("web.account_recovery_new"), "secondary",
        () => this.newRecovery()), ...this.codeParts());
      parts.push(element("div", { className: "account-actions" }));
      parts[parts.length - 1].append(button("account-sign-out", t("web.account_sign_out"), "secondary",
        () => this.signOut()));
    }
    if (!passkeysSupported()) parts.push(element("p", { className: "hint", text: t("web.account_no_passkeys_here") }));
    else if (!passkeys && this.rpId) {
      parts.push(element("p", { className: "hint", text: t("web.account_passkeys_elsewhere", { host: this.rpId }) }));
    }
    this.body.replaceChildren(...parts);
    if (focused) (document.getElementById(focused) || $("account-title")).focus();
  }

  /** A passkey sign-in and a recovery code form (folded away under the passkey button where
   * `fold`: the code is the way back for those without one). @param {boolean} passkeys @param {boolean} fold */
  signInParts(passkeys, fold) {
    const parts = [];
    if (passkeys) {
      parts.push(button("account-sign-in", t("web.account_sign_in"), "primary", () => this.signIn()));
    }
    const form = element("form", { id: "account-recovery-form", className: "account-recovery" });
    form.setAttribute("autocomplete", "off");
    const label = element("label", { attrs: { for: "account-recovery-code" } });
    label.append(element("span", { text: t("web.account_recovery_label") }));
    const input = element("input", {
      id: "account-recovery-code",
      attrs: { maxlength: "64", autocapitalize: "characters", spellcheck: "false", autocomplete: "off" },
    });
    label.append(input);
    const submit = element("button", { id: "account-recovery-sign-in", className: "secondary",
      text: t("web.account_recovery_sign_in"), attrs: { type: "submit" } });
    form.append(label, submit);
    const field = /** @type {HTMLInputElement} */ (input);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!field.value.trim()) field.focus();
      else this.recover(field.value);
    });
    if (passkeys && fold) {
      const folded = element("details", { className: "account-code-sign-in" });
      folded.append(element("summary", { text: t("web.account_use_code") }), form);
      parts.push(folded);
    } else {
      parts.push(form);
    }
    return parts;
  }

  /** @param {import("./view").Account} account @param {boolean} passkeys */
  passkeyParts(account, passkeys) {
    const parts = [element("h4", { text: t("web.account_passkeys") })];
    /** @param {number} seconds */
    const date = (seconds) => formatDate(new Date(seconds * 1000));
    if (!account.passkeys.length) parts.push(element("p", { text: t("web.account_no_passkeys") }));
    const list = element("ul", { id: "account-passkeys", className: "account-passkeys" });
    for (const passkey of account.passkeys) {
      const words = [t("web.account_passkey_added", { date: date(passkey.created_at) })];
      if (passkey.used_at) words.push(t("web.account_passkey_used", { date: date(passkey.used_at) }));
      if (passkey.backed_up) words.push(t("web.account_passkey_synced"));
      const li = element("li");
      li.dataset.passkey = passkey.id;
      const remove = button("", t("web.account_remove"), "secondary", () => this.remove(passkey.id));
      remove.setAttribute("aria-label", t("web.account_remove_label", { date: date(passkey.created_at) }));
      li.append(element("span", { text: words.join(" · ") }), remove);
      list.append(li);
    }
    if (account.passkeys.length) parts.push(list);
    if (passkeys) {
      parts.push(button("account-add-passkey", t("web.account_add_passkey"), "secondary", () => this.register()));
    }
    return parts;
  }

  codeParts() {
    const player = this.state && this.state.account && this.state.account.player_id;
    if (!this.code || this.code.player !== player) return [];
    const box = element("div", { id: "account-code-box", className: "recovery-code" });
    box.append(element("p", { text: t("web.account_recovery_shown") }));
    const line = element("p");
    line.append(element("code", { id: "recovery-code", text: this.code.code }), " ",
      button("account-copy", t("web.copy"), "secondary", () => this.copy()));
    box.append(line);
    return [box];
  }

  /** One action at a time; a refusal shows in the panel, in the player's words.
   * @param {() => Promise<void>} action */
  async run(action) {
    if (this.busy) return;
    this.busy = true;
    this.root.setAttribute("aria-busy", "true");
    this.say("");
    try {
      await action();
    } catch (error) {
      this.say(error instanceof AccountError ? /** @type {Error} */ (error).message : this.webauthnText(error), true);
    } finally {
      this.busy = false;
      this.root.removeAttribute("aria-busy");
    }
  }

  /** Words for what navigator.credentials threw (anything). @param {any} error */
  webauthnText(error) {
    const name = error && error.name;
    if (name === "InvalidStateError") return t("web.account_exists");
    if (name === "NotAllowedError" || name === "AbortError") return t("web.account_cancelled");
    if (name === "SecurityError") return t("web.account_passkeys_elsewhere", { host: this.rpId || "" });
    return t("web.error_generic");
  }

  register() {
    return this.run(async () => {
      const token = session.playerToken();
      const name = session.name();
      let begun;
      try {
        begun = await call("POST", "/api/account/passkeys/begin", { token, body: name ? { name } : {} });
      } catch (error) {
        if (/** @type {{code?: string, status?: number}} */ (error).code !== "bad_name") throw error;
        begun = await call("POST", "/api/account/passkeys/begin", { token, body: {} });
      }
      const { create } = await import("./passkeys.js");
      const credential = await create(begun.options);
      if (!credential) throw new AccountError(t("web.account_cancelled"));
      const account = await call("POST", "/api/account/passkeys/finish", {
        token,
        body: { ceremony: begun.ceremony, credential },
      });
      session.renewToken(account.player_token);
      this.show(stateOf(account));
      this.say(t("web.account_kept"));
    });
  }

  signIn() {
    return this.run(async () => {
      const begun = await call("POST", "/api/account/sign-in/begin");
      const { get } = await import("./passkeys.js");
      const credential = await get(begun.options);
      if (!credential) throw new AccountError(t("web.account_cancelled"));
      const result = await call("POST", "/api/account/sign-in/finish", {
        body: { ceremony: begun.ceremony, credential },
      });
      this.signedIn(result, false);
    });
  }

  /** @param {string} code */
  recover(code) {
    return this.run(async () => {
      const result = await call("POST", "/api/account/sign-in/recovery", { body: { code } });
      this.signedIn(result, true);
    });
  }

  /** @param {import("./view").SignedIn} result @param {boolean} byCode */
  signedIn(result, byCode) {
    this.code = null;
    session.signIn(result);
    if (result.name) {
      session.setName(result.name);
      if ($("player-name")) $field("player-name").value = result.name;
    }
    this.show(stateOf(result.account));
    const used = byCode && !result.account.recovery ? ` ${t("web.account_recovery_used")}` : "";
    this.say(t("web.account_signed_in") + used);
  }

  newRecovery() {
    return this.run(async () => {
      const made = await call("POST", "/api/account/recovery", { token: session.playerToken() });
      session.renewToken(made.account.player_token);
      this.code = { player: made.account.player_id, code: made.code };
      this.show(stateOf(made.account));
      $("account-copy").focus();
    });
  }

  /** @param {string} id */
  remove(id) {
    return this.run(async () => {
      const path = `/api/account/passkeys/${encodeURIComponent(id)}`;
      const account = await call("DELETE", path, { token: session.playerToken() });
      this.show(stateOf(account));
    });
  }

  signOut() {
    return this.run(async () => {
      try {
        await call("POST", "/api/account/sign-out", { token: session.playerToken() });
      } catch (error) {
        if (/** @type {{code?: string, status?: number}} */ (error).status !== 401) throw error;  // a token refused already is signed out
      }
      this.code = null;
      session.signOut();
      if ($("player-name")) $field("player-name").value = "";
      this.show({ kind: "anonymous" });
      this.say(t("web.account_signed_out"));
    });
  }

  async copy() {
    if (!this.code) return;
    try {
      await navigator.clipboard.writeText(this.code.code);
      this.say(t("web.account_copied"));
    } catch {
      this.say(t("web.account_copy_failed"), true);
    }
  }
}
