// @ts-check
// The friends' endpoints (/api/friends, docs/friends.md) as this page calls them: with the
// player's token, answering the JSON body and, refused, the refusal's words in the page's
// language.

import { t } from "./i18n.js";
import * as session from "./session.js";
import { errorText, codeOf } from "./errors.js";
import { refusalKey } from "./friends.js";

/** @typedef {{ok: boolean, status: number, body: any, code: string | null}} Answer */

/** Calls an endpoint of /api/friends (`path` after it) as this browser's player.
 * @param {string} method @param {string} path @param {object} [body] @returns {Promise<Answer>} */
export async function call(method, path, body) {
  const token = session.playerToken();
  /** @type {Record<string, string>} */
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const response = await fetch(`/api/friends${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => null);
    return { ok: response.ok, status: response.status, body: json, code: response.ok ? null : codeOf(json) };
  } catch {
    return { ok: false, status: 0, body: null, code: "offline" };
  }
}

/** A refusal's words. @param {Answer} answer */
export function refusalText(answer) {
  if (answer.code === "offline") return t("web.error_offline");
  const key = refusalKey(answer.code);
  return key ? t(key) : errorText({ code: answer.code, status: answer.status });
}
