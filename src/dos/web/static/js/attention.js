// @ts-check
// Your turn, even in another tab: the tab's title and icon change, and a browser
// notification comes when the tab is hidden, if the player allowed notifications and has not
// switched them off with the bell (a toggle remembered across visits: localStorage).

import { t } from "./i18n.js";
import { icon as svgIcon } from "./sound.js";
import { store } from "./store.js";

const BELL = "M12 22a2.5 2.5 0 0 0 2.5-2.5h-5A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.8V3h-3v1.2A7 7 0 0 0 5 11v5l-2 2v1h18v-1z";
const SLASH = "M3.3 2 22 20.7 20.7 22 2 3.3z";

/** @param {string} fill @param {string} ring */
const icon = (fill, ring) => "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="${fill}" stroke="${ring}" stroke-width="3"/><text x="16" y="21" font-size="14" font-family="sans-serif" font-weight="700" text-anchor="middle" fill="#000">D</text></svg>`);

export const ICON_IDLE = icon("#1c4d3c", "#ffffff");
export const ICON_TURN = icon("#ffcc33", "#c62828");

const CHOICE = "dos.notify";  // "off" when the player switched notifications off

/** Whether a notification may come: the browser allows it and the bell is on. */
export function notifying() {
  return "Notification" in window && Notification.permission === "granted"
    && localStorage.getItem(CHOICE) !== "off";
}

/** @param {string} href */
function setIcon(href) {
  let link = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel='icon']"));
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  if (link.href !== href) link.href = href;
}

/** Called after each render: whether it is this player's turn now. @param {boolean} myTurn */
export function turnChanged(myTurn) {
  document.title = myTurn ? `● ${t("web.your_turn")} · DOS` : "DOS";
  setIcon(myTurn ? ICON_TURN : ICON_IDLE);
  if (myTurn && !store.attention.wasMyTurn && document.hidden && notifying()) {
    try {
      new Notification(t("web.your_turn"), { body: "DOS", tag: "dos-turn", icon: ICON_TURN });
    } catch {
      // Some browsers allow notifications only from a service worker: the title still says it.
    }
  }
  store.attention.wasMyTurn = myTurn;
}

/** The bell, a toggle: on, it asks the browser for notifications the first time; on or off,
 * the choice is remembered. Blocked by the browser, it says where to allow them.
 * @param {HTMLElement} button @param {() => string} label */
export function bindNotifyButton(button, label) {
  const show = () => {
    const supported = "Notification" in window;
    button.hidden = !supported;
    if (!supported) return;
    const on = notifying();
    const blocked = Notification.permission === "denied";
    button.setAttribute("aria-pressed", String(on));
    button.replaceChildren(on ? svgIcon(BELL) : svgIcon(BELL, SLASH));
    button.setAttribute("aria-label", label());
    button.title = blocked ? t("web.notify_blocked") : label();
  };
  button.addEventListener("click", async () => {
    if (!("Notification" in window)) return;
    if (notifying()) {
      localStorage.setItem(CHOICE, "off");
    } else {
      localStorage.setItem(CHOICE, "on");
      if (Notification.permission === "default") await Notification.requestPermission();
    }
    show();
  });
  show();
  return show;
}
