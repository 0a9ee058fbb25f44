// @ts-check
// The "⋯" beside another player's seat or chat line: it opens what a player can do about
// them (mute, block, report: moderation.js, loaded only then, so a first visit never pays
// for it).

import { t } from "./i18n.js";
import { store } from "./store.js";

/** The button about `about` (at the table: its seat; the table is this page's, unless named).
 * @param {import("./moderation.js").About} about */
export function moderationButton(about) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "linkish moderation-open";
  button.textContent = "⋯";
  button.setAttribute("aria-label", t("web.moderation_menu", { name: about.name }));
  button.title = button.getAttribute("aria-label") || "";
  button.addEventListener("click", async (event) => {
    event.stopPropagation();
    const { openMenu } = await import("./moderation.js");
    await openMenu({ code: store.game.code, ...about });
  });
  return button;
}
