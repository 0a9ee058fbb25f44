// The rule sets' views (their `view_json`, docs/protocol.md) as the page reads them. The
// protocol carries a view as a plain object (protocol.d.ts); these are written by hand, from
// dos.rules.official and dos.rules.classic. Not served: only for `tsc --noEmit`.

import type { SeatInfo } from "./protocol";

/** What both rule sets' views have. */
export interface CommonView {
  /** The seat this view is for; null: a spectator's. */
  seat: number | null;
  options: { [key: string]: unknown };
  turn: number;
  phase: string;
  /** The seat's cards (empty for a spectator: game.js `normalized`). */
  hand: string[];
  hand_sizes: number[];
  draw_pile_size: number;
  discard: string[];
  /** The seat's legal actions in notation (empty for a spectator). */
  legal: string[];
  /** The game's actions so far (in a `state`; the page adds each update's). */
  history?: string[];
}

/** One finished round of an official game (RULES.md §7). */
export interface RoundResult {
  round: number;
  winner: number;
  points: number;
  /** Each seat's cards left in hand. */
  hands: string[][];
}

/** The official rule set's view. */
export interface OfficialView extends CommonView {
  round: number;
  dealer: number;
  drew: boolean;
  center: string[];
  /** The matches of this turn: the Center Row card and the cards played on it. */
  matched: { target: number; cards: string[] }[];
  bonuses: { single: number; double: number };
  placements_left: number;
  penalties: number[];
  /** The seats with an open DOS obligation (two cards, no call yet). */
  dos_open: number[];
  scores: number[];
  winner: number | null;
  round_results: RoundResult[];
}

/** The reaction test of the classic rule set (RULES.md §9), timed by the server. */
export interface Reaction {
  seat: number;
  /** Where each target is, as fractions of the area (dos.rules.classic.views). */
  targets: { x: number; y: number }[];
  time_limit_ms: number;
  [key: string]: unknown;
}

/** The classic rule set's view (RULES.md §9). */
export interface ClassicView extends CommonView {
  rules: "classic";
  top: string;
  colour: string;
  direction: number;
  pending: number;
  reaction: Reaction | null;
  ranking: number[];
  starter: number;
}

/** Either view, as the store holds it (store.js `game.view`): what only one rule set has may be missing. */
export type View = CommonView &
  Partial<Omit<OfficialView, keyof CommonView>> &
  Partial<Omit<ClassicView, keyof CommonView>> & {
    /** A log brief's round count and last result (dos.server.tables.history). */
    rounds?: number;
    result?: RoundResult;
  };

/** An action in notation, parsed (actions.js `parseAction`). */
export interface ParsedAction {
  seat: number | null;
  kind: "match" | "draw" | "lay" | "end" | "place" | "dos" | "catch" | "other";
  cards: string[];
  /** The Center Row index of a match, the seat caught; -1 for the others. */
  target: number;
  text: string;
}

/** A player at the table as the table views draw them (render.js `model`). */
export interface Player extends SeatInfo {
  /** The name in running text ("Bot 2 (easy)" for a bot). */
  name: string;
  /** The name alone (seats.js `seatName`). */
  seatName: string;
  level: string | null;
}

/** The newest `state` or `update` received (motion.js `Pacer.latest`). */
export interface Received {
  version: number;
  view: View | null;
}

/** What a table view draws (render.js `model`). */
export interface TableModel {
  view: View | null;
  players: Player[];
  /** When the turn timer runs out (Date.now() milliseconds), or null. */
  deadline: number | null;
  timerSeat: number | null;
  timerPhase: string | null;
  latest: () => Received | null;
  receivedAt: number | null;
}

/** The game as this page knows it (store.js `store.game`; changed only by game.js's pure
 * transitions). */
export interface Game {
  /** The code of the table the page is at. */
  code: string | null;
  seat: number | null;
  table: import("./protocol").TableInfo | null;
  view: View | null;
  version: number;
  history: string[];
  /** The game's result once it is over (a `state`'s or `update`'s `result`). */
  result: { [key: string]: unknown } | null;
  /** When the turn timer runs out (Date.now() milliseconds). */
  deadline: number | null;
  timerSeat: number | null;
  timerPhase: string | null;
  /** When the state on show arrived (performance.now()). */
  receivedAt: number | null;
  /** The game whose end was shown. */
  overShownFor: number | null;
  /** The rounds whose summary was shown. */
  roundsShown: number;
  actionCount: number;
  /** The catches sent and not yet answered: action id -> the seat caught. */
  catches: { [id: string]: number };
  /** The code of a table to start once it shows (Play now). */
  autostart: string | null;
}

/** The `timer` part of a `state`, or a `timer` message. */
export interface TimerInfo {
  seat: number | null;
  seconds: number | null;
  phase: string | null;
}

/** What a table view of a rule set offers the page (table.js, classic.js, generic.js). */
export interface TableViewLike {
  model: TableModel | null;
  /** Whether its table is on show (the table's shared buttons and keys act on it only). */
  active: boolean;
  render(model: TableModel): void;
  renderTimer(): void;
  /** A newer state has arrived, not yet on show: what is decided on the newest state. */
  received?(): void;
  /** Another view takes the table: what it added to the page goes. */
  leave?(): void;
}

/** Sends one action in notation (connection.js `sendAction`): `dos`, with the DOS! call;
 * `caught`, the seat a catch tries to catch (a catch answered too late says so in the log). */
export type SendAction = (text: string, how?: { dos?: boolean; caught?: number }) => void;

/** What the page needs of one rule set (rulesets.js's map, or generic.js), the only place that
 * knows a rule set's own options, views, words and cards: what the lobby and the rules page
 * need at once, and its table's part, loaded at its first table or replay. */
export interface RulesClient {
  /** Its fields in the create form (a fieldset), or none. */
  optionsPanel?(): HTMLElement;
  /** Its options from the create form's fields. */
  optionsOf?(form: HTMLFormElement): { [key: string]: unknown };
  /** Its rules in short on the rules page: a title and paragraphs (catalog keys). */
  help?: { title: string; paragraphs: string[] };
  /** Its table, its words and its cards. */
  table(): Promise<TableClient>;
}

/** A rule set's table, words and cards (`RulesClient.table`). */
export interface TableClient {
  /** One action in words for the log and the replay, given the public view before it. */
  describe(action: string, seat: number, before: Partial<View> | null, names: string[]): string;
  /** What an action brought about (a round won, the game won), in the log's lines. */
  outcome(before: View, after: View, names: string[]): { text: string; kind: string }[];
  /** A card in words. */
  cardLabel(card: string): string;
  /** A card drawn. */
  cardElement(card: string): HTMLElement;
  /** The cards an action moves to the table, or null. */
  cardsMoved(action: string): string[] | null;
  /** The box where the cards of an action land on the table on show (none: they do not fly). */
  flyTarget(action: string): DOMRect | null;
  /** Its table view, made once for the page. */
  makeTableView(sendAction: SendAction): TableViewLike;
  /** The top of the game-over dialog: who won, and how. */
  ending(view: View, names: string[], result: { [key: string]: unknown } | null): Node;
  /** The middle of the table at one step of a finished game (the replay viewer draws the
   * hands around it). */
  replayCenter(position: View & { hands?: string[][] }): Node[];
}

/** A rule set as GET /api/info lists it (`rulesets`, in registration order). */
export type RulesetInfo = import("./protocol").RuleSetInfo;

/** GET /api/info. */
export type Info = import("./protocol").ServerInfo;

/** What the table's messages do to the page besides the game state (dispatch.js's handlers
 * call them; connection.js gives the page's own). */
export interface Effects {
  /** The table (or the waiting room) as the store says. */
  render(): void;
  renderTimer(): void;
  clearError(): void;
  /** Says a refusal (`game`: of an action of the game). */
  refusal(message: import("./protocol").ErrorMessage, options: { game: boolean }): void;
  clearLog(): void;
  logStep(action: string, seat: number, before: View | null, after: View): void;
  rebuildLog(message: ServerMessage & { type: "log" }): void;
  lateCatch(caught: number): void;
  sound(action: string, before: View | null, after: View | null): void;
  isOpen(kind: string): boolean;
  closeDialog(): void;
  openRoundSummary(): void;
  send(message: import("./protocol").ClientMessage): boolean;
  names(): string[];
  /** Says on <body> which action was refused. */
  refused(id: string): void;
  now(): number;
}

/** A seat as seats.js names it: a SeatInfo, or a stored game's bot (no `away`). */
export interface NamedSeat {
  name: string | null;
  bot: string | null;
  away?: boolean;
}

/** A card in notation, parsed (cards.js `parseCard`, or another deck's). */
export interface Card {
  name: string;
  /** Its colour's letter; null: a wild that has none. */
  colour: string | null;
  /** What its face shows large ("7", "#", "DOS"; another deck's own). */
  rank: string;
  number: number | null;
  wild: boolean;
  /** A wild's designation ("R" in "DOS=R"), or null. */
  designation: string | null;
}

/** How the cards of a deck read: parsed, in words, and the sign a face shows large. */
export interface Deck {
  parse(text: string): Card | null;
  label(text: string): string;
  sign(card: Card): string;
}

/** Server-sent words: a catalog key and its placeholders (i18n.js `tWords`). */
export type Words = {
  key: string;
  params?: { [name: string]: unknown } | null;
};

/** Sends a message on the table's connection (connection.js `send`). */
export type Send = (message: import("./protocol").ClientMessage) => unknown;

/** A player's account as the server says it (`GET /api/account`: dos.server.people.accounts
 * `AccountStatus`), as account.js reads it. */
export interface Account {
  player_id: string;
  registered: boolean;
  passkeys: { id: string; created_at: number; used_at: number | null; backed_up: boolean }[];
  recovery: boolean;
  player_token: string;
}

/** What the account panel shows (account.js `AccountPanel.state`). */
export type AccountState =
  | { kind: "anonymous"; account?: undefined }
  | { kind: "guest" | "registered"; account: Account };

/** A sign-in's answer (`/api/account/sign-in/finish`, `/recovery`). */
export interface SignedIn {
  player_id: string;
  player_token: string;
  name: string | null;
  account: Account;
}

/** One action of a `log` (dos.server.tables.history): its seat, a brief of the public view just
 * before it, and for the connection's own draws the cards drawn. */
export interface LogEntry {
  action: string;
  seat: number;
  before: View;
  drawn?: string[];
}

/** A server message as the page reads it: protocol.d.ts's, with its views as `View`. */
export type ServerMessage =
  | (Omit<import("./protocol").State, "view" | "timer"> & {
      view: View | null;
      timer: Omit<import("./protocol").Timer, "type"> | null;
    })
  | (Omit<import("./protocol").Update, "view"> & { view: View })
  | (Omit<import("./protocol").LogMessage, "entries" | "now"> & { entries: LogEntry[]; now: View })
  | Exclude<
      import("./protocol").ServerMessage,
      import("./protocol").State | import("./protocol").Update | import("./protocol").LogMessage
    >;

/** A server message as motion.js's Pacer hands it on: stamped with when it arrived. */
export type Arrived = ServerMessage & { receivedAt?: number };

/** A finished game's frame as replay.js reads it: the action that led there (null first)
 * and the position, a view with every hand (protocol.d.ts `ReplayFrame`). */
export interface Frame {
  action: string | null;
  position: View & { hands?: string[][] };
}

/** One reviewed decision (dos.review.review `Entry.to_json`), as review.js reads it. */
export interface ReviewEntry {
  index: number;
  chosen: string;
  best: string;
  game_before: number;
  game_chosen: number;
  loss: number;
  judgement: string | null;
}

/** A done review of one seat's game (review.js). */
export interface Review {
  entries: ReviewEntry[];
}

/** A player as the leaderboard page names them (GET /api/leaderboard, /api/players/{id}). */
export interface RankedPlayer {
  player_id: string;
  name: string;
  bot?: boolean;
  ai?: boolean;
}

/** One of a player's ratings (GET /api/players/{id} `ratings`), as leaderboard.js reads it. */
export interface Rating {
  rules: string;
  players: number;
  rating: number;
  mu: number;
  sigma: number;
  games: number;
  wins: number;
  provisional: boolean;
}

/** One rated game of a player's history: the rating before and after (leaderboard.js `plot`). */
export interface RatingPoint {
  rules: string;
  players: number;
  mu: number;
  sigma: number;
  mu_before: number;
  sigma_before: number;
}
