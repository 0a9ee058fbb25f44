// @ts-check
// Moves you can follow: each card that is played flies from its player's place to the table,
// and the moves of the others are shown one at a time, at a pace a person can read.
// `prefers-reduced-motion: reduce` turns both off: no flight, no waiting.
//
// The pace is for the eyes only. What the page decides on (whether a catch can still succeed,
// the version an action is made on, a reaction test on the server's clock) reads the newest
// state received (`Pacer.latest`), never the state the animation has reached.

/** @typedef {import("./view").Arrived} Arrived */

export const PACE_MS = 600;
/** How long a card flies. */
export const FLIGHT_MS = 420;

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {number} ms @returns {Promise<void>} */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server's messages, shown in order: after a message that `show` says is worth a pause
 * (another player's move), the next one waits PACE_MS (not with reduced motion).
 *
 * - `latest`: the newest `state` or `update` received, whatever is on show; every message is
 *   stamped with `receivedAt` (performance.now() on arrival).
 * - `received(message)` runs on arrival, before the message waits its turn.
 * - A message that `urgent(message)` picks (the answer to this player's own action, their
 *   reaction test) does not wait: it is shown at once, with every message before it.
 * - `waitFor(promise)`: the messages not shown yet wait until it settles (what they need to
 *   be shown is loading), urgent or not.
 */
export class Pacer {
  /** @param {{show: (message: Arrived) => boolean, received?: (message: Arrived) => void,
   *   urgent?: (message: Arrived) => boolean}} handlers */
  constructor({ show, received = () => {}, urgent = () => false }) {
    this.show = show;
    this.received = received;
    this.urgent = urgent;
    /** @type {Arrived[]} */
    this.inbox = [];
    /** @type {Set<Arrived>} */
    this.rush = new Set();  // urgent messages still in the inbox
    this.draining = false;
    this.nextAt = 0;  // when the next message may be shown
    /** @type {(() => void) | null} */
    this.wake = null;  // ends the wait now
    /** @type {import("./view").Received | null} the newest `state` or `update` */
    this.latest = null;
    /** @type {Promise<unknown> | null} */
    this.gate = null;  // what the next message waits for (waitFor)
  }

  /** The messages not shown yet wait until `promise` settles. @param {Promise<unknown>} promise */
  waitFor(promise) {
    const gate = promise.then(() => {}, () => {});
    this.gate = gate;
    gate.then(() => {
      if (this.gate === gate) this.gate = null;
      if (this.wake) this.wake();
    });
  }

  /** @param {Arrived} message */
  push(message) {
    message.receivedAt = performance.now();
    if (message.type === "state" || message.type === "update") {
      this.latest = /** @type {import("./view").Received} */ (/** @type {unknown} */ (message));
    }
    this.received(message);
    this.inbox.push(message);
    if (this.urgent(message)) {
      this.rush.add(message);
      if (this.wake) this.wake();
    }
    if (!this.draining) this.drain();
  }

  /** Forgets every message not yet shown (another table, another connection). */
  reset() {
    this.inbox.length = 0;
    this.rush.clear();
    this.nextAt = 0;
    this.latest = null;
    this.gate = null;
    if (this.wake) this.wake();
  }

  /** @param {number} ms @returns {Promise<void>} */
  pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake && this.wake(), ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  async drain() {
    this.draining = true;
    try {
      while (this.inbox.length) {
        if (this.gate) {
          await this.gate;
          continue;  // settled (or another gate, a reset meanwhile): look again
        }
        const wait = this.rush.size ? 0 : this.nextAt - performance.now();
        if (wait > 0) {
          await this.pause(wait);
          continue;  // woken early (an urgent message, a reset): look again
        }
        const message = /** @type {Arrived} */ (this.inbox.shift());
        this.rush.delete(message);
        const paced = this.show(message);
        this.nextAt = paced && !reducedMotion() ? performance.now() + PACE_MS : 0;
      }
    } finally {
      this.draining = false;
    }
  }
}

/** @param {DOMRect} rect */
function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** A card (`el`, made for it) flies from element `from` (as it is now) into the box `to`,
 * centred in it and no taller than it as it lands.
 * @param {HTMLElement} el @param {Element | null} from @param {DOMRect | null} to */
export function flyCard(el, from, to) {
  if (reducedMotion() || !from || !to) return;
  const a = from.getBoundingClientRect();
  if (!a.width || !to.height) return;
  el.classList.add("flying");
  el.setAttribute("aria-hidden", "true");
  el.removeAttribute("role");
  el.removeAttribute("aria-label");
  document.body.append(el);
  const size = el.getBoundingClientRect();
  const start = centre(a);
  const end = centre(to);
  const scale = Math.min(1, to.height / size.height);
  el.style.left = `${start.x - size.width / 2}px`;
  el.style.top = `${start.y - size.height / 2}px`;
  const animation = el.animate([
    { transform: "translate(0, 0) scale(.8)", opacity: 0.9 },
    { transform: `translate(${end.x - start.x}px, ${end.y - start.y}px) scale(${scale})`, opacity: 1 },
  ], { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  animation.onfinish = () => el.remove();
  animation.oncancel = () => el.remove();
}
