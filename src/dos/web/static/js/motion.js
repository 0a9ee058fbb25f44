// Moves you can follow: each card that is played flies from its player's place to the table,
// and the moves of the others are shown one at a time, at a pace a person can read.
// `prefers-reduced-motion: reduce` turns both off: no flight, no waiting.

import { cardElement } from "./cards.js";

export const PACE_MS = 600;
/** How long a card flies. */
export const FLIGHT_MS = 420;

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** A copy of `card` flies from element `from` to element `to` (both as they are now). */
export function flyCard(card, from, to) {
  if (reducedMotion() || !from || !to) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const el = cardElement(card);
  el.classList.add("flying");
  el.setAttribute("aria-hidden", "true");
  el.removeAttribute("role");
  el.removeAttribute("aria-label");
  document.body.append(el);
  const size = el.getBoundingClientRect();
  const start = centre(a);
  const end = centre(b);
  el.style.left = `${start.x - size.width / 2}px`;
  el.style.top = `${start.y - size.height / 2}px`;
  const animation = el.animate([
    { transform: "translate(0, 0) scale(.8)", opacity: 0.9 },
    { transform: `translate(${end.x - start.x}px, ${end.y - start.y}px) scale(1)`, opacity: 1 },
  ], { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  animation.onfinish = () => el.remove();
  animation.oncancel = () => el.remove();
}
