// @ts-check
// The tutorial (/learn, docs/learn.md): short scripted deals that teach the rules one at a
// time. The server's lesson runner is the judge (POST /api/learn/{lesson} with the learner's
// actions so far): it answers with this learner's view, the step's prompt, the cards and
// buttons that do the step (lit here), and why a move was refused. Nothing is decided here.
// "DOS! with this move" (the toggle, key W) is offered, as at the table, where the step's move
// leaves two cards: the move is sent with the call right after it, as the table sends them.
// Where the learner is (lesson and actions) is kept in localStorage: leave and come back.

import { t, tWords } from "./i18n.js";
import { describe } from "./log.js";
import { drawPlayers, drawCenter, drawHand, drawButtons } from "./lessonboard.js";
import { errorText, codeOf } from "./errors.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const STORE = "dos.learn";
const STYLE = "/static/css/tutorial.css";

// The tutorial's looks come with it: the lobby's first visit loads neither.
if (!/** @type {HTMLElement | null} */ (document.querySelector(`link[href="${STYLE}"]`))) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLE;
  document.head.append(link);
}

/** @template {keyof HTMLElementTagNameMap} K @param {K} tag */
function el(tag, { className = "", id = "", text = "" } = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (id) node.id = id;
  if (text) node.textContent = text;
  return node;
}

/** @param {string} id @param {string} key @param {() => void} handler */
function button(id, key, handler, className = "") {
  const b = el("button", { id, className });
  b.type = "button";
  b.dataset.i18nKey = key;
  b.addEventListener("click", handler);
  return b;
}

/** What the browser remembers: the lesson on, its actions, the lessons finished. */
function loadSaved() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    if (saved && typeof saved.lesson === "string" && Array.isArray(saved.actions)) {
      return { lesson: saved.lesson, actions: saved.actions.filter((/** @type {unknown} */ a) => typeof a === "string"),
        done: Array.isArray(saved.done) ? saved.done : [] };
    }
  } catch { /* a broken entry: start afresh */ }
  return null;
}

export class LearnView {
  /** @param {{onPlay: () => void, onLeave: () => void}} hooks */
  constructor({ onPlay, onLeave }) {
    this.onPlay = onPlay;
    this.onLeave = onLeave;
    /** @type {{id: string, title: string}[]} */
    this.lessons = [];
    /** @type {string | null} */
    this.lessonId = null;
    /** @type {string[]} */
    this.actions = [];
    /** @type {string[]} */
    this.done = [];
    this.answer = null;
    this.answers = 0;
    /** @type {number[]} */
    this.selected = [];
    this.busy = false;
    this.dosWithMove = false;  // the toggle "DOS! with this move" is on
    this.build();
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  get shown() {
    return !$("view-learn").hidden;
  }

  /** The view's parts, made once; `render` fills them. */
  build() {
    const body = $("learn-body");
    const side = el("nav", { className: "learn-side", id: "learn-nav" });
    side.append(el("h3", { id: "learn-lessons-title" }), el("ol", { id: "learn-lessons", className: "learn-lessons" }));
    const main = el("div", { className: "learn-main" });
    const head = el("div", { className: "learn-head" });
    head.append(el("p", { id: "learn-progress", className: "learn-progress" }), el("h3", { id: "learn-lesson-title" }));
    const prompt = el("p", { id: "learn-prompt", className: "learn-prompt" });
    prompt.setAttribute("aria-live", "polite");
    const wrong = el("p", { id: "learn-wrong", className: "learn-wrong" });
    wrong.setAttribute("role", "alert");
    wrong.hidden = true;
    const hint = el("p", { id: "learn-hint", className: "hint" });
    hint.setAttribute("aria-live", "polite");
    const players = el("ul", { id: "learn-players", className: "learn-players" });
    const centerTitle = el("h4", { id: "learn-center-title" });
    const center = el("div", { id: "learn-center", className: "center-row learn-center" });
    center.setAttribute("role", "group");
    center.setAttribute("aria-labelledby", "learn-center-title");
    const handTitle = el("h4", { id: "learn-hand-title" });
    const hand = el("div", { id: "learn-hand", className: "hand learn-hand" });
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-labelledby", "learn-hand-title");
    const actions = el("div", { id: "learn-actions", className: "actions learn-actions" });
    actions.append(
      button("learn-draw", "game.draw", () => this.send("draw")),
      button("learn-lay", "game.lay", () => this.layOrPlace("lay")),
      button("learn-place", "game.place", () => this.layOrPlace("place")),
      button("learn-end", "game.end", () => this.send("end")),
      button("learn-dos-move", "web.dos_with_move", () => this.toggleDosWithMove(), "dos-move"),
      button("learn-dos", "game.dos_call", () => this.send("dos"), "dos-button"),
      el("span", { id: "learn-catches", className: "catch-buttons" }),
    );
    /** @type {HTMLElement} */ (actions.querySelector("#learn-dos-move")).setAttribute("aria-keyshortcuts", "W");
    const moves = el("div", { id: "learn-moves", className: "learn-moves" });
    moves.append(el("h4", { id: "learn-moves-title" }), el("ul", { id: "learn-moves-list" }));
    moves.hidden = true;
    const after = el("div", { id: "learn-finished", className: "learn-finished" });
    after.append(
      button("learn-next", "learn.next", () => this.next(), "primary"),
      button("learn-play", "learn.play", () => this.onPlay(), "primary"),
    );
    after.hidden = true;
    const controls = el("div", { className: "learn-controls" });
    controls.append(
      button("learn-restart", "learn.restart", () => this.start(this.lessonId, []), "secondary"),
      button("learn-leave", "learn.leave", () => this.onLeave(), "secondary"),
    );
    main.append(head, prompt, wrong, after, players, centerTitle, center, hint, handTitle, hand,
      actions, moves, controls);
    body.replaceChildren(el("p", { id: "learn-intro", className: "learn-intro" }), side, main);
  }

  /** Opens the tutorial where this browser left it (else at the first lesson). */
  async open() {
    if (!this.lessons.length) {
      const response = await fetch("/api/learn");
      if (!response.ok) throw new Error(errorText({ status: response.status }));
      this.lessons = (await response.json()).lessons;
    }
    const saved = loadSaved();
    this.done = saved ? saved.done : [];
    const known = saved && this.lessons.some((l) => l.id === saved.lesson);
    await this.start(known ? saved.lesson : this.lessons[0].id, known ? saved.actions : []);
  }

  save() {
    localStorage.setItem(STORE, JSON.stringify({ lesson: this.lessonId, actions: this.actions, done: this.done }));
  }

  /** Lesson `id` from its start, or after `actions` (a resumed lesson).
   * @param {string | null} id @param {string[]} [actions] */
  async start(id, actions = []) {
    this.lessonId = id;
    this.actions = [...actions];
    this.selected = [];
    await this.ask(this.actions);
    this.focusWork();
  }

  next() {
    const at = this.lessons.findIndex((l) => l.id === this.lessonId);
    if (at + 1 < this.lessons.length) this.start(this.lessons[at + 1].id, []);
  }

  /** Asks the runner where `actions` lead; a refused action (and any after it) is dropped.
   * @param {string[]} actions @returns {Promise<any>} the runner's JSON answer */
  async ask(actions) {
    this.busy = true;
    try {
      const response = await fetch(`/api/learn/${encodeURIComponent(/** @type {string} */ (this.lessonId))}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ actions }),
      });
      if (!response.ok) {
        let code = null;
        try { code = codeOf(await response.json()); } catch { /* no body */ }
        if (actions.length && response.status === 422) {
          // A saved action the server cannot read (an older lesson): start the lesson again.
          return this.ask([]);
        }
        this.answer = null;
        $("learn-wrong").textContent = errorText({ code, status: response.status });
        $("learn-wrong").hidden = false;
        return null;
      }
      const answer = await response.json();
      this.answer = answer;
      this.answers += 1;
      this.actions = actions.slice(0, answer.accepted);
      if (answer.status === "finished" && !this.done.includes(answer.lesson)) this.done.push(answer.lesson);
      this.selected = [];
      this.dosWithMove = false;
      this.save();
      this.render();
      return answer;
    } finally {
      this.busy = false;
    }
  }

  /** Sends one learner action (notation); the answer says whether it was taken. A move
   * (`move`) with the toggle on goes with the DOS! call right after it.
   * @param {string} text */
  async send(text, { move = false } = {}) {
    if (this.busy || !this.answer || this.answer.status === "finished") return;
    const call = move && this.dosWithMove ? ["dos"] : [];
    const answer = await this.ask([...this.actions, text, ...call]);
    if (answer) this.focusWork();
  }

  /** The toggle "DOS! with this move" (offered where the step's move leaves two cards). */
  toggleDosWithMove() {
    if (!this.answer || $("learn-dos-move").hidden) return;
    this.dosWithMove = !this.dosWithMove;
    this.renderDosWithMove();
  }

  renderDosWithMove() {
    const toggle = $("learn-dos-move");
    const offered = Boolean(this.answer && this.answer.status !== "finished" && this.answer.lit.dos_with_move);
    if (!offered) this.dosWithMove = false;
    toggle.hidden = !offered;
    toggle.setAttribute("aria-pressed", String(this.dosWithMove));
    toggle.classList.toggle("lit", offered && !this.dosWithMove);
    $("learn-hint").textContent = this.dosWithMove ? t("web.dos_with_move_armed") : "";
  }

  /** The keyboard goes where the step's work is: a lit card, a lit button, else Next. */
  focusWork() {
    if (!this.shown || !this.answer) return;
    const next = !$("learn-finished").hidden && (!$("learn-next").hidden ? $("learn-next") : $("learn-play"));
    const target = next || /** @type {HTMLElement | null} */ (document.querySelector("#learn-hand .lit, #learn-actions .lit, #learn-catches .lit"))
      || /** @type {HTMLElement | null} */ (document.querySelector("#learn-hand button.card")) || $("learn-lesson-title");
    if (target) target.focus();
  }

  names() {
    const sizes = this.answer ? this.answer.view.hand_sizes : [];
    return sizes.map((/** @type {number} */ _, /** @type {number} */ seat) => (seat === this.answer.seat ? t("game.you") : t("game.bot_name", { number: seat })));
  }

  render() {
    const body = $("learn-body");
    if (!body) return;
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#view-learn [data-i18n-key]"))) node.textContent = t(/** @type {string} */ (node.dataset.i18nKey));
    $("learn-intro").textContent = t("learn.intro");
    $("learn-lessons-title").textContent = t("learn.lessons");
    this.renderLessons();
    const answer = this.answer;
    if (!answer) return;
    const section = $("view-learn").dataset;
    section.lesson = answer.lesson;
    section.status = answer.status;
    section.step = String(answer.step);
    section.answers = String(this.answers);  // for tests: how many answers came
    $("learn-progress").textContent = answer.status === "finished"
      ? `${t("learn.lesson_n", { number: answer.number, total: answer.lessons })} · ${t("learn.lesson_done")}`
      : `${t("learn.lesson_n", { number: answer.number, total: answer.lessons })} · ${t("learn.step_n", { step: answer.step + 1, steps: answer.steps })}`;
    $("learn-lesson-title").textContent = t(answer.title);
    $("learn-lesson-title").tabIndex = -1;
    $("learn-prompt").textContent = tWords(answer.prompt);
    const wrong = $("learn-wrong");
    wrong.hidden = !answer.explanation;
    wrong.textContent = answer.explanation ? `${t("learn.wrong")} ${tWords(answer.explanation)}` : "";
    const finished = answer.status === "finished";
    const last = answer.number === answer.lessons;
    $("learn-finished").hidden = !finished;
    $("learn-next").hidden = last;
    $("learn-play").hidden = !last;
    if (finished && last) $("learn-prompt").textContent = `${tWords(answer.prompt)} ${t("learn.all_done")}`;
    $("learn-hint").textContent = "";
    drawPlayers(answer, this.names());
    drawCenter(answer, (index) => this.matchOn(index));
    this.renderHand();
    drawButtons(answer, this.names(), (seat) => this.send(`catch ${seat}`));
    this.renderDosWithMove();
    this.renderMoves();
  }

  renderLessons() {
    const list = $("learn-lessons");
    list.replaceChildren();
    this.lessons.forEach((lesson) => {
      const li = el("li");
      const b = el("button", { className: "linkish learn-lesson" });
      b.type = "button";
      b.dataset.lesson = lesson.id;
      b.textContent = t(lesson.title);
      if (lesson.id === this.lessonId) b.setAttribute("aria-current", "step");
      b.addEventListener("click", () => this.start(lesson.id, lesson.id === this.lessonId ? this.actions : []));
      li.append(b);
      if (this.done.includes(lesson.id)) {
        const mark = el("span", { className: "learn-done", text: `✓ ${t("learn.state_done")}` });
        li.append(" ", mark);
      }
      list.append(li);
    });
  }

  renderHand() {
    drawHand(this.answer, this.selected, (index) => this.toggle(index));
  }

  /** What the other players did since the learner's last move, in the log's words. */
  renderMoves() {
    const moves = this.answer.moves || [];
    const names = this.names();
    $("learn-moves").hidden = !moves.length;
    $("learn-moves-title").textContent = t("learn.moves_title");
    const list = $("learn-moves-list");
    list.replaceChildren();
    for (const move of moves) {
      list.append(el("li", { text: describe(move.action, move.seat, { center: move.center, phase: move.phase }, names) }));
    }
  }

  /** @param {number} index */
  toggle(index) {
    if (!this.answer || this.answer.status === "finished") return;
    const at = this.selected.indexOf(index);
    if (at >= 0) this.selected.splice(at, 1);
    else {
      this.selected.push(index);
      if (this.selected.length > 2) this.selected.shift();
    }
    this.renderHand();
    $(`learn-hand-${index}`).focus();
  }

  /** @param {number} index */
  matchOn(index) {
    if (!this.selected.length) {
      $("learn-hint").textContent = t("web.hint_select_first");
      return;
    }
    const cards = this.selected.map((i) => this.answer.view.hand[i]);
    this.send(`${cards.join("+")}@${index}`, { move: true });
  }

  /** @param {string} kind */
  layOrPlace(kind) {
    if (this.selected.length !== 1) {
      $("learn-hint").textContent = t("web.hint_pick_lay");
      const first = /** @type {HTMLElement | null} */ (document.querySelector("#learn-hand .lit")) || $("learn-hand-0");
      if (first) first.focus();
      return;
    }
    this.send(`${kind} ${this.answer.view.hand[this.selected[0]]}`, { move: true });
  }

  /** The game's keys: 1-9 select, T a Center Row card, Enter matches on it (a button), D draw,
   * L lay, P place, E end, S DOS!, W DOS! with this move, C catch, Esc clears the selection.
   * @param {KeyboardEvent} event */
  onKey(event) {
    if (!this.shown || !this.answer) return;
    const target = event.target instanceof Element ? event.target : document.body;
    if (target.closest("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    const handled = () => event.preventDefault();
    if (/^[1-9]$/.test(key)) {
      const index = Number(key) - 1;
      if (index < this.answer.view.hand.length) {
        this.toggle(index);
        handled();
      }
    } else if (key === "t") {
      const first = /** @type {HTMLElement | null} */ (document.querySelector("#learn-center .lit")) || $("learn-center-0");
      if (first) first.focus();
      handled();
    } else if (key === "d") { this.send("draw"); handled(); }
    else if (key === "l") { this.layOrPlace("lay"); handled(); }
    else if (key === "p") { this.layOrPlace("place"); handled(); }
    else if (key === "e") { this.send("end"); handled(); }
    else if (key === "s") { this.send("dos"); handled(); }
    else if (key === "w") { this.toggleDosWithMove(); handled(); }
    else if (key === "c") {
      const first = /** @type {HTMLElement | null} */ (document.querySelector("#learn-catches button"));
      if (first) first.click();
      handled();
    } else if (key === "escape") {
      this.selected = [];
      this.renderHand();
      handled();
    } else if (key === "arrowright" || key === "arrowleft") {
      const active = document.activeElement;
      const row = active && active.closest ? active.closest("#learn-hand, #learn-center") : null;
      if (row) {
        const cards = [.../** @type {NodeListOf<HTMLElement>} */ (row.querySelectorAll("button.card"))];
        const at = cards.indexOf(/** @type {HTMLElement} */ (active)) + (key === "arrowright" ? 1 : -1);
        if (cards[at]) cards[at].focus();
        handled();
      }
    }
  }
}
