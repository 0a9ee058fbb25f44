// @ts-check
// Sounds for play, draw, your turn, DOS!, catch, a catch too late and round end, made with the
// Web Audio API (no sound files). A toggle mutes them; the choice is remembered (localStorage).

import { store } from "./store.js";
import { roundsOf } from "./game.js";

/** @typedef {import("./view").View} View */

const KEY = "dos.sound";

/** @type {{[kind: string]: [number, number, number, OscillatorType][]}} */
const TONES = {
  play: [[660, 0, 0.08, "triangle"]],
  draw: [[330, 0, 0.1, "sine"]],
  turn: [[523, 0, 0.12, "sine"], [784, 0.12, 0.16, "sine"]],
  dos: [[880, 0, 0.1, "square"], [880, 0.14, 0.12, "square"]],
  catch: [[440, 0, 0.12, "sawtooth"], [220, 0.12, 0.18, "sawtooth"]],
  late: [[311, 0, 0.09, "square"], [233, 0.1, 0.22, "square"]],  // a catch that came too late
  round: [[523, 0, 0.12, "triangle"], [659, 0.12, 0.12, "triangle"], [784, 0.24, 0.22, "triangle"]],
};

export function enabled() {
  return localStorage.getItem(KEY) !== "off";
}

/** @param {boolean} on */
export function setEnabled(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

/** The page's audio, made at its first use (the store keeps it). */
function audio() {
  const kept = store.sound;
  if (!kept.context) {
    const Context = window.AudioContext
      || /** @type {{webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext;
    if (!Context) return null;
    kept.context = new Context();
  }
  const context = kept.context;
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** An update's sound (null: none): a round's end, DOS!, a catch, this `seat`'s turn, a draw,
 * cards played (`moved`: the action moved cards to the table, as its rule set's client says).
 * @param {string} action @param {View | null} before @param {View | null} after
 * @param {number | null} seat @param {boolean} moved */
export function soundOf(action, before, after, seat, moved) {
  if (!after) return null;
  const text = String(action).replace(/^\d+:\s*/, "");
  if (before && roundsOf(after) > roundsOf(before)) return "round";
  if (text === "dos") return "dos";
  if (text.startsWith("catch")) return "catch";
  if (before && after.turn === seat && before.turn !== seat && after.phase !== "over") return "turn";
  if (text === "draw") return "draw";
  if (moved) return "play";
  return null;
}

/** Plays the sound `kind` unless muted; the page notes it on <body> (data-last-sound).
 * @param {string} kind */
export function play(kind) {
  if (!enabled() || !TONES[kind]) return;
  document.body.dataset.lastSound = kind;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  for (const [frequency, at, length, type] of TONES[kind]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.15, now + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + length + 0.02);
  }
}

const SPEAKER = "M3 9v6h4l5 4V5L7 9H3z";
const WAVES = "M15.5 8.5a5 5 0 0 1 0 7l-1.4-1.4a3 3 0 0 0 0-4.2zM18.4 5.6a9 9 0 0 1 0 12.8L17 17a7 7 0 0 0 0-9.9z";
const CROSS = "M15 9.4 16.4 8l2.1 2.1L20.6 8 22 9.4l-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z";

/** An inline SVG icon (no emoji font needed), hidden from screen readers.
 * @param {...string} paths */
export function icon(...paths) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "22");
  svg.setAttribute("height", "22");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("icon");
  for (const d of paths) {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "currentColor");
    svg.append(path);
  }
  return svg;
}

/** The mute toggle: a button whose pressed state is "sound on".
 * @param {HTMLElement} button @param {() => string} label */
export function bindToggle(button, label) {
  const show = () => {
    const on = enabled();
    button.setAttribute("aria-pressed", String(on));
    button.replaceChildren(on ? icon(SPEAKER, WAVES) : icon(SPEAKER, CROSS));
    button.setAttribute("aria-label", label());
    button.title = label();
  };
  button.addEventListener("click", () => {
    setEnabled(!enabled());
    show();
    if (enabled()) audio();  // a click lets the page start its audio
  });
  show();
  return show;
}
