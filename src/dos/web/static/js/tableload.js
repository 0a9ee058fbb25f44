// @ts-check
// The table's modules: connection.js and what it brings (the table's drawing, its messages,
// its log, the host's controls, the round's summary, the Pacer that spaces the messages out),
// loaded when the page first opens a table, so that a visit to the lobby does not carry
// them. An address that names a table (/t/CODE) starts the loading at once (main.js).

import { t } from "./i18n.js";
import { store } from "./store.js";
import { showError } from "./views.js";

/** @typedef {{connection: typeof import("./connection.js"), render: typeof import("./render.js")}} TableModules */

/** @type {Promise<TableModules> | null} */
let loading = null;
/** @type {TableModules | null} */
let loaded = null;

/** The table's modules, loaded once (and the page's Pacer made with them); a failed load
 * (offline) is tried again at the next call. @returns {Promise<TableModules>} */
export function loadTable() {
  loading ||= Promise.all([import("./connection.js"), import("./render.js"), import("./motion.js")])
    .then(([connection, render, { Pacer }]) => {
      store.parts.pacer ||= new Pacer(connection.makePacerHandlers());
      loaded = { connection, render };
      return loaded;
    }).catch((error) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** The table's modules if loaded, else null: then no table has been opened, and there is
 * none to draw, to speak to or to leave. */
export function tableLoaded() {
  return loaded;
}

/** Opens table `code` (connection.js `enterTable`) once its modules are here; if they cannot
 * be loaded, says so. @param {string} code */
export async function enterTable(code) {
  let modules;
  try {
    modules = await loadTable();
  } catch {
    showError(t("web.error_offline"));
    return;
  }
  modules.connection.enterTable(code);
}

/** The seats' names in running text (render.js `names`); none before a table opened. */
export function names() {
  return loaded ? loaded.render.names() : [];
}
