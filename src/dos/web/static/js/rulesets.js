// @ts-check
// The rule sets the page offers: GET /api/info lists them with their capabilities (levels,
// hints, reviews, rated play, a target score...), in the server's order of registration, and
// CLIENTS maps a rule set to the client written for it: its option fields at once, its table,
// words and cards when its first table or replay opens. This map is the only place the client
// names a rule set. One the server lists and the
// map lacks is played with the generic client (generic.js): its view as a list of fields, its
// legal actions as buttons.

import { store } from "./store.js";
import { t, has } from "./i18n.js";

/** @typedef {import("./view").RulesClient} RulesClient */
/** @typedef {import("./view").RulesetInfo} RulesetInfo */

/** The rule sets with a client of their own, each loaded at first use.
 * @type {Record<string, () => Promise<{default: RulesClient}>>} */
const CLIENTS = {
  official: () => import("./official.js"),
  classic: () => import("./classic.js"),
};

/** The server's offer (GET /api/info), asked once. @returns {Promise<import("./view").Info>} */
export function loadInfo() {
  store.infoLoading ||= fetch("/api/info").then((response) => {
    if (!response.ok) throw new Error(t("web.error_generic"));
    return response.json();
  }).then((info) => {
    store.info = info;
    return info;
  }).catch((error) => {
    store.infoLoading = null;  // not answered (offline): the next call asks again
    throw error;
  });
  return store.infoLoading;
}

/** The rule sets the server offers, in its order (none before `loadInfo` answered). */
export function rulesets() {
  return store.info ? store.info.rulesets : [];
}

/** What the server says of rule set `name`, or null. @param {string} name */
export function rulesetOf(name) {
  return rulesets().find((r) => r.name === name) || null;
}

/** A capability of rule set `name` (false while unknown).
 * @param {string} name @param {"hints" | "reviews" | "rated" | "reaction" | "target_score" | "dos_race"} capability */
export function can(name, capability) {
  const ruleset = rulesetOf(name);
  return Boolean(ruleset && ruleset[capability]);
}

/** Rule set `name`'s bot levels, easiest first (none while unknown). @param {string} name */
export function levelsOf(name) {
  const ruleset = rulesetOf(name);
  return ruleset ? ruleset.levels : [];
}

/** A rule set's name in the page's language; one the catalog does not name (a server's own)
 * by its own name. @param {string} name */
export function rulesName(name) {
  return has(`web.rules_${name}`) ? t(`web.rules_${name}`) : name;
}

/** The client of rule set `name` (its own, else the generic one), loaded once.
 * @param {string} name @returns {Promise<RulesClient>} */
export async function clientFor(name) {
  const known = store.tables.clients[name];
  if (known) return known;
  const load = Object.hasOwn(CLIENTS, name) ? CLIENTS[name] : () => import("./generic.js");
  const client = (await load()).default;
  store.tables.clients[name] = client;
  return client;
}

/** The client of rule set `name` if it is loaded already, else null. @param {string} name */
export function loadedClient(name) {
  return store.tables.clients[name] || null;
}

/** The table client of rule set `name` (its table, words and cards), loaded once.
 * @param {string} name @returns {Promise<import("./view").TableClient>} */
export async function tableClientFor(name) {
  const known = store.tables.tableClients[name];
  if (known) return known;
  const client = await (await clientFor(name)).table();
  store.tables.tableClients[name] = client;
  return client;
}

/** The table client of rule set `name` if it is loaded already, else null. @param {string} name */
export function loadedTableClient(name) {
  return store.tables.tableClients[name] || null;
}
