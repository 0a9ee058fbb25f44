// @ts-check
// One modal dialog for questions and summaries; keyboard-friendly (Esc closes, focus returns).
// A question about a move shows what it is about (`moveBody`): the dialog covers the board.

import { t } from "./i18n.js";
import { cardElement, cardLabel } from "./cards.js";
import { store } from "./store.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const dialog = () => /** @type {HTMLDialogElement} */ ($("dialog"));
/** The open dialog's {resolve, returnFocus} (the store's `dialog`), and whether its close is
 * listened to. */
const kept = () => store.dialog;

/** @param {unknown} value */
function finish(value) {
  const d = dialog();
  const entry = kept().current;
  kept().current = null;
  if (d.open) d.close();
  $("dialog-body").replaceChildren();
  if (entry) {
    if (entry.returnFocus && document.contains(entry.returnFocus)) /** @type {HTMLElement} */ (entry.returnFocus).focus();
    entry.resolve(value);
  }
}

function listen() {
  if (kept().listening) return;
  kept().listening = true;
  // Esc, or the browser closing it. The event comes a little after the dialog closed, so it
  // may arrive when the next dialog is already open: then it is not about that one.
  dialog().addEventListener("close", () => {
    if (!dialog().open && kept().current) finish(null);
  });
}

/**
 * Shows `body` (text or an element) with one button per choice {label, value, id?};
 * resolves to the chosen value, or null when dismissed (Esc or the cancel button).
 * @param {string} title @param {string | Node} body
 * @param {{label: string, value: any, id?: string, secondary?: boolean}[]} choices
 * @param {{cancellable?: boolean, kind?: string}} [options]
 * @returns {Promise<any>}
 */
export function show(title, body, choices, { cancellable = true, kind = "" } = {}) {
  listen();
  const d = dialog();
  const current = kept().current;
  const returnFocus = current ? current.returnFocus : document.activeElement;
  if (current) finish(null);
  d.dataset.kind = kind;
  $("dialog-title").textContent = title;
  const bodyEl = $("dialog-body");
  bodyEl.replaceChildren(typeof body === "string"
    ? Object.assign(document.createElement("p"), { textContent: body }) : body);
  const buttons = $("dialog-buttons");
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
    kept().current = { resolve, returnFocus };
    d.showModal();
    const first = buttons.querySelector("button");
    if (first) first.focus();
  });
}

/** @param {string} title @param {string | Node} text
 * @param {{label: string, value: any, id?: string}[]} choices @returns {Promise<any>} */
export function ask(title, text, choices, cancellable = true) {
  return show(title, text, choices, { cancellable });
}

export function close() {
  finish(null);
}

/** @param {string} [kind] */
export function isOpen(kind) {
  const d = dialog();
  return d.open && (kind === undefined || d.dataset.kind === kind);
}

/** The body of a question about a move: `question`, then the cards played and the Center Row
 * card they go on, drawn and said ("Playing red 5 and Wild DOS on red 7.").
 * @param {string} question @param {string[]} cards @param {string} target */
export function moveBody(question, cards, target) {
  const body = document.createElement("div");
  const asked = document.createElement("p");
  asked.textContent = question;
  const move = document.createElement("div");
  move.className = "designation-move";
  const played = document.createElement("span");
  played.className = "played";
  for (const card of cards) played.append(cardElement(card));
  const arrow = document.createElement("span");
  arrow.className = "onto";
  arrow.setAttribute("aria-hidden", "true");
  arrow.textContent = "→";
  const labels = cards.map(cardLabel);
  const words = document.createElement("p");
  words.className = "move-words";
  words.textContent = t("web.designation_move", {
    cards: labels.length === 2 ? t("game.cards_pair", { first: labels[0], second: labels[1] })
      : labels.join(", "),
    target: cardLabel(target),
  });
  move.append(played, arrow, cardElement(target), words);
  body.append(asked, move);
  return body;
}
