// @ts-check
// The "⋯" beside another player: opens moderation.js (loaded only then).

import { t } from "./i18n.js";
import { store } from "./store.js";

/** @param {import("./moderation.js").About} about  at the table: a seat of this page's table */
export function moderationButton(about) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "linkish moderation-open";
  button.textContent = "⋯";
  button.title = t("web.moderation_menu", { name: about.name });
  button.setAttribute("aria-label", button.title);
  button.addEventListener("click", async (event) => {
    event.stopPropagation();
    (await import("./moderation.js")).openMenu({ code: store.game.code, ...about });
  });
  return button;
}
