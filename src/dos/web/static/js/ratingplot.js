// @ts-check
// A player's rating over their rated games, drawn as inline SVG for the leaderboard's player
// page (leaderboard.js), every number in the page's language.

import { t, lang } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

/** A rating's number with one decimal, in the page's language. @param {number} value */
export function fixed(value) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    .format(value);
}

/** The SVG plot of one series: the conservative rating (mu − 3σ, dashed) and mu with a
 * ±σ band, after each rated game. @param {import("./view").RatingPoint[]} points */
export function plot(points, width = 640, height = 260) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  const left = 44, right = 12, top = 12, bottom = 30;
  const start = { mu: points.length ? points[0].mu_before : 25, sigma: points.length ? points[0].sigma_before : 25 / 3 };
  const values = [start, ...points.map((p) => ({ mu: p.mu, sigma: p.sigma }))];
  const low = Math.floor(Math.min(...values.map((v) => v.mu - 3 * v.sigma)) / 5) * 5;
  const high = Math.ceil(Math.max(...values.map((v) => v.mu + v.sigma)) / 5) * 5;
  /** @param {number} i */
  const x = (i) => left + (values.length > 1 ? (i * (width - left - right)) / (values.length - 1) : 0);
  /** @param {number} v */
  const y = (v) => top + ((high - v) * (height - top - bottom)) / Math.max(high - low, 1);
  /** @param {string} name @param {Record<string, string | number>} attrs @param {string} [text] */
  const add = (name, attrs, text) => {
    const el = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  for (let v = low; v <= high; v += 5) {
    add("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" });
    add("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end" }, String(v));
  }
  add("line", { x1: left, x2: left, y1: top, y2: height - bottom, class: "axis" });
  add("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, class: "axis" });
  add("text", { x: (left + width - right) / 2, y: height - 8, "text-anchor": "middle" }, t("rank.axis_games"));
  const upper = values.map((v, i) => `${x(i)},${y(v.mu + v.sigma)}`);
  const lower = values.map((v, i) => `${x(i)},${y(v.mu - v.sigma)}`).reverse();
  add("polygon", { points: [...upper, ...lower].join(" "), class: "band" });
  add("polyline", { points: values.map((v, i) => `${x(i)},${y(v.mu)}`).join(" "), class: "mu" });
  add("polyline", {
    points: values.map((v, i) => `${x(i)},${y(v.mu - 3 * v.sigma)}`).join(" "), class: "ordinal",
  });
  values.forEach((v, i) => {
    const dot = add("circle", { cx: x(i), cy: y(v.mu - 3 * v.sigma), r: 3, class: "dot" });
    const title = document.createElementNS(SVG, "title");
    title.textContent = t("rank.point", {
      game: i, rating: fixed(v.mu - 3 * v.sigma), mu: fixed(v.mu), sigma: fixed(v.sigma),
    });
    dot.append(title);
  });
  return svg;
}

