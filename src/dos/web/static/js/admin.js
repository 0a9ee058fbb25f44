// @ts-check
// The admin page (/admin, docs/moderation.md): the queue of open reports, oldest first, each
// with the table's chat before it and the admin's actions (warn, mute on the server, ban,
// dismiss, close the table), and the log of every action. The page is the same for anyone;
// its data is GET /api/admin, which answers only an admin (this browser's player token): any
// other reader is told, in their language, that the page is for admins. Its words are the
// `moderation` namespace; decisions in moderationrules.js.

import { t, setLang, preferredLang, onLangChange, loadPart, formatDate, LANGS, LANG_NAMES } from "./i18n.js";
import { playerToken } from "./session.js";
import { adminAction, adminRefusalKey, logAbout, untilWords } from "./moderationrules.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @typedef {{seat: number | null, name: string | null, player_id: string | null, text: string | null,
 *   reaction: string | null, at: number}} ExcerptLine */
/** @typedef {{id: number, reporter: string, reported: string, reported_name: string | null,
 *   reason: string, text: string | null, table_code: string | null, excerpt: ExcerptLine[], at: number}} Report */
/** @typedef {{id: number, admin: string, action: string, player_id: string | null,
 *   table_code: string | null, report_id: number | null, reason: string, until: number | null, at: number}} LogEntry */

/** What the page shows: the API's answer, or the status it refused with. */
const kept = {
  /** @type {{reports: Report[], log: LogEntry[]} | null} */
  overview: null,
  refused: 0,
  /** Whether the first answer is in (the page's words with it). */
  loaded: false,
};

/** @param {string} path @param {string} method @param {unknown} [body] */
async function call(path, method, body) {
  const token = playerToken();
  if (!token) return { status: 401, json: null };
  const response = await fetch(path, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, json: await response.json().catch(() => null) };
}

async function load() {
  const answer = await call("/api/admin", "GET");
  kept.overview = answer.status === 200 ? answer.json : null;
  kept.refused = answer.status === 200 ? 0 : answer.status;
  kept.loaded = true;
  render();
}

/** @param {string} text */
function showError(text) {
  const banner = $("admin-error");
  banner.textContent = text;
  banner.hidden = !text;
}

/** @param {number} seconds */
const when = (seconds) => {
  const date = new Date(seconds * 1000);
  return `${formatDate(date)} ${date.toTimeString().slice(0, 5)}`;
};

/** @param {ExcerptLine} line */
function excerptLine(line) {
  const li = document.createElement("li");
  const who = line.seat === null ? t("moderation.admin_spectator") : line.name || "?";
  const words = line.reaction ? t(`web.reaction_${line.reaction}`) : line.text || "";
  li.textContent = `${who}: ${words}`;  // text, never HTML
  if (line.player_id) li.dataset.player = line.player_id;
  return li;
}

/** @param {string} label @param {() => void} act */
function button(label, act) {
  const made = document.createElement("button");
  made.type = "button";
  made.className = "secondary";
  made.textContent = label;
  made.addEventListener("click", act);
  return made;
}

/** One open report: who, why, their words, the chat before it, and the actions. @param {Report} report */
function reportItem(report) {
  const li = document.createElement("li");
  li.className = "admin-report";
  li.dataset.report = String(report.id);
  const name = report.reported_name ? `${report.reported_name} (${report.reported})` : report.reported;
  const head = document.createElement("h4");
  head.textContent = t("moderation.admin_report_head", {
    reporter: report.reporter, name, reason: t(`moderation.reason_${report.reason}`),
  });
  const stamp = Object.assign(document.createElement("p"), { className: "admin-when", textContent: when(report.at) });
  li.append(head, stamp);
  if (report.text) li.append(Object.assign(document.createElement("p"), { textContent: t("moderation.admin_their_words", { text: report.text }) }));
  const excerpt = document.createElement("ol");
  excerpt.className = "admin-excerpt";
  excerpt.setAttribute("aria-label", t("moderation.admin_excerpt"));
  for (const line of report.excerpt) excerpt.append(excerptLine(line));
  li.append(Object.assign(document.createElement("p"), {
    className: "admin-excerpt-title",
    textContent: report.excerpt.length ? t("moderation.admin_excerpt") : t("moderation.admin_no_excerpt"),
  }), excerpt);
  const why = document.createElement("input");
  why.maxLength = 500;
  why.className = "admin-reason";
  const whyLabel = document.createElement("label");
  whyLabel.append(Object.assign(document.createElement("span"), { textContent: t("moderation.admin_reason_label") }), why);
  const hours = document.createElement("input");
  hours.type = "number";
  hours.min = "1";
  hours.className = "admin-hours";
  const hoursLabel = document.createElement("label");
  hoursLabel.append(Object.assign(document.createElement("span"), { textContent: t("moderation.admin_hours") }), hours);
  const actions = document.createElement("div");
  actions.className = "dialog-buttons admin-actions";
  const subject = { playerId: report.reported, reportId: report.id };
  for (const action of /** @type {const} */ (["warn", "mute", "ban", "dismiss"])) {
    const made = button(t(`moderation.admin_${action}`), () => act(adminAction(action, subject, why.value, hours.value)));
    made.dataset.action = action;
    actions.append(made);
  }
  const code = report.table_code;
  if (code) {
    const close = button(t("moderation.admin_close_table", { code }), () => closeTable(code, why.value));
    close.dataset.action = "close_table";
    actions.append(close);
  }
  li.append(whyLabel, hoursLabel, actions);
  return li;
}

/** @param {ReturnType<typeof adminAction>} decided */
async function act(decided) {
  if (!decided.ok) return showError(t(decided.key));
  const answer = await call("/api/admin/actions", "POST", decided.body);
  showError(answer.status === 200 ? "" : t("moderation.err_failed"));
  await load();
}

/** @param {string} code @param {string} reason */
async function closeTable(code, reason) {
  if (!reason.trim()) return showError(t("moderation.admin_need_reason"));
  const answer = await call(`/api/admin/tables/${encodeURIComponent(code)}/close`, "POST", { reason: reason.trim() });
  showError(answer.status === 200 ? "" : t("moderation.err_failed"));
  await load();
}

/** @param {LogEntry} entry */
function logRow(entry) {
  const row = document.createElement("tr");
  row.dataset.action = entry.action;
  const about = logAbout(entry);
  const end = untilWords(entry.until ?? ((entry.action === "ban" || entry.action === "mute") ? "forever" : null));
  const endText = end ? ` (${end.date ? t(end.key, { date: when(end.date.getTime() / 1000) }) : t(end.key)})` : "";
  const cells = [
    when(entry.at), entry.admin, t(`moderation.admin_action_${entry.action}`) + endText,
    "text" in about ? about.text : t(about.key, about.params), entry.reason,
  ];
  for (const text of cells) row.append(Object.assign(document.createElement("td"), { textContent: text }));
  return row;
}

/** The page's own words (`data-admin-i18n`): the `moderation` namespace, which the page's first
 * catalog leaves out, filled once it is loaded. */
function fillWords() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-admin-i18n]"))) {
    el.textContent = t(/** @type {string} */ (el.dataset.adminI18n));
  }
}

function render() {
  fillWords();
  $("admin-refused").hidden = !kept.refused;
  $("admin-view").hidden = !kept.overview;
  if (kept.refused) $("admin-refused-text").textContent = t(adminRefusalKey(kept.refused));
  const overview = kept.overview;
  if (!overview) return;
  $("admin-reports").replaceChildren(...overview.reports.map(reportItem));
  $("admin-empty").hidden = overview.reports.length > 0;
  $("admin-log").replaceChildren(...overview.log.map(logRow));
}

async function start() {
  const select = /** @type {HTMLSelectElement} */ ($("lang-select"));
  for (const code of LANGS) {
    select.append(Object.assign(document.createElement("option"), { value: code, textContent: LANG_NAMES[code] }));
  }
  select.addEventListener("change", () => setLang(select.value));
  onLangChange((code) => {
    select.value = code;
    if (kept.loaded) render();
  });
  await setLang(preferredLang());
  await loadPart("moderation");
  await load();
  document.body.dataset.ready = "true";
}

start().catch((error) => showError(String(error && error.message ? error.message : error)));
