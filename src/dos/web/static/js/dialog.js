// One modal dialog for questions and summaries; keyboard-friendly (Esc closes, focus returns).

import { t } from "./i18n.js";

const dialog = () => document.getElementById("dialog");
let current = null; // the open dialog's {resolve, returnFocus}
let listening = false;

function finish(value) {
  const d = dialog();
  const entry = current;
  current = null;
  if (d.open) d.close();
  document.getElementById("dialog-body").replaceChildren();
  if (entry) {
    if (entry.returnFocus && document.contains(entry.returnFocus)) entry.returnFocus.focus();
    entry.resolve(value);
  }
}

function listen() {
  if (listening) return;
  listening = true;
  // Esc, or the browser closing it. The event comes a little after the dialog closed, so it
  // may arrive when the next dialog is already open: then it is not about that one.
  dialog().addEventListener("close", () => {
    if (!dialog().open && current) finish(null);
  });
}

/**
 * Shows `body` (text or an element) with one button per choice {label, value, id?};
 * resolves to the chosen value, or null when dismissed (Esc or the cancel button).
 */
export function show(title, body, choices, { cancellable = true, kind = "" } = {}) {
  listen();
  const d = dialog();
  const returnFocus = current ? current.returnFocus : document.activeElement;
  if (current) finish(null);
  d.dataset.kind = kind;
  document.getElementById("dialog-title").textContent = title;
  const bodyEl = document.getElementById("dialog-body");
  bodyEl.replaceChildren(typeof body === "string"
    ? Object.assign(document.createElement("p"), { textContent: body }) : body);
  const buttons = document.getElementById("dialog-buttons");
  buttons.replaceChildren();
  const all = [...choices];
  if (cancellable) all.push({ label: t("web.cancel"), value: null, secondary: true });
  for (const choice of all) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = choice.label;
    button.className = choice.secondary ? "secondary" : "primary";
    if (choice.id) button.id = choice.id;
    button.addEventListener("click", () => finish(choice.value));
    buttons.append(button);
  }
  return new Promise((resolve) => {
    current = { resolve, returnFocus };
    d.showModal();
    const first = buttons.querySelector("button");
    if (first) first.focus();
  });
}

export function ask(title, text, choices, cancellable = true) {
  return show(title, text, choices, { cancellable });
}

export function close() {
  finish(null);
}

export function isOpen(kind) {
  const d = dialog();
  return d.open && (kind === undefined || d.dataset.kind === kind);
}
