// @ts-check
// The review of a finished game in the replay viewer (docs/review.md, "In the browser and the
// terminal"): pick a seat, "Review"; the server computes it in its worker processes
// (POST /api/games/{id}/review, then GET ?seat=N for its progress) and the panel shows
// - a progress bar while it computes (decisions judged of the total);
// - a graph of the seat's chance of winning the game over the game's steps (SVG), its
//   mistakes marked; a click on one goes to that step;
// - the biggest mistakes (the judged decisions, largest loss first), each a link to its step;
// - at a reviewed step: the chance, the action played as the log says it, and, where the
//   expert chose otherwise, its move with what it gains (reviewwords.js) — "better" only for a
//   move judged a mistake, "about as good" for the others — its cards and target lit.
// Moves are said in the page's language, never in notation.
// Only the games of a rule set that has reviews (GET /api/info) are reviewed. The replay viewer
// loads this module (and css/review.css) with the first replay it shows.

import { t, lang } from "./i18n.js";
import { errorText, codeOf } from "./errors.js";
import { moveWords, gainWords } from "./reviewwords.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** The styles of this module, added to the page once (not in the first load). */
function addStyle() {
  if (document.querySelector('link[href="/static/css/review.css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/css/review.css";
  document.head.append(link);
}
const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 400;
const SHOWN = 10;  // mistakes listed
const WIDTH = 600;
const HEIGHT = 160;

/** @param {string} name @param {Record<string, string | number>} [attributes] */
function svg(name, attributes = {}) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  return el;
}

/** @param {number} value */
function percent(value) {
  return new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 0 }).format(value);
}

/** The cards and the target an action in notation plays: {cards, target}. @param {string} text */
export function actionParts(text) {
  const match = /^(.+)@(\d+)$/.exec(String(text).replace(/\s+/g, ""));
  if (match) return { cards: match[1].split("+").map((c) => c.split("=")[0]), target: Number(match[2]) };
  const one = /^(lay|place)\s+(\S+)$/i.exec(String(text).trim());
  if (one) return { cards: [one[2].split("=")[0]], target: null };
  return { cards: [], target: null };
}

export class ReviewPanel {
  /** @param {import("./replay.js").ReplayView} replay  the viewer: `go(step)`, `step`, `last()` */
  constructor(replay) {
    this.replay = replay;
    /** @type {number | null} */
    this.gameId = null;
    /** @type {string[]} */
    this.players = [];
    /** @type {import("./view").Review | null} */
    this.review = null;  // the done review's JSON
    this.seat = 0;
    this.state = null;  // the latest state read: {status, done, total}
    this.token = 0;  // changes with each game or request: an older poll stops
    addStyle();
    // The panel's elements, made by build():
    /** @type {HTMLElement} */ this.panel;
    /** @type {HTMLHeadingElement} */ this.title;
    /** @type {HTMLLabelElement} */ this.seatLabel;
    /** @type {HTMLSpanElement} */ this.seatText;
    /** @type {HTMLSelectElement} */ this.select;
    /** @type {HTMLButtonElement} */ this.button;
    /** @type {HTMLParagraphElement} */ this.status;
    /** @type {HTMLProgressElement} */ this.progress;
    /** @type {HTMLDivElement} */ this.graph;
    /** @type {HTMLParagraphElement} */ this.here;
    /** @type {HTMLHeadingElement} */ this.listTitle;
    /** @type {HTMLOListElement} */ this.list;
    this.build();
  }

  build() {
    const panel = document.createElement("section");
    panel.id = "review-panel";
    panel.className = "review-panel";
    panel.setAttribute("aria-labelledby", "review-title");
    this.title = document.createElement("h3");
    this.title.id = "review-title";
    const controls = document.createElement("p");
    controls.className = "review-controls";
    this.seatLabel = document.createElement("label");
    this.seatText = document.createElement("span");
    this.select = document.createElement("select");
    this.select.id = "review-seat";
    this.seatLabel.append(this.seatText, " ", this.select);
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.id = "review-start";
    this.button.className = "secondary";
    this.button.addEventListener("click", () => this.start(Number(this.select.value)));
    controls.append(this.seatLabel, " ", this.button);
    this.status = document.createElement("p");
    this.status.id = "review-status";
    this.status.setAttribute("role", "status");
    this.status.setAttribute("aria-live", "polite");
    this.progress = document.createElement("progress");
    this.progress.id = "review-progress";
    this.progress.setAttribute("aria-labelledby", "review-status");
    this.progress.hidden = true;
    this.graph = document.createElement("div");
    this.graph.id = "review-graph";
    this.graph.className = "review-graph";
    this.here = document.createElement("p");
    this.here.id = "review-here";
    this.here.className = "review-here";
    this.here.setAttribute("aria-live", "polite");
    this.listTitle = document.createElement("h4");
    this.list = document.createElement("ol");
    this.list.id = "review-mistakes";
    this.list.className = "review-mistakes";
    panel.append(this.title, controls, this.progress, this.status, this.graph, this.here,
      this.listTitle, this.list);
    $("replay-board").after(panel);
    this.panel = panel;
  }

  /** A new game in the viewer: nothing reviewed yet.
   * @param {number | null} gameId @param {string[]} players
   * @param {boolean} reviewed  the game's rule set has reviews */
  reset(gameId, players, reviewed) {
    this.token += 1;
    this.gameId = gameId;
    this.players = players;
    this.review = null;
    this.state = null;
    this.panel.hidden = !reviewed;
    this.select.replaceChildren(...players.map((name, seat) => {
      const option = document.createElement("option");
      option.value = String(seat);
      option.textContent = name;
      return option;
    }));
    this.render();
  }

  /** Starts (or finds) the review of `seat`, then follows it until it is done. @param {number} seat */
  async start(seat) {
    if (this.gameId === null) return;
    this.token += 1;
    const token = this.token;
    this.seat = seat;
    this.review = null;
    this.state = { status: "running", done: 0, total: null };
    this.status.textContent = "";
    this.render();
    let answer = await this.request("POST", seat);
    while (answer && token === this.token && answer.status === "running") {
      this.state = answer;
      this.render();
      await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
      if (token !== this.token) return;
      answer = await this.request("GET", seat);
    }
    if (!answer || token !== this.token) return;
    this.state = answer;
    if (answer.status === "done") this.review = answer.review;
    this.render();
    if (this.review) this.replay.render();  // the step on show gets its review
  }

  /** @param {string} method @param {number} seat */
  async request(method, seat) {
    const base = `/api/games/${encodeURIComponent(/** @type {number} */ (this.gameId))}/review`;
    const response = method === "POST"
      ? await fetch(base, { method, headers: { "content-type": "application/json" }, body: JSON.stringify({ seat }) })
      : await fetch(`${base}?seat=${seat}`);
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      this.state = null;
      this.status.textContent = errorText({ code: codeOf(body), status: response.status });
      this.render();
      return null;
    }
    return body;
  }

  render() {
    this.title.textContent = t("web.review_title");
    this.seatText.textContent = t("web.review_seat");
    this.button.textContent = t("web.review_start");
    this.listTitle.textContent = t("web.review_mistakes");
    const state = this.state;
    const running = Boolean(state) && state.status === "running";
    this.button.disabled = running;
    this.progress.hidden = !running;
    if (running) {
      if (state.total) {
        this.progress.max = state.total;
        this.progress.value = state.done;
        this.status.textContent = t("web.review_progress", { done: state.done, total: state.total });
      } else {
        this.progress.removeAttribute("value");
        this.status.textContent = t("web.review_reading");
      }
    } else if (state && state.status === "failed") this.status.textContent = t("web.review_failed");
    else if (this.review) {
      this.status.textContent = t("web.review_done", { name: this.players[this.seat] ?? "" });
    }
    this.renderGraph();
    this.renderList();
    this.show(this.replay.step);
  }

  judged() {
    return this.review ? this.review.entries.filter((e) => e.judgement) : [];
  }

  renderGraph() {
    this.graph.replaceChildren();
    const review = this.review;
    if (!review || !review.entries.length) return;
    const last = Math.max(1, this.replay.last());
    /** @param {number} index */
    const x = (index) => (index / last) * WIDTH;
    /** @param {number} chance */
    const y = (chance) => (1 - chance) * HEIGHT;
    const chart = svg("svg", { viewBox: `-4 -4 ${WIDTH + 8} ${HEIGHT + 8}`, role: "img", class: "review-chart" });
    chart.setAttribute("aria-label", t("web.review_graph", { name: this.players[this.seat] ?? "" }));
    chart.append(svg("line", { x1: 0, y1: y(0.5), x2: WIDTH, y2: y(0.5), class: "review-even" }));
    const points = review.entries.map((e) => `${x(e.index).toFixed(1)},${y(e.game_before).toFixed(1)}`);
    chart.append(svg("polyline", { points: points.join(" "), class: "review-line" }));
    for (const entry of this.judged()) {
      const dot = svg("circle", {
        cx: x(entry.index).toFixed(1), cy: y(entry.game_chosen).toFixed(1), r: 5,
        class: `review-dot ${entry.judgement}`,
      });
      const title = svg("title");
      title.textContent = this.itemText(entry);
      dot.append(title);
      dot.addEventListener("click", () => this.replay.go(entry.index));
      chart.append(dot);
    }
    this.marker = svg("line", { x1: 0, y1: 0, x2: 0, y2: HEIGHT, class: "review-now" });
    chart.append(this.marker);
    this.graph.append(chart);
    this.xOf = x;
  }

  /** The position before the action of step `index`, if the viewer has fetched it.
   * @param {number} index */
  before(index) {
    const frame = this.replay.frames[index];
    return frame ? frame.position : null;
  }

  /** @param {import("./view").ReviewEntry} entry */
  itemText(entry) {
    const before = this.before(entry.index);
    return t("web.review_item", {
      step: entry.index,
      judgement: t(`web.review_${entry.judgement}`),
      played: moveWords(entry.chosen, before),
      best: moveWords(entry.best, before),
      loss: percent(entry.loss),
    });
  }

  renderList() {
    this.list.replaceChildren();
    if (!this.review) {
      this.listTitle.hidden = true;
      return;
    }
    this.listTitle.hidden = false;
    const worst = this.judged().sort((a, b) => b.loss - a.loss || a.index - b.index).slice(0, SHOWN);
    if (!worst.length) {
      const li = document.createElement("li");
      li.textContent = t("web.review_none");
      this.list.append(li);
      return;
    }
    for (const entry of worst) {
      const li = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/replay/${encodeURIComponent(/** @type {number} */ (this.gameId))}?step=${entry.index}`;
      link.dataset.step = String(entry.index);
      link.className = `review-link ${entry.judgement}`;
      link.textContent = this.itemText(entry);
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.replay.go(entry.index);
      });
      li.append(link);
      this.list.append(li);
    }
  }

  /** After the viewer drew `step`: the graph's marker, and the review of this step if any,
   * its better action lit on the board. @param {number} step */
  show(step) {
    if (this.marker && this.xOf) {
      const at = this.xOf(step).toFixed(1);
      this.marker.setAttribute("x1", at);
      this.marker.setAttribute("x2", at);
    }
    const entry = this.review ? this.review.entries.find((e) => e.index === step) : null;
    this.here.hidden = !entry;
    if (!entry) {
      this.here.textContent = "";
      return;
    }
    const before = this.before(step);
    if (!before) return;
    const client = /** @type {import("./view").TableClient} */ (this.replay.client);
    const played = client.describe(entry.chosen, this.seat, before, this.players);
    const chance = percent(entry.game_before);
    if (entry.best === entry.chosen) {
      this.here.textContent = t("web.review_here_best", { chance, played });
      return;
    }
    const reason = gainWords(entry.best, before, (before.hands || [])[this.seat] || []);
    const better = Boolean(entry.judgement) && percent(entry.loss) !== percent(0);
    this.here.textContent = better
      ? t("web.review_here", { chance, played, reason, loss: percent(entry.loss) })
      : t("web.review_here_equal", { chance, played, reason });
    const { cards, target } = actionParts(entry.best);
    const hand = document.querySelectorAll("#replay-board .replay-hands > li")[this.seat];
    const left = [...cards];
    for (const el of hand ? hand.querySelectorAll(".card") : []) {
      const at = left.indexOf(String(/** @type {HTMLElement} */ (el).dataset.card));
      if (at >= 0) {
        left.splice(at, 1);
        el.classList.add("better");
      }
    }
    if (target !== null) {
      const row = document.querySelectorAll("#replay-board .center-row .card")[target];
      if (row) row.classList.add("better");
    }
  }
}
