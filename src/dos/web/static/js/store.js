// @ts-check
// The page's one store: every piece of state the client changes while it runs, by slice. No
// other module keeps state of its own at module level (constants only): the game as this seat
// knows it (`game`, changed only by game.js's pure transitions, through dispatch.js), which
// view shows (`page`), the page's parts once made (`parts`), the rule sets' table views
// (`tables`), what loads on first use (`loading`), and the slices of the modules that need
// memory across calls (i18n, dialog, chat, attention, sound, session, leaderboard,
// tournaments).
// Importing it touches no page: node's tests make stores of their own (`createStore`).

import { initialGame } from "./game.js";

/**
 * @typedef {object} Store
 * @property {import("./view").Game} game
 * @property {{shown: string, beforeRules: string, rulesOpener: Element | null}} page
 * @property {import("./view").Info | null} info  GET /api/info, once loaded (rulesets.js)
 * @property {Promise<import("./view").Info> | null} infoLoading
 * @property {Parts} parts
 * @property {{views: Record<string, import("./view").TableViewLike>,
 *   clients: Record<string, import("./view").RulesClient>,
 *   tableClients: Record<string, import("./view").TableClient>,
 *   loading: Record<string, Promise<void>>}} tables  the rule sets' clients and table views
 * @property {{hints: Promise<void> | null, replay: Promise<import("./replay.js").ReplayView> | null,
 *   learn: Promise<import("./tutorial.js").LearnView> | null}} loading
 * @property {{lang: string, texts: Record<string, string>, fallback: Record<string, string>,
 *   listeners: Set<(code: string) => void>, parts: Set<string>,
 *   plurals: Map<string, Intl.PluralRules>, reported: Set<string>}} i18n
 * @property {{current: {resolve: (value: any) => void, returnFocus: Element | null} | null,
 *   listening: boolean}} dialog
 * @property {{panel: HTMLElement | null, home: Comment | null}} chat
 * @property {{wasMyTurn: boolean}} attention
 * @property {{context: AudioContext | null}} sound
 * @property {{listeners: Set<() => void>}} session
 * @property {Leaderboard} leaderboard
 * @property {Tournaments} tournaments
 */

/**
 * The page's parts, made once at boot (main.js) or at first use.
 * @typedef {object} Parts
 * @property {import("./net.js").Connection | null} conn  the table's connection
 * @property {import("./motion.js").Pacer | null} pacer
 * @property {import("./pause.js").Pause | null} pause
 * @property {import("./lobby.js").Lobby | null} lobby
 * @property {import("./invite.js").Invite | null} invite
 * @property {import("./chat.js").Chat | null} chat
 * @property {import("./playnow.js").PlayNow | null} playNow
 * @property {import("./hint.js").HintControl | null} hints
 * @property {import("./replay.js").ReplayView | null} replay
 * @property {import("./view").TableViewLike | null} table  the table view on show
 */

/**
 * The leaderboard page's (leaderboard.js): the board or player page the address names, and
 * the server's JSON on show.
 * @typedef {object} Leaderboard
 * @property {{board: string, rules: string, players: number, offset: number,
 *   player: string | null}} shown
 * @property {any} board  the board on show
 * @property {any} player  the player page on show (undefined: not found)
 * @property {string[]} rules  the rated rule sets (GET /api/info)
 * @property {boolean} loaded
 */

/**
 * The tournaments' pages' (tournamentpage.js): the tournament the address names (null: the
 * list), the list or the tournament on show, and the timer of its next look.
 * @typedef {object} Tournaments
 * @property {string | null} id
 * @property {any[]} list
 * @property {import("./tournament.js").Tournament | null} one
 * @property {ReturnType<typeof setTimeout> | undefined} timer
 * @property {number} skew  the server's clock less this browser's (seconds), as of `one`'s
 *   `now`: the countdown runs on this browser's clock between two loads
 * @property {number | null} skewOf  the `now` that `skew` was taken from
 */

/** A store as the page starts. @returns {Store} */
export function createStore() {
  return {
    game: initialGame(),
    page: { shown: "lobby", beforeRules: "lobby", rulesOpener: null },
    info: null,
    infoLoading: null,
    parts: {
      conn: null, pacer: null, pause: null, lobby: null, invite: null, chat: null,
      playNow: null, hints: null, replay: null, table: null,
    },
    tables: { views: {}, clients: {}, tableClients: {}, loading: {} },
    loading: { hints: null, replay: null, learn: null },
    i18n: {
      lang: "en", texts: {}, fallback: {}, listeners: new Set(), parts: new Set(),
      plurals: new Map(), reported: new Set(),
    },
    dialog: { current: null, listening: false },
    chat: { panel: null, home: null },
    attention: { wasMyTurn: false },
    sound: { context: null },
    session: { listeners: new Set() },
    leaderboard: {
      shown: { board: "people", rules: "", players: 2, offset: 0, player: null },
      board: null, player: null, rules: [], loaded: false,
    },
    tournaments: { id: null, list: [], one: null, timer: undefined, skew: 0, skewOf: null },
  };
}

/** The page's store. */
export const store = createStore();
