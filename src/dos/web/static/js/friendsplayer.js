// @ts-check
// A player's page (/leaderboard?player=ID) offers to ask that player to be friends or to
// follow them, under the page's title, for whoever holds an account and is not that player.

import { t, onLangChange } from "./i18n.js";
import * as session from "./session.js";
import { offerFor } from "./friends.js";
import { call, refusalText } from "./friendsapi.js";

/** What a change answered, in words. @param {import("./friendsapi.js").Answer} answer @param {string} done */
function said(answer, done) {
  if (!answer.ok) return refusalText(answer);
  return t(answer.body.status === "friends" ? "friends.now_friends" : done);
}

/** Adds the buttons under the player page's title, and keeps them for the player shown. */
export function playerActions() {
  const title = document.getElementById("player-title");
  if (!title) return;
  const bar = document.createElement("div");
  bar.id = "friends-player-actions";
  bar.className = "friends-player";
  title.after(bar);
  const draw = () => {
    const shown = new URLSearchParams(location.search).get("player");
    bar.replaceChildren();
    if (!offerFor(shown, session.playerId())) return;
    const id = /** @type {string} */ (shown);
    const message = document.createElement("span");
    message.setAttribute("role", "status");
    /** @param {string} text @param {string} path @param {string} done @param {string} className */
    const action = (text, path, done, className) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = className;
      button.textContent = text;
      button.addEventListener("click", async () => {
        message.textContent = said(await call("PUT", path), done);
      });
      return button;
    };
    bar.append(
      action(t("friends.ask"), `/${encodeURIComponent(id)}`, "friends.asked", "primary small"),
      action(t("friends.follow"), `/follows/${encodeURIComponent(id)}`, "friends.followed", "secondary small"),
      message,
    );
  };
  new MutationObserver(draw).observe(title, { childList: true, characterData: true, subtree: true });
  onLangChange(draw);
  draw();
}
