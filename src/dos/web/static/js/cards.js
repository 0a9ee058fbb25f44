// @ts-check
// The official deck's cards in notation ("R7", "B#", "DOS", "R#=4", "DOS=R") and how cards look.
// Colour is never the only clue: every card shows its colour's symbol and letter too. A deck
// ({parse, label, sign}) says how its cards read; the faces are drawn alike for every deck (a
// rule set with other cards brings its deck in its client, rulesets.js).

import { t } from "./i18n.js";

/** @type {Record<string, {name: string, symbol: string}>} */
export const COLOURS = {
  B: { name: "blue", symbol: "●" },
  G: { name: "green", symbol: "▲" },
  R: { name: "red", symbol: "■" },
  Y: { name: "yellow", symbol: "★" },
};
const ORDER = "BGRY";
const RANKS = ["1", "3", "4", "5", "6", "7", "8", "9", "10", "#"];

/** @typedef {import("./view").Card} Card */
/** @typedef {import("./view").Deck} Deck */

/** {colour: "R"|null, rank: "7"|"#"|"DOS", number: 7|null, wild, designation} or null.
 * @param {string} text @returns {Card | null} */
export function parseCard(text) {
  const [name, designation = null] = String(text).trim().toUpperCase().split("=");
  if (name === "DOS") {
    return { name, colour: null, rank: "DOS", number: 2, wild: true, designation };
  }
  const m = /^([BGRY])(10|[1-9]|#)$/.exec(name);
  if (!m) return null;
  const wild = m[2] === "#";
  return { name, colour: m[1], rank: m[2], number: wild ? null : Number(m[2]), wild, designation };
}

/** Engine order of card types (blue, green, red, yellow; 1, 3-10, #; DOS last). @param {string} text */
export function cardOrder(text) {
  const card = parseCard(text);
  if (!card) return 1000;
  if (card.name === "DOS") return 40;
  return ORDER.indexOf(String(card.colour)) * 10 + RANKS.indexOf(card.rank);
}

/** @param {string} letter */
export function colourName(letter) {
  return t(`game.colour_${COLOURS[letter].name}`);
}

/** The card in words, for screen readers and the log: "red 7", "Wild DOS as red". @param {string} text */
export function cardLabel(text) {
  const card = parseCard(text);
  if (!card) return String(text);
  if (card.name === "DOS") {
    return card.designation && COLOURS[card.designation]
      ? t("game.wild_dos_as", { colour: colourName(card.designation) })
      : t("game.wild_dos");
  }
  const colour = COLOURS[String(card.colour)].name;
  if (!card.wild) return t(`game.card_${colour}`, { number: card.number });
  const name = t(`game.wild_number_${colour}`);
  return card.designation ? t("game.wild_number_as", { card: name, number: card.designation }) : name;
}

/** The official deck. @type {Deck} */
export const DOS_DECK = { parse: parseCard, label: cardLabel, sign: (card) => (card.name === "DOS" ? "2" : card.rank) };

/** The face of a card: symbol and letter in a corner, its rank large.
 * @param {string} text @param {Deck} [deck] */
export function cardFace(text, deck = DOS_DECK) {
  const card = deck.parse(text);
  const face = document.createElement("span");
  face.className = "face";
  face.setAttribute("aria-hidden", "true");
  if (!card) {
    face.textContent = String(text);
    return face;
  }
  const corner = document.createElement("span");
  corner.className = "corner";
  const rank = document.createElement("span");
  rank.className = "rank";
  // A wild's corner holds the four colour symbols two by two, so that it fits any card size.
  const fourColours = () => {
    corner.classList.add("four");
    for (const symbol of ["●", "▲", "■", "★"]) {
      const one = document.createElement("span");
      one.textContent = symbol;
      corner.append(one);
    }
  };
  if (card.name === "DOS") {
    fourColours();
    rank.textContent = deck.sign(card);
    const word = document.createElement("span");
    word.className = "dosword";
    word.textContent = "DOS";
    face.append(corner, rank, word);
  } else if (!card.colour) {
    fourColours();
    rank.textContent = deck.sign(card);
    if (rank.textContent.length > 1) rank.classList.add("long");
    face.append(corner, rank);
  } else {
    corner.textContent = `${COLOURS[String(card.colour)].symbol}${card.colour}`;
    rank.textContent = deck.sign(card);
    if (rank.textContent.length > 1) rank.classList.add("long");
    const foot = document.createElement("span");
    foot.className = "corner foot";
    foot.textContent = COLOURS[String(card.colour)].symbol;
    face.append(corner, rank, foot);
  }
  if (card.designation) {
    const tag = document.createElement("span");
    tag.className = "designation";
    tag.textContent = `=${card.designation}`;
    face.append(tag);
  }
  return face;
}

/** A card element of `deck`: a button when `interactive`, else a plain item.
 * @param {string} text @param {{interactive?: boolean, extraClass?: string, deck?: Deck}} [how] */
export function cardElement(text, { interactive = false, extraClass = "", deck = DOS_DECK } = {}) {
  const card = deck.parse(text);
  const el = document.createElement(interactive ? "button" : "span");
  if (interactive) /** @type {HTMLButtonElement} */ (el).type = "button";
  el.className = `card ${card ? (card.colour ? `c-${card.colour}` : "c-wild") : "c-other"}`;
  if (card && card.wild) el.classList.add("wild");
  if (extraClass) el.classList.add(...extraClass.split(" ").filter(Boolean));
  el.dataset.card = String(text);
  el.setAttribute("aria-label", deck.label(text));
  if (!interactive) el.setAttribute("role", "img");
  el.append(cardFace(text, deck));
  return el;
}

/** Points a card left in hand scores (RULES.md §7). @param {string} text */
export function cardPoints(text) {
  const card = parseCard(text);
  if (!card) return 0;
  if (card.name === "DOS") return 20;
  if (card.wild) return 40;
  return card.number ?? 0;
}
