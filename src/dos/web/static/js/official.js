// @ts-check
// The official rule set's client (rulesets.js maps it): its option fields in the create form
// (the target score is the lobby's, for every rule set that has one), and its table, words
// and cards (officialtable.js), loaded at its first table or replay.

import { fieldset } from "./lobby.js";

/** The official rule set's client. @type {import("./view").RulesClient} */
export default {
  optionsPanel: () => fieldset([
    { name: "dealer_starts", key: "web.opt_dealer_starts", checked: false },
    { name: "deal_passes_left", key: "web.opt_deal_passes_left", checked: false },
    { name: "bonus_lay_mandatory", key: "web.opt_bonus_lay_mandatory", checked: false },
  ]),
  optionsOf: (form) => ({
    dealer_starts: form.dealer_starts.checked,
    deal_passes_left: form.deal_passes_left.checked,
    bonus_lay_mandatory: form.bonus_lay_mandatory.checked,
  }),
  table: async () => (await import("./officialtable.js")).default,
};
