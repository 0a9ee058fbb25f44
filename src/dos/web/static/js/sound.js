// Sounds for play, draw, your turn, DOS!, catch and round end, made with the Web Audio API
// (no sound files). A toggle mutes them; the choice is remembered (localStorage).

const KEY = "dos.sound";
let context = null;

const TONES = {
  play: [[660, 0, 0.08, "triangle"]],
  draw: [[330, 0, 0.1, "sine"]],
  turn: [[523, 0, 0.12, "sine"], [784, 0.12, 0.16, "sine"]],
  dos: [[880, 0, 0.1, "square"], [880, 0.14, 0.12, "square"]],
  catch: [[440, 0, 0.12, "sawtooth"], [220, 0.12, 0.18, "sawtooth"]],
  round: [[523, 0, 0.12, "triangle"], [659, 0.12, 0.12, "triangle"], [784, 0.24, 0.22, "triangle"]],
};

export function enabled() {
  return localStorage.getItem(KEY) !== "off";
}

export function setEnabled(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Plays the sound `kind` unless muted; the page notes it on <body> (data-last-sound). */
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

/** The mute toggle: a button whose pressed state is "sound on". */
export function bindToggle(button, label) {
  const show = () => {
    const on = enabled();
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "🔊" : "🔇";
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
