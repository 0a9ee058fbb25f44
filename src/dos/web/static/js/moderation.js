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

/** Whom the menu is about, and what it does to this page's chat (the table's own hiding of
 * a seat's lines, chat.js) as their chat is hidden or shown again.
 * `seatName`: the name the seat showed where the player saw them (a chat line's author).
 * @typedef {{name: string, playerId?: string | null, code?: string | null, seat?: number | null,
 *   seatName?: string | null, hide?: () => void, unhide?: () => void}} About */

/** The dialog, made once on the page that first asks (with its style sheet). */
function dialog() {
  let box = /** @type {HTMLDialogElement | null} */ (document.getElementById("moderation-dialog"));
  if (box) return box;
  document.head.append(Object.assign(document.createElement("link"), {
    rel: "stylesheet", href: "/static/css/moderation.css",
  }));
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

/** Sends `body` to `path` (`method`: POST, else DELETE) with this browser's player token;
 * the answer, or the catalog key of the refusal. @param {string} path @param {unknown} body
 * @returns {Promise<{ok: true, json: any} | {ok: false, key: string}>} */
async function post(path, body, method = "POST") {
  const token = playerToken();
  if (!token) return { ok: false, key: "moderation.err_no_token" };
  try {
    const response = await fetch(path, {
      method,
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

/** Mutes or blocks (`undo`: lifts it; `playerId`: whom, as the server named them).
 * @param {About} about @param {"mutes" | "blocks"} kind @param {boolean} undo @param {string} playerId */
async function muteOrBlock(about, kind, undo, playerId) {
  const answer = undo
    ? await post(`/api/moderation/${kind}/${encodeURIComponent(playerId)}`, undefined, "DELETE")
    : await post(`/api/moderation/${kind}`, aboutBody(about));
  if (!answer.ok) return said(about, answer.key);
  const hiding = undo ? about.unhide : about.hide;
  if (hiding) hiding();
  const done = { mutes: ["mute_done", "unmute_done"], blocks: ["block_done", "unblock_done"] }[kind][undo ? 1 : 0];
  said(about, `moderation.${done}`);
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
  const known = await post("/api/moderation/relation", aboutBody(about));
  if (!known.ok) return said(about, known.key);
  const { player_id: playerId, muted, blocked } = known.json;
  const choice = (/** @type {string} */ label, /** @type {string} */ help, /** @type {() => void} */ act) => {
    const item = document.createElement("div");
    item.className = "moderation-choice";
    item.append(button(label, act), para(help));
    return item;
  };
  fill(about.name, [
    para(t("moderation.menu_text", { name: about.name })),
    muted
      ? choice(t("moderation.unmute"), t("moderation.unmute_help"), () => muteOrBlock(about, "mutes", true, playerId))
      : choice(t("moderation.mute"), t("moderation.mute_help"), () => muteOrBlock(about, "mutes", false, playerId)),
    blocked
      ? choice(t("moderation.unblock"), t("moderation.unblock_help"), () => muteOrBlock(about, "blocks", true, playerId))
      : choice(t("moderation.block"), t("moderation.block_help"), () => muteOrBlock(about, "blocks", false, playerId)),
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
