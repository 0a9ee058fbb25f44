// @ts-check
// The rules page: the rules of DOS, each with a worked example drawn with the game's own card
// faces (rule_examples.json, which tests/web/test_rule_examples_engine.py plays in the engine),
// links to the tutorial (/learn), the other rule sets' rules in short (each from its client,
// rulesets.js), how to read the cards without colour, and the keyboard shortcuts. Every word
// from the catalog, in the player's language.

import { t } from "./i18n.js";
import { cardElement, colourName, cardOrder, COLOURS } from "./cards.js";
import EXAMPLES from "./rule_examples.json" with { type: "json" };
import { LEARN_URL } from "./newcomer.js";
import { loadInfo, rulesets, clientFor } from "./rulesets.js";


// Each rule of DOS in the order of a turn: its title, its text, the rule whose worked
// example follows it (the `rule` of an example in rule_examples.json), and whether it links
// to the tutorial (the rules a newcomer practises there).
const SECTIONS = [
  { title: "web.rules_goal_title", text: "web.rules_goal" },
  { title: "web.rules_cards_title", text: "web.rules_cards" },
  { title: "guide.rule_deal_title", text: "guide.rule_deal", rule: "deal" },
  { title: "web.rules_turn_title", text: "web.rules_turn", learn: true },
  { title: "game.single_number_match", text: "web.rules_single", rule: "single" },
  { title: "game.double_number_match", text: "web.rules_double", rule: "double", learn: true },
  { title: "game.wild_dos", text: "guide.rule_wild_dos", rule: "wild_dos" },
  { title: "guide.rule_wild_number_title", text: "guide.rule_wild_number", rule: "wild_number" },
  { title: "game.color_match_bonus", text: "web.rules_bonus", rule: "bonus" },
  { title: "game.double_color_match", text: "guide.rule_double_color", rule: "double_color", learn: true },
  { title: "guide.rule_draw_title", text: "guide.rule_draw", rule: "draw" },
  { title: "guide.rule_lay_title", text: "guide.rule_lay", rule: "lay" },
  { title: "web.rules_end_title", text: "web.rules_end" },
  { title: "game.dos_call", text: "web.rules_dos", rule: "dos", learn: true },
  { title: "web.rules_scoring_title", text: "web.rules_scoring", rule: "scoring" },
  { title: "guide.rule_game_end_title", text: "guide.rule_game_end", rule: "game_end" },
];

const KEYS = [
  ["1 … 9", "web.key_select"],
  ["T", "web.key_targets"],
  ["← →", "web.key_arrows"],
  ["Enter / Space", "web.key_activate"],
  ["D", "web.key_draw"],
  ["L", "web.key_lay"],
  ["P", "web.key_place"],
  ["E", "web.key_end"],
  ["S", "web.key_dos"],
  ["W", "web.key_dos_with_move"],
  ["C", "web.key_catch"],
  ["Esc", "web.key_escape"],
  ["H", "web.key_hand"],
  ["?", "web.key_rules"],
  ["1 … 9", "web.key_reaction"],
];

/** @param {string} text */
function heading(text) {
  const h = document.createElement("h3");
  h.textContent = text;
  return h;
}

/** @param {string} key */
function learnLink(key) {
  const a = document.createElement("a");
  a.href = LEARN_URL;
  a.className = "learn-link";
  a.textContent = t(key);
  return a;
}

/** @param {string[]} list */
function cards(list, { target = -1 } = {}) {
  const row = document.createElement("span");
  row.className = "ex-cards";
  for (const [i, card] of list.entries()) {
    row.append(cardElement(card, { extraClass: i === target ? "ex-target" : "" }));
  }
  return row;
}

/** One line of an example (`name`: what it shows, for the tests): its words, then cards.
 * @param {string} name @param {string} label @param {Node[]} parts */
function line(name, label, ...parts) {
  const div = document.createElement("div");
  div.className = "ex-line";
  div.dataset.line = name;
  const span = document.createElement("span");
  span.className = "ex-label";
  span.textContent = label;
  div.append(span, ...parts);
  return div;
}

/** @param {string[]} hand */
function sortedHand(hand) {
  return [...hand].sort((a, b) => cardOrder(a) - cardOrder(b));
}

/** A match in notation ("B3+G4@0", "Y#=8@0"): its cards and the Center Row index. @param {string} move */
function parseMatch(move) {
  const m = /^(.+)@(\d+)$/.exec(move);
  return m ? { cards: m[1].split("+"), target: Number(m[2]) } : null;
}

/** The worked example, drawn as the table draws cards: the Center Row (its target lit), the
 * hand, each move in words and cards, what it is, and the outcome.
 * @param {(typeof EXAMPLES)[number]} example */
export function exampleFigure(example) {
  const figure = document.createElement("figure");
  figure.className = "rule-example";
  figure.dataset.example = example.id;
  const moves = example.moves || [];
  const first = moves.length ? parseMatch(moves[0]) : null;
  // The score before the round, where the example is about the game's end.
  if (example.scores) figure.append(line("score", t("guide.ex_score_before", { score: example.scores[0] })));
  figure.append(line("center", t("game.center_row"), cards(example.center, { target: first ? first.target : -1 })));
  figure.append(line("hand", t("game.your_hand"), cards(sortedHand(example.hand))));
  let drawn = 0;
  for (const move of moves) {
    const match = parseMatch(move);
    if (match) {
      const played = document.createElement("span");
      played.className = "ex-cards";
      for (const [i, card] of match.cards.entries()) {
        if (i) played.append(document.createTextNode(" + "));
        played.append(cardElement(card));
      }
      const parts = [played];
      if (example.kind && move === moves[0]) {
        const kind = document.createElement("strong");
        kind.className = "ex-kind";
        const arrow = document.createElement("span");
        arrow.setAttribute("aria-hidden", "true");
        arrow.textContent = "→ ";
        kind.append(arrow, t(`game.${example.kind}`));
        parts.push(kind);
      }
      figure.append(line("play", t("guide.ex_you_play"), ...parts));
    } else if (move === "draw") {
      figure.append(line("draw", t("guide.ex_you_draw"), cards([/** @type {string[]} */ (example.draw_pile)[drawn++]])));
    } else if (move.startsWith("lay ")) {
      figure.append(line("lay", t("guide.ex_you_lay"), cards([move.slice(4)])));
    } else if (move.startsWith("place ")) {
      figure.append(line("place", t("guide.ex_you_place"), cards([move.slice(6)])));
    } else if (/catch/.test(move)) {
      figure.append(line("catch", t("guide.ex_caught")));
    }
  }
  if (example.center_after) figure.append(line("after", t("guide.ex_center_after"), cards(example.center_after)));
  if (example.points !== undefined) {
    const hands = document.createElement("span");
    hands.className = "ex-hands";
    for (const hand of example.others) hands.append(cards(sortedHand(hand)));
    figure.append(line("others", t("guide.ex_others"), hands));
    figure.append(line("points", t("guide.ex_points", { points: example.points })));
  }
  const caption = document.createElement("figcaption");
  caption.textContent = t(`guide.example_${example.id}`);
  figure.append(caption);
  return figure;
}

/** The rule sets' rules in short, from their clients: [name, help]. */
async function helps() {
  await loadInfo().catch(() => null);  // (offline: the rules of DOS alone)
  const clients = await Promise.all(rulesets().map(async (ruleset) => [
    ruleset.name, await clientFor(ruleset.name).then((client) => client.help, () => undefined),
  ]));
  return /** @type {[string, {title: string, paragraphs: string[]}][]} */ (clients.filter(([, help]) => help));
}

export async function renderRules() {
  const others = await helps();
  const body = /** @type {HTMLElement} */ (document.getElementById("rules-body"));
  body.replaceChildren();
  const intro = document.createElement("p");
  intro.className = "learn-intro";
  intro.append(document.createTextNode(`${t("guide.learn_intro")} `), learnLink("guide.learn_link"));
  body.append(intro);
  for (const section of SECTIONS) {
    const part = document.createElement("section");
    part.className = "rule";
    if (section.rule) part.dataset.rule = section.rule;
    const p = document.createElement("p");
    p.textContent = t(section.text);
    part.append(heading(t(section.title)), p);
    for (const example of EXAMPLES.filter((e) => e.rule === section.rule)) part.append(exampleFigure(example));
    if (section.learn) {
      const tryIt = document.createElement("p");
      tryIt.append(learnLink("guide.learn_try"));
      part.append(tryIt);
    }
    body.append(part);
  }
  for (const [name, help] of others) {
    const section = document.createElement("section");
    section.id = `rules-${name}`;
    section.append(heading(t(help.title)));
    for (const key of help.paragraphs) {
      const p = document.createElement("p");
      p.textContent = t(key);
      section.append(p);
    }
    body.append(section);
  }
  body.append(heading(t("web.rules_legend_title")));
  const legend = document.createElement("p");
  legend.className = "example";
  for (const letter of Object.keys(COLOURS)) {
    const item = document.createElement("span");
    item.className = "example";
    item.append(cardElement(`${letter}7`), document.createTextNode(` ${COLOURS[letter].symbol} ${letter} = ${colourName(letter)} `));
    legend.append(item);
  }
  legend.append(cardElement("R#"), cardElement("DOS"));
  const legendText = document.createElement("p");
  legendText.textContent = t("web.rules_legend");
  body.append(legend, legendText);
  body.append(heading(t("web.keys_title")));
  const list = document.createElement("dl");
  for (const [keys, text] of KEYS) {
    const dt = document.createElement("dt");
    for (const [i, key] of keys.split(" / ").entries()) {
      if (i) dt.append(" / ");
      const kbd = document.createElement("kbd");
      kbd.textContent = key;
      dt.append(kbd);
    }
    const dd = document.createElement("dd");
    dd.textContent = t(text);
    list.append(dt, dd);
  }
  body.append(list);
}
