// @ts-check
// The lobby's friends panel (docs/friends.md): this player's id to give to friends, a player
// asked to be a friend or followed by their id or page's link, the requests to answer, each
// friend and followed player with their presence (a dot and words; at a table, a link to
// watch it), a challenge for each friend (rule set, seats, bots, rated or not), and the
// setting that hides one's own presence.

import { t } from "./i18n.js";
import * as session from "./session.js";
import { rulesets, rulesName } from "./rulesets.js";
import { presenceShown, challengeBody, playerIdFrom, mayRedraw } from "./friends.js";
import { call, refusalText } from "./friendsapi.js";

/** @typedef {{player_id: string, name: string | null, presence?: import("./friends.js").Presence | null}} Person */
/** @typedef {{friends: Person[], following: Person[], requests_in: Person[], requests_out: Person[], hidden: boolean}} Overview */

/** An element with a class and text. @param {string} tag @param {string} [className] @param {string} [text] */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A button. @param {string} text @param {string} className @param {() => void} onClick */
function button(text, className, onClick) {
  const node = /** @type {HTMLButtonElement} */ (el("button", className, text));
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

export class FriendsPanel {
  /** @param {{enterTable: (code: string) => void, pulseSoon: () => void}} handlers */
  constructor({ enterTable, pulseSoon }) {
    this.enterTable = enterTable;
    this.pulseSoon = pulseSoon;
    /** @type {Overview | null} */
    this.overview = null;
    /** The friend whose challenge form is open. @type {string | null} */
    this.challenging = null;
    this.message = "";
    /** @type {Map<string, string>} */
    this.names = new Map();
    /** What the player typed in the "who" field, kept through redraws. */
    this.typed = "";
  }

  /** A player's name as last listed (else their id). @param {string} id */
  nameOf(id) {
    return this.names.get(id) || id;
  }

  /** Reads the overview again and draws it; `quiet` (a pulse's): only if a redraw would
   * lose nothing the player is doing (`mayRedraw`). @param {{quiet?: boolean}} [how] */
  async refresh({ quiet = false } = {}) {
    const panel = document.getElementById("friends-panel");
    const focusInside = Boolean(panel && panel.contains(document.activeElement) && document.activeElement !== document.body);
    if (quiet && !mayRedraw({ challenging: this.challenging, focusInside })) return;
    const answer = await call("GET", "");
    this.render(answer.ok ? answer.body : null);
  }

  /** @param {string} text */
  say(text) {
    this.message = text;
    const shown = document.getElementById("friends-message");
    if (shown) shown.textContent = text;
  }

  /** Runs a change, says how it went (`done`: its words), then reads the panel again.
   * @param {string} method @param {string} path @param {object} [body] @param {string} [done] */
  async change(method, path, body, done) {
    const answer = await call(method, path, body);
    const made = answer.ok && answer.body && answer.body.status === "friends" ? "friends.now_friends" : done;
    this.say(answer.ok ? (made ? t(made) : "") : refusalText(answer));
    await this.refresh();
    return answer;
  }

  /** Draws the panel; `null`: this player has no friends' features (a guest). @param {Overview | null} overview */
  render(overview) {
    const panel = document.getElementById("friends-panel");
    if (!panel) return;
    this.overview = overview;
    panel.hidden = false;
    const title = el("h3", "", t("friends.title"));
    title.id = "friends-title";
    panel.replaceChildren(title);
    if (!overview) {
      panel.append(el("p", "hint", t("friends.sign_in")));
      return;
    }
    for (const person of [...overview.friends, ...overview.following, ...overview.requests_in, ...overview.requests_out]) {
      if (person.name) this.names.set(person.player_id, person.name);
    }
    const id = el("p", "hint", t("friends.your_id", { id: session.playerId() || "" }));
    id.id = "friends-your-id";
    panel.append(id, this.addForm());
    const message = el("p", "account-message", this.message);
    message.id = "friends-message";
    message.setAttribute("role", "status");
    panel.append(message);
    this.section(panel, "friends.requests_in", overview.requests_in, (person) => [
      button(t("friends.accept"), "primary small", () => this.change("PUT", `/${person.player_id}`)),
      button(t("friends.decline"), "secondary small", () => this.change("DELETE", `/${person.player_id}`)),
    ]);
    this.section(panel, "friends.requests_out", overview.requests_out, (person) => [
      button(t("friends.withdraw"), "secondary small", () => this.change("DELETE", `/${person.player_id}`)),
    ]);
    this.section(panel, "friends.friends", overview.friends, (person) => [
      button(t("friends.challenge"), "primary small", () => {
        this.challenging = this.challenging === person.player_id ? null : person.player_id;
        this.render(this.overview);
      }),
      button(t("friends.remove"), "secondary small", () => this.change("DELETE", `/${person.player_id}`)),
    ]);
    if (!overview.friends.length) panel.append(el("p", "hint", t("friends.none")));
    this.section(panel, "friends.following", overview.following, (person) => [
      button(t("friends.unfollow"), "secondary small", () => this.change("DELETE", `/follows/${person.player_id}`)),
    ]);
    const hide = /** @type {HTMLInputElement} */ (el("input"));
    hide.type = "checkbox";
    hide.id = "friends-hide";
    hide.checked = overview.hidden;
    hide.addEventListener("change", () => this.change("PUT", "/presence", { hidden: hide.checked }));
    const label = el("label", "check");
    label.append(hide, el("span", "", t("friends.hide")));
    panel.append(label);
  }

  /** Who to ask or follow, by id or link. */
  addForm() {
    const form = el("form", "friends-add");
    form.setAttribute("autocomplete", "off");
    const input = /** @type {HTMLInputElement} */ (el("input"));
    input.id = "friends-add-id";
    input.setAttribute("aria-label", t("friends.add_label"));
    input.placeholder = t("friends.add_label");
    input.value = this.typed;
    input.addEventListener("input", () => { this.typed = input.value; });
    const target = () => {
      const id = playerIdFrom(input.value);
      if (!id) this.say(t("friends.err_no_player"));
      return id;
    };
    const ask = button(t("friends.ask"), "primary small", () => {
      const id = target();
      if (id) this.change("PUT", `/${id}`, undefined, "friends.asked");
    });
    ask.id = "friends-ask";
    const follow = button(t("friends.follow"), "secondary small", () => {
      const id = target();
      if (id) this.change("PUT", `/follows/${id}`, undefined, "friends.followed");
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      ask.click();
    });
    form.append(input, ask, follow);
    return form;
  }

  /** One list of players, each with presence where known and its buttons.
   * @param {HTMLElement} panel @param {string} key @param {Person[]} people
   * @param {(person: Person) => HTMLElement[]} buttons */
  section(panel, key, people, buttons) {
    if (!people.length) return;
    panel.append(el("h4", "", t(key)));
    const list = el("ul", "friends-list");
    list.dataset.list = key.split(".")[1];
    for (const person of people) {
      const item = el("li");
      item.dataset.player = person.player_id;
      const who = el("div", "who");
      const name = /** @type {HTMLAnchorElement} */ (el("a", "friend-name", person.name || person.player_id));
      name.href = `/leaderboard?player=${encodeURIComponent(person.player_id)}`;
      if (person.presence) {  // friends and followed players: where they are
        const shown = presenceShown(person.presence);
        const dot = el("span", `presence-dot ${shown.dot}`);
        dot.setAttribute("aria-hidden", "true");
        who.append(dot, name, el("span", "presence", t(shown.key, { code: shown.watch || "" })));
        if (shown.watch) {
          const code = shown.watch;
          const watch = /** @type {HTMLAnchorElement} */ (el("a", "watch", t("friends.watch")));
          watch.href = `/t/${code}`;
          watch.addEventListener("click", (event) => {
            event.preventDefault();
            this.enterTable(code);
          });
          who.append(watch);
        }
      } else {
        who.append(name);
      }
      const actions = el("div", "actions");
      actions.append(...buttons(person));
      item.append(who, actions);
      list.append(item);
      if (this.challenging === person.player_id) list.append(this.challengeForm(person));
    }
    panel.append(list);
  }

  /** The challenge to one friend: rule set, seats, the bots' level, rated.
   * @param {Person} person */
  challengeForm(person) {
    const form = el("form", "friends-challenge");
    form.id = "friends-challenge";
    const rules = /** @type {HTMLSelectElement} */ (el("select"));
    rules.name = "rules";
    for (const ruleset of rulesets()) {
      const option = /** @type {HTMLOptionElement} */ (el("option", "", rulesName(ruleset.name)));
      option.value = ruleset.name;
      rules.append(option);
    }
    const seats = /** @type {HTMLSelectElement} */ (el("select"));
    seats.name = "seats";
    for (const count of [2, 3, 4]) {
      const option = /** @type {HTMLOptionElement} */ (el("option", "", String(count)));
      option.value = String(count);
      seats.append(option);
    }
    const level = /** @type {HTMLSelectElement} */ (el("select"));
    level.name = "level";
    const levels = () => {
      const found = rulesets().find((r) => r.name === rules.value);
      level.replaceChildren(...(found ? found.levels : []).map((name) => {
        const option = /** @type {HTMLOptionElement} */ (el("option", "", t(`web.level_${name}`)));
        option.value = name;
        return option;
      }));
    };
    levels();
    rules.addEventListener("change", levels);
    const rated = /** @type {HTMLInputElement} */ (el("input"));
    rated.type = "checkbox";
    rated.name = "rated";
    /** @param {string} key @param {HTMLElement} control */
    const labelled = (key, control) => {
      const label = el("label");
      label.append(el("span", "", t(key)), control);
      return label;
    };
    const send = /** @type {HTMLButtonElement} */ (el("button", "primary small", t("friends.send")));
    send.type = "submit";
    form.append(
      labelled("friends.rules", rules), labelled("friends.seats", seats),
      labelled("friends.bots", level), labelled("friends.rated", rated), send,
      button(t("friends.cancel"), "secondary small", () => {
        this.challenging = null;
        this.render(this.overview);
      }),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = challengeBody({
        to: person.player_id, name: session.name() || t("friends.default_name"), rules: rules.value,
        seats: Number(seats.value), level: level.value, rated: rated.checked,
      });
      if (!body) return;
      const answer = await call("POST", "/challenges", body);
      this.challenging = null;
      this.say(answer.ok ? t("friends.sent", { name: person.name || person.player_id }) : refusalText(answer));
      this.render(this.overview);
      if (answer.ok) this.pulseSoon();
    });
    return form;
  }
}
