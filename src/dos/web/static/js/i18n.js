// @ts-check
// The page's words, from the shared message catalog (GET /api/i18n/{lang}: {"ns.key": text}).
// Every text on the page comes from here; English fills any key a language lacks. A counted
// text has one entry per plural category of its language (`key#one`, `key#few`, ...: CLDR's,
// as Intl.PluralRules names them; Welsh has six, Japanese one), and `tn` picks the form.

export const LANGS = ["en", "fr", "de", "it", "nl", "cy", "ja"];
/** @type {Record<string, string>} */
export const LANG_NAMES = {
  en: "English", fr: "Français", de: "Deutsch", it: "Italiano",
  nl: "Nederlands", cy: "Cymraeg", ja: "日本語",
};

import { store } from "./store.js";

// What this module keeps (the store's `i18n`): the language, its texts and English's beneath
// them, who listens to a change of language, the namespaces loaded on demand (loadPart, again
// with each language), each language's plural rules, and the missing keys said already.
const kept = () => store.i18n;

/** @param {string} url */
async function fetchTexts(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`catalog ${url}: HTTP ${response.status}`);
  return response.json();
}

/** The page's texts of `lang` (what its first load needs), with the parts loaded so far.
 * @param {string} lang */
async function fetchCatalog(lang) {
  const [page, ...more] = await Promise.all([
    fetchTexts(`/api/i18n/${lang}`),
    ...[...kept().parts].map((ns) => fetchTexts(`/api/i18n/${lang}/${ns}`)),
  ]);
  return Object.assign(page, ...more);
}

/** Loads the namespace `ns` that the first load leaves out (the tutorial's `learn`), in the
 * page's language and English; kept through a change of language. @param {string} ns */
export async function loadPart(ns) {
  const i18n = kept();
  if (i18n.parts.has(ns)) return;
  const [english, own] = await Promise.all([
    fetchTexts(`/api/i18n/en/${ns}`),
    i18n.lang === "en" ? null : fetchTexts(`/api/i18n/${i18n.lang}/${ns}`),
  ]);
  Object.assign(i18n.fallback, english);
  if (own) Object.assign(i18n.texts, own);
  i18n.parts.add(ns);
}

/** The language to start with: the saved choice, else the browser's, else English. */
export function preferredLang() {
  const saved = localStorage.getItem("dos.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export function lang() {
  return kept().lang;
}

/** Loads `code`'s catalog (and English beneath it), then re-labels the page. @param {string} code */
export async function setLang(code) {
  if (!LANGS.includes(code)) code = "en";
  const i18n = kept();
  if (!Object.keys(i18n.fallback).length) i18n.fallback = await fetchCatalog("en");
  i18n.texts = code === "en" ? i18n.fallback : await fetchCatalog(code);
  i18n.lang = code;
  localStorage.setItem("dos.lang", code);
  document.documentElement.lang = code;
  translatePage();
  for (const listener of i18n.listeners) listener(code);
}

/** @param {(code: string) => void} listener */
export function onLangChange(listener) {
  kept().listeners.add(listener);
}

/** @param {string} key */
export function has(key) {
  return key in kept().texts || key in kept().fallback;
}

/** The text `key` with its `{placeholders}` filled from `params`.
 * @param {string} key @param {{[name: string]: unknown}} [params] */
export function t(key, params = {}) {
  const template = kept().texts[key] ?? kept().fallback[key];
  if (template === undefined) return missing(key);
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole);
}

/** A text the loaded catalogs lack: said once on the console (the page's tests fail on it),
 * and shown as its key rather than as nothing. @param {string} key */
function missing(key) {
  const { fallback, reported } = kept();
  if (Object.keys(fallback).length && !reported.has(key)) {
    reported.add(key);
    console.error(`missing text: ${key}`);
  }
  return key;
}

/** The CLDR plural category of `count` in `code` ("one", "few", "other"...).
 * @param {number | string} count @param {string} [code] */
export function pluralCategory(count, code = kept().lang) {
  const plurals = kept().plurals;
  if (!plurals.has(code)) plurals.set(code, new Intl.PluralRules(code));
  return /** @type {Intl.PluralRules} */ (plurals.get(code)).select(Number(count));
}

/** The counted text `key` in the form for `count` (`key#<category>`, else `key#other`; in
 * English if the language lacks it), its `{placeholders}` filled from `params`.
 * @param {string} key @param {number | string} count @param {{[name: string]: unknown}} [params] */
export function tn(key, count, params = {}) {
  /** @type {[{[key: string]: string}, string][]} */
  const catalogs = [[kept().texts, kept().lang], [kept().fallback, "en"]];
  for (const [catalog, code] of catalogs) {
    for (const form of [`${key}#${pluralCategory(count, code)}`, `${key}#other`]) {
      if (form in catalog) return t(form, params);
    }
  }
  return missing(key);
}

/** A day (`date`, in the browser's time zone) in the page's language: the catalog's order of
 * day, month and year (`web.date`) with its month names (`web.month_1` ... `web.month_12`), so
 * it reads alike in every browser, whatever date formats its Intl has (Chromium's may lack
 * Welsh, and then writes "2026 M11 29" or English). @param {Date} date */
export function formatDate(date) {
  const month = t(`web.month_${date.getMonth() + 1}`);
  return t("web.date", { day: date.getDate(), month, year: date.getFullYear() });
}

/** Server-sent words `{key, params}` in the page's language: a param that is itself such
 * an object (a card's name) is filled the same way, a list of them is joined with ", ".
 * @param {import("./view").Words} words */
export function tWords(words) {
  /** @param {any} value JSON @returns {any} */
  const fill = (value) => {
    if (Array.isArray(value)) return value.map(fill).join(", ");
    if (value && typeof value === "object") return tWords(value);
    return value;
  };
  /** @type {{[name: string]: unknown}} */
  const params = {};
  for (const [name, value] of Object.entries(words.params || {})) params[name] = fill(value);
  return t(words.key, params);
}

/** The first of `keys` the catalog has, filled from `params` (for optional shared keys).
 * @param {string[]} keys @param {{[name: string]: unknown}} [params] */
export function tFirst(keys, params = {}) {
  for (const key of keys) if (has(key)) return t(key, params);
  return keys[keys.length - 1];
}

/** Fills every `data-i18n` (text), `data-i18n-label` (aria-label and title) and
 * `data-i18n-aria` (aria-label only) element of `root`. @param {ParentNode} [root] */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(/** @type {string} */ (/** @type {HTMLElement} */ (el).dataset.i18n));
  }
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(/** @type {string} */ (/** @type {HTMLElement} */ (el).dataset.i18nAria)));
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-label]"))) {
    const label = t(/** @type {string} */ (el.dataset.i18nLabel));
    el.setAttribute("aria-label", label);
    el.title = label;
  }
}
