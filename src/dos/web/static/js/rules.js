// The rules page: the official rules and the classic ones in short (from the catalog, in the player's language),
// how to read the cards without colour, and the keyboard shortcuts.

import { t } from "./i18n.js";
import { cardElement, colourName, COLOURS } from "./cards.js";

const SECTIONS = [
  ["web.rules_goal_title", "web.rules_goal"],
  ["web.rules_cards_title", "web.rules_cards"],
  ["web.rules_turn_title", "web.rules_turn"],
  ["game.single_number_match", "web.rules_single"],
  ["game.double_number_match", "web.rules_double"],
  ["game.color_match_bonus", "web.rules_bonus"],
  ["web.rules_end_title", "web.rules_end"],
  ["game.dos_call", "web.rules_dos"],
  ["web.rules_scoring_title", "web.rules_scoring"],
];

const CLASSIC = ["classic.help_goal", "classic.help_turn", "classic.help_special",
  "classic.help_wild", "classic.help_reaction"];

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

function heading(text) {
  const h = document.createElement("h3");
  h.textContent = text;
  return h;
}

export function renderRules() {
  const body = document.getElementById("rules-body");
  body.replaceChildren();
  for (const [title, text] of SECTIONS) {
    const p = document.createElement("p");
    p.textContent = t(text);
    body.append(heading(t(title)), p);
  }
  const classic = document.createElement("section");
  classic.id = "rules-classic";
  classic.append(heading(t("web.rules_classic_title")));
  for (const key of CLASSIC) {
    const p = document.createElement("p");
    p.textContent = t(key);
    classic.append(p);
  }
  body.append(classic);
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
