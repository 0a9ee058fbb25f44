// @ts-check
// What a player does about another (docs/moderation.md): mute them for oneself, block them,
// report them to the admins; and the admins' warnings, shown once. Loaded only when asked for
// (the "⋯" beside a seat or a chat line, a player's page, a warning waiting): its words are
// the `moderation` namespace, loaded with it. One dialog of its own, so it works on every
// page (the table, the player's page). Who asks is this browser's player token; whom it is
// about, a player id or a table's seat, which the server reads itself.

import { t, loadPart } from "./i18n.js";
import { playerToken } from "./session.js";
import { REASONS, aboutBody, refusalKey, reportBody } from "./moderationrules.js";

/** @typedef {{name: string, playerId?: string | null, code?: string | null, seat?: number | null,
 *   hide?: () => void}} About */

/** The dialog, made once on the page that first asks. */
function dialog() {
  let box = /** @type {HTMLDialogElement | null} */ (document.getElementById("moderation-dialog"));
  if (box) return box;
  box = document.createElement("dialog");
  box.id = "moderation-dialog";
  box.className = "dialog moderation-dialog";
  box.setAttribute("aria-labelledby", "moderation-title");
  const title = document.createElement("h2");
  title.id = "moderation-title";
  const body = document.createElement("div");
  body.className = "moderation-body";
  box.append(title, body);
  document.body.append(box);
  return box;
}

/** Shows `title` and `parts` in the dialog (open it if closed). @param {string} title
 * @param {Node[]} parts */
function fill(title, parts) {
  const box = dialog();
  /** @type {HTMLElement} */ (box.querySelector("h2")).textContent = title;
  /** @type {HTMLElement} */ (box.querySelector(".moderation-body")).replaceChildren(...parts);
  if (!box.open) box.showModal();
  const first = /** @type {HTMLElement | null} */ (box.querySelector("select, textarea, button"));
  if (first) first.focus();
}

/** @param {string} text @param {string} [className] */
function para(text, className = "") {
  return Object.assign(document.createElement("p"), { textContent: text, className });
}

/** @param {string} label @param {() => void} act @param {boolean} [primary] */
function button(label, act, primary = false) {
  const made = document.createElement("button");
  made.type = "button";
  made.className = primary ? "primary" : "secondary";
  made.textContent = label;
  made.addEventListener("click", act);
  return made;
}

/** @param {HTMLElement[]} buttons */
function row(buttons) {
  const box = document.createElement("div");
  box.className = "dialog-buttons";
  box.append(...buttons);
  return box;
}

function closeDialog() {
  dialog().close();
}

/** POSTs `body` to `path` with this browser's player token; the answer, or the catalog key of
 * the refusal. @param {string} path @param {unknown} body
 * @returns {Promise<{ok: true, json: any} | {ok: false, key: string}>} */
async function post(path, body) {
  const token = playerToken();
  if (!token) return { ok: false, key: "moderation.err_no_token" };
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (response.ok) return { ok: true, json };
    return { ok: false, key: refusalKey(response.status, json && json.code) };
  } catch {
    return { ok: false, key: "moderation.err_failed" };
  }
}

/** Says how it went: `key`'s words, and a button to close. @param {About} about @param {string} key */
function said(about, key) {
  fill(about.name, [para(t(key, { name: about.name }), "moderation-said"),
    row([button(t("moderation.close"), closeDialog, true)])]);
}

/** @param {About} about @param {"mutes" | "blocks"} kind */
async function muteOrBlock(about, kind) {
  const answer = await post(`/api/moderation/${kind}`, aboutBody(about));
  if (!answer.ok) return said(about, answer.key);
  if (about.hide) about.hide();
  said(about, kind === "mutes" ? "moderation.mute_done" : "moderation.block_done");
}

/** The report's form: a reason of the fixed list, the player's own words. @param {About} about */
function reportForm(about) {
  const form = document.createElement("form");
  form.className = "moderation-report";
  const reasonLabel = document.createElement("label");
  const select = document.createElement("select");
  select.name = "reason";
  for (const reason of REASONS) {
    select.append(Object.assign(document.createElement("option"), {
      value: reason, textContent: t(`moderation.reason_${reason}`),
    }));
  }
  reasonLabel.append(Object.assign(document.createElement("span"), { textContent: t("moderation.report_reason") }), select);
  const textLabel = document.createElement("label");
  const text = document.createElement("textarea");
  text.name = "text";
  text.maxLength = 500;
  text.rows = 3;
  textLabel.append(Object.assign(document.createElement("span"), { textContent: t("moderation.report_text") }), text);
  const send = button(t("moderation.report_send"), () => form.requestSubmit(), true);
  send.type = "submit";
  form.append(reasonLabel, textLabel, row([send, button(t("moderation.cancel"), closeDialog)]));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.disabled = true;
    const answer = await post("/api/moderation/reports", reportBody(about, select.value, text.value));
    said(about, answer.ok ? "moderation.report_done" : answer.key);
  });
  fill(t("moderation.report_title", { name: about.name }), [form]);
}

/** Opens the menu about a player: mute, block, report, each said in a line.
 * @param {About} about */
export async function openMenu(about) {
  await loadPart("moderation");
  const choice = (/** @type {string} */ label, /** @type {string} */ help, /** @type {() => void} */ act) => {
    const item = document.createElement("div");
    item.className = "moderation-choice";
    item.append(button(label, act), para(help));
    return item;
  };
  fill(about.name, [
    para(t("moderation.menu_text", { name: about.name })),
    choice(t("moderation.mute"), t("moderation.mute_help"), () => muteOrBlock(about, "mutes")),
    choice(t("moderation.block"), t("moderation.block_help"), () => muteOrBlock(about, "blocks")),
    choice(t("moderation.report"), t("moderation.report_help"), () => reportForm(about)),
    row([button(t("moderation.cancel"), closeDialog)]),
  ]);
}

/** Shows the admins' warnings not yet shown to this player (each once), if any. */
export async function showWarnings() {
  const answer = await post("/api/moderation/warnings", undefined);
  if (!answer.ok || !answer.json.warnings.length) return;
  await loadPart("moderation");
  const parts = answer.json.warnings.map((/** @type {{reason: string}} */ warning) =>
    para(t("moderation.warning_text", { reason: warning.reason }), "moderation-warning"));
  fill(t("moderation.warning_title"), [...parts, row([button(t("moderation.close"), closeDialog, true)])]);
}
