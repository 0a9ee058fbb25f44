// @ts-check
// A refusal in the player's words: the server's stable error `code` (or an illegal action's
// catalog `key`) picks the catalog text; the server's English `message` is never shown.

import { t, tWords, has } from "./i18n.js";

// HTTP statuses, for answers that carry no code.
/** @type {Record<number, string>} */
const BY_STATUS = { 400: "web.err_bad_request", 401: "web.err_bad_token", 404: "web.err_not_found",
  409: "web.err_bad_state", 422: "web.err_bad_request" };

// Codes that mean the same thing to a player.
/** @type {Record<string, string>} */
const SAME = { expired_token: "bad_token", bad_seat: "bad_request", notation: "bad_request",
  bad_message: "bad_request", no_game: "not_found" };

/** Words for a refusal `{code, key, params}` (a WebSocket `error`) or `{code, status}` (an
 * HTTP answer): the catalog's, in the page's language, else a generic translated text.
 * @param {{code?: string | null, key?: string | null, params?: {[name: string]: unknown} | null, status?: number}} [refusal] */
export function errorText({ code, key, params, status } = {}) {
  if (key && has(key)) return t("web.error_refused", { reason: tWords({ key, params }) });
  if (code === "stale") return t("web.error_stale");
  const name = SAME[code ?? ""] || code;
  if (name && has(`web.err_${name}`)) return t(`web.err_${name}`);
  if (status && BY_STATUS[status]) return t(BY_STATUS[status]);
  return t("web.error_generic");
}

/** The code of an HTTP error body, wherever the server put it. @param {any} body JSON */
export function codeOf(body) {
  if (!body || typeof body !== "object") return null;
  if (typeof body.code === "string") return body.code;
  const detail = body.detail;
  if (detail && typeof detail === "object" && typeof detail.code === "string") return detail.code;
  if (body.error && typeof body.error === "object" && typeof body.error.code === "string") return body.error.code;
  return null;
}
