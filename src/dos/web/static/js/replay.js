// @ts-check
// The replay viewer: steps through a finished game (GET /api/games/{id}/replay, a page of
// frames at a time, fetched as the steps need them), all hands shown. It plays by itself
// (Play, a toggle: a step every AUTOPLAY_MS), and copies a link to the moment it shows,
// /replay/{id}?step=N, which opens the page on that step.

import { t } from "./i18n.js";
import { tableClientFor, loadInfo, can } from "./rulesets.js";
import { errorText, codeOf } from "./errors.js";
import { icon } from "./sound.js";
import { storedName } from "./seats.js";
import { ShufflePanel } from "./shuffle.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const AUTOPLAY_MS = 900;
const PLAY = "M8 5v14l11-7z";
const PAUSE = "M6 5h4v14H6zm8 0h4v14h-4z";

/** The address of a moment of a game: its replay at `step`. @param {number} gameId @param {number} step */
export function momentLink(gameId, step) {
  return `${location.origin}/replay/${encodeURIComponent(gameId)}?step=${step}`;
}

export class ReplayView {
  /** @param {{onClose: () => void}} handlers */
  constructor({ onClose }) {
    this.replay = null;
    /** @type {import("./view").TableClient | null} the client of the game's rule set */
    this.client = null;
    /** @type {import("./view").Frame[]} */
    this.frames = [];
    this.step = 0;
    this.wanted = 0;
    /** @type {{step: number, done: boolean} | null} */
    this.copied = null;  // {step, done}: the moment whose link was copied last
    $("replay-first").addEventListener("click", () => this.go(0));
    $("replay-prev").addEventListener("click", () => this.go(this.step - 1));
    $("replay-next").addEventListener("click", () => this.go(this.step + 1));
    $("replay-last").addEventListener("click", () => this.go(this.last()));
    $("replay-slider").addEventListener("input", (event) => this.go(Number(/** @type {HTMLInputElement} */ (event.target).value)));
    $("replay-play").addEventListener("click", () => this.setPlaying(!this.timer));
    $("replay-copy").addEventListener("click", () => this.copyLink());
    $("replay-close").addEventListener("click", () => {
      this.setPlaying(false);
      onClose();
    });
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
    this.showPlaying();
    this.review = null;  // the game's review, below the board: review.js, loaded with a replay
    /** @type {ShufflePanel | null} the shuffle check (shuffle.js), made with the first replay */
    this.shuffle = null;
    document.addEventListener("keydown", (event) => {
      if ($("view-replay").hidden || (event.target instanceof Element ? event.target : document.body).closest("input, select")) return;
      if (event.key === "ArrowRight") this.go(this.step + 1);
      else if (event.key === "ArrowLeft") this.go(this.step - 1);
      else if (event.key === "Home") this.go(0);
      else if (event.key === "End") this.go(this.last());
      else return;
      event.preventDefault();
    });
  }

  last() {
    return this.replay ? this.replay.total - 1 : 0;
  }

  /** One page of frames from `offset` (the server sends at most `limit` at once).
   * @param {number | null} gameId @param {number} offset */
  async fetchPage(gameId, offset) {
    const response = await fetch(`/api/games/${gameId}/replay?offset=${offset}`);
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      // The status goes with it: a game that does not exist is said so (views.js).
      throw Object.assign(new Error(errorText({ code: codeOf(data), status: response.status })), { status: response.status });
    }
    const page = await response.json();
    page.frames.forEach((/** @type {import("./view").Frame} */ frame, /** @type {number} */ i) => { this.frames[page.offset + i] = frame; });
    return page;
  }

  /** Loads a finished game at `step`; `names`: the players as the table calls them
   * ("Bot 2 (easy)"; else the game's own names). @param {number | null} gameId @param {string[]} [names] */
  async load(gameId, names = [], step = 0) {
    this.setPlaying(false);
    this.replay = null;
    this.frames = [];
    this.copied = null;
    const first = await this.fetchPage(gameId, 0);
    // The game's rule set: its client draws the table and says the actions.
    const [client] = await Promise.all([tableClientFor(first.rules), loadInfo().catch(() => null)]);
    this.client = client;
    this.replay = { ...first, gameId, frames: undefined };
    this.replay.players = first.players.map((/** @type {string} */ player, /** @type {number} */ seat) => names[seat] ?? storedName(player, seat));
    $field("replay-slider").max = String(this.last());
    if (!this.review) {
      const { ReviewPanel } = await import("./review.js");
      this.review = new ReviewPanel(this);
    }
    this.review.reset(gameId, this.replay.players, can(first.rules, "reviews"));
    this.shuffle ??= new ShufflePanel((step) => this.go(step));
    this.shuffle.show(gameId, first.shuffle);
    await this.go(step);
  }

  /** Autoplay on or off: a step every AUTOPLAY_MS, until the last step (or the view closes).
   * @param {boolean} on */
  setPlaying(on) {
    clearInterval(this.timer ?? undefined);
    this.timer = null;
    if (on && this.replay) {
      if (this.step >= this.last()) this.go(0);  // played to the end: from the deal again
      this.timer = setInterval(() => {
        if ($("view-replay").hidden || this.step >= this.last()) this.setPlaying(false);
        else this.go(this.step + 1);
      }, AUTOPLAY_MS);
    }
    this.showPlaying();
  }

  showPlaying() {
    const button = $("replay-play");
    button.setAttribute("aria-pressed", String(this.timer !== null));
    $("replay-play-icon").replaceChildren(icon(this.timer !== null ? PAUSE : PLAY));
  }

  /** Copies the link to the step shown, and shows it (to copy by hand where the page may not
   * write the clipboard: an address that is not https). */
  async copyLink() {
    if (!this.replay) return;
    const link = momentLink(this.replay.gameId, this.step);
    const field = $field("replay-link");
    field.value = link;
    this.copied = { step: this.step, done: false };
    this.showCopied();
    try {
      await navigator.clipboard.writeText(link);
      this.copied.done = true;
      this.showCopied();
    } catch {
      field.focus();
      field.select();
    }
  }

  /** The link and "Link copied." show while the step they are about shows. */
  showCopied() {
    const copied = this.copied;
    const here = copied !== null && copied.step === this.step;
    $("replay-link-box").hidden = !here;
    $("replay-copied").hidden = !(copied !== null && here && copied.done);
  }

  /** Shows `step`, fetching the pages it needs (the frame and the one before it). @param {number} step */
  async go(step) {
    if (!this.replay) return;
    const wanted = Math.max(0, Math.min(this.last(), step));
    this.wanted = wanted;
    for (const needed of [wanted - 1, wanted]) {
      if (needed < 0 || this.frames[needed]) continue;
      const offset = Math.floor(needed / this.replay.limit) * this.replay.limit;
      try {
        await this.fetchPage(this.replay.gameId, offset);
      } catch (error) {
        $("replay-action").textContent = /** @type {Error} */ (error).message;
        return;
      }
    }
    if (this.wanted !== wanted) return;  // a later step was asked for meanwhile
    this.step = wanted;
    $field("replay-slider").value = String(this.step);
    this.render();
  }

  render() {
    const { players } = this.replay;
    const client = /** @type {import("./view").TableClient} */ (this.client);
    const frames = this.frames;
    const frame = frames[this.step];
    const position = frame.position;
    $("replay-step").textContent = t("web.replay_step_n", { step: this.step, total: this.last() });
    this.showCopied();
    if (frame.action && this.step > 0) {
      const before = frames[this.step - 1].position;
      $("replay-action").textContent = client.describe(frame.action, before.turn, before, players);
    } else $("replay-action").textContent = t("web.replay_start");
    const board = $("replay-board");
    board.replaceChildren();
    const info = document.createElement("p");
    info.textContent = [
      t("game.round_number", { round: position.round ?? 1 }),
      t("game.turn_of", { player: players[position.turn] }),
    ].join(" · ");
    const hands = document.createElement("ul");
    hands.className = "replay-hands";
    (position.hands || []).forEach((hand, seat) => {
      const li = document.createElement("li");
      const head = document.createElement("strong");
      const score = position.scores ? position.scores[seat] : 0;
      head.textContent = `${players[seat]} · ${t("game.cards_count", { count: hand.length })} · ${t("game.points_count", { points: score })}`;
      const cards = document.createElement("div");
      cards.className = "cards";
      cards.setAttribute("aria-label", hand.map(client.cardLabel).join(", "));
      for (const card of hand) cards.append(client.cardElement(card));
      li.append(head, cards);
      hands.append(li);
    });
    board.append(info, ...client.replayCenter(position), hands);
    if (this.review) this.review.render();
  }
}
