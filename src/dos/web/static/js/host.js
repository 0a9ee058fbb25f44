// @ts-check
// Who sits where, in the page: the host's controls over the seats (docs/protocol.md, "Seats
// and the host"), the note on who is gone, and who stays for the next game. The server
// decides; these only send `replace`, `remove`, `set_seat`, `make_host` and `allow_hints`.
//
// - At a casual table of people: the host's switch that allows hints, beside the actions
//   (shown before any hint code is loaded: hint.js loads once hints are allowed).
// - Waiting room and between games: each seat of the list gets the host's buttons: remove a
//   player, make them host; give an open seat a bot (at a level), open a bot's seat.
// - During a game: a bar names each player who is not connected and offers the host to have
//   a bot play for them at once (or to remove them); everyone else reads that the table waits
//   for them, and that a bot takes over after the grace. The host may hand the role on to a
//   player who is here.
// - After a game: who stays (the players at the table: the rematch deals only them) and who
//   has gone; the host reads that the empty seats, and those of players not at the table, get
//   bots at the rematch, and may give them bots of a level, or wait for people to join.

import { t } from "./i18n.js";
import { seatText } from "./seats.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {string} label @param {() => void} onClick */
function button(label, onClick, { secondary = true, id = null } = {}) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = secondary ? "secondary small" : "primary small";
  el.textContent = label;
  if (id) el.id = id;
  el.addEventListener("click", onClick);
  return el;
}

/** @param {SeatInfo} seat */
function person(seat) {
  return seat.name !== null && seat.name !== undefined && !seat.bot;
}

/** The level the host last chose for an open seat, by table and seat: the seats are drawn
 * again at every update of the table (someone connects, a spectator comes), and a choice made
 * before it must still be what "add a bot" sends after it.
 * @type {Map<string, string>} */
const chosenLevels = new Map();

/** The level an open seat's select shows: the host's last choice there, else medium (else
 * the first level).
 * @param {string} key @param {string[]} levels */
export function shownLevel(key, levels) {
  const chosen = chosenLevels.get(key);
  if (chosen !== undefined && levels.includes(chosen)) return chosen;
  return levels.includes("medium") ? "medium" : levels[0];
}

/** @typedef {import("./protocol").SeatInfo} SeatInfo @typedef {import("./protocol").TableInfo} TableInfo */
/** The host's buttons for one seat between games (none for the host's own seat).
 * @param {TableInfo} table @param {SeatInfo} seat @param {number | null} me
 * @param {import("./view").Send} send @param {string[]} levels */
function seatControls(table, seat, me, send, levels) {
  const box = document.createElement("span");
  box.className = "host-controls";
  const label = seatText(seat, seat.seat);
  if (person(seat) && seat.seat !== me) {
    if (seat.connected && !seat.away) {
      const make = button(t("web.make_host"), () => send({ type: "make_host", seat: seat.seat }));
      make.setAttribute("aria-label", `${t("web.make_host")}: ${label}`);
      make.dataset.control = "make_host";
      box.append(make);
    }
    const remove = button(t("web.remove_player"), () => send({ type: "remove", seat: seat.seat }));
    remove.setAttribute("aria-label", `${t("web.remove_player")}: ${label}`);
    remove.dataset.control = "remove";
    box.append(remove);
  } else if (seat.bot) {
    const open = button(t("web.open_bot_seat"), () => send({ type: "set_seat", seat: seat.seat, bot: null }));
    open.setAttribute("aria-label", `${t("web.open_bot_seat")}: ${label}`);
    open.dataset.control = "open";
    box.append(open);
  } else if (!person(seat) && levels.length) {
    const select = document.createElement("select");
    select.className = "small";
    select.setAttribute("aria-label", t("web.bot_level_of", { bot: label }));
    for (const level of levels) {
      const option = document.createElement("option");
      option.value = level;
      option.textContent = t(`web.level_${level}`);
      select.append(option);
    }
    const key = `${table.code}/${seat.seat}`;
    select.value = shownLevel(key, levels);
    select.addEventListener("change", () => chosenLevels.set(key, select.value));
    const add = button(t("web.add_bot"), () => send({ type: "set_seat", seat: seat.seat, bot: select.value }));
    add.setAttribute("aria-label", `${t("web.add_bot")}: ${label}`);
    add.dataset.control = "add_bot";
    box.append(select, add);
  }
  return box;
}

/** Adds the host's buttons to the waiting room's seat list (`#seat-list li[data-seat]`).
 * @param {TableInfo} table @param {number | null} me @param {import("./view").Send} send @param {string[]} levels */
export function renderWaiting(table, me, send, levels) {
  if (me === null || me !== table.host) return;
  for (const li of $("seat-list").querySelectorAll("li[data-seat]")) {
    const seat = table.seats[Number(/** @type {HTMLElement} */ (li).dataset.seat)];
    if (seat) li.append(seatControls(table, seat, me, send, levels));
  }
}

/**
 * The host's switch that allows hints (a pure function, tests/js/actions.test.js): it shows
 * to the host of a casual table of a rule set that has hints with more than one person (a
 * person alone with bots has hints without asking), and is on while the table allows them.
 * @param {{hints?: boolean, rated: boolean, host: number,
 *   seats: {name: string | null, bot: string | null}[]} | null} table @param {number | null} seat
 * @param {boolean} offered  the table's rule set has hints
 */
export function hintSwitch(table, seat, offered) {
  const people = table ? table.seats.filter((s) => s.name !== null && !s.bot).length : 0;
  return {
    hidden: !(offered && table !== null && !table.rated && seat !== null && seat === table.host
      && people > 1),
    allowed: Boolean(table && table.hints),
  };
}

/** The host's switch that allows hints at a casual table of people (`allow_hints`), beside
 * the table's actions; made once, whether or not the hint code (hint.js) is loaded.
 * @param {TableInfo} table @param {number | null} me @param {import("./view").Send} send
 * @param {boolean} hintsOffered  the table's rule set has hints */
function renderHintSwitch(table, me, send, hintsOffered) {
  let line = document.getElementById("hint-allow-line");
  if (!line) {
    line = document.createElement("p");
    line.id = "hint-allow-line";
    line.className = "hint-allow";
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = "hint-allow";
    box.addEventListener("change", () => send({ type: "allow_hints", allowed: box.checked }));
    label.append(box, " ", document.createElement("span"));
    line.append(label);
    $("actions").after(line);
  }
  const state = hintSwitch(table, me, hintsOffered);
  line.hidden = state.hidden;
  /** @type {HTMLInputElement} */ (line.querySelector("input")).checked = state.allowed;
  /** @type {HTMLElement} */ (line.querySelector("span")).textContent = t("web.hint_allow");
}

/** During a game, the host may hand the role on to any other player who is here (one button
 * each, `make_host`). @param {TableInfo} table @param {number | null} me
 * @param {import("./view").Send} send @param {HTMLElement} bar */
function handOnLine(table, me, send, bar) {
  const here = table.seats.filter((s) => person(s) && s.seat !== me && s.connected && !s.away);
  if (!here.length) return;
  const line = document.createElement("p");
  line.className = "hand-host";
  for (const seat of here) {
    const name = seatText(seat, seat.seat);
    const make = button(t("web.make_host_named", { name }), () => send({ type: "make_host", seat: seat.seat }));
    make.dataset.control = "make_host";
    make.dataset.seat = String(seat.seat);
    line.append(make);
  }
  bar.append(line);
}

/** The bar under the status bar during a game, and the seats between games; the host's
 * switch that allows hints.
 * @param {TableInfo} table @param {number | null} me @param {import("./view").Send} send
 * @param {string[]} levels @param {boolean} hintsOffered  the table's rule set has hints */
export function renderTable(table, me, send, levels, hintsOffered) {
  renderHintSwitch(table, me, send, hintsOffered);
  const bar = $("host-bar");
  bar.replaceChildren();
  const host = me !== null && me === table.host;
  if (table.status === "playing") {
    for (const seat of table.seats) {
      if (!person(seat) || seat.connected || seat.away) continue;
      const line = document.createElement("p");
      line.className = "absent";
      line.dataset.seat = String(seat.seat);
      const text = document.createElement("span");
      text.textContent = t(host ? "web.absent_host" : "web.absent", { name: seatText(seat, seat.seat) });
      line.append(text);
      if (host) {
        const now = button(t("web.replace_now"), () => send({ type: "replace", seat: seat.seat }), { secondary: false });
        now.dataset.control = "replace";
        const remove = button(t("web.remove_player"), () => send({ type: "remove", seat: seat.seat }));
        remove.dataset.control = "remove";
        line.append(now, remove);
      }
      bar.append(line);
    }
    if (host) handOnLine(table, me, send, bar);
  } else if (table.status === "finished") {
    // The rematch deals the players at the table (a connection); the seats of the others
    // open to bots, as the empty ones.
    const staying = table.seats.filter((s) => person(s) && s.connected);
    const gone = table.seats.filter((s) => !s.bot && !(person(s) && s.connected));
    const line = document.createElement("p");
    line.className = "who-stays";
    line.textContent = t("web.staying", { names: staying.map((s) => seatText(s, s.seat)).join(", ") || "—" });
    bar.append(line);
    if (gone.length) {
      const note = document.createElement("p");
      note.className = "who-stays";
      note.textContent = t(host ? "web.empty_seats_host" : "web.empty_seats", { count: gone.length });
      bar.append(note);
    }
    if (host) {
      const list = document.createElement("ul");
      list.className = "seat-list host-seats";
      list.setAttribute("aria-label", t("web.seats"));
      for (const seat of table.seats) {
        if (seat.seat === me) continue;
        const li = document.createElement("li");
        li.dataset.seat = String(seat.seat);
        const name = document.createElement("span");
        name.textContent = person(seat) || seat.bot ? seatText(seat, seat.seat) : t("web.open_seat");
        li.append(name, seatControls(table, seat, me, send, levels));
        list.append(li);
      }
      bar.append(list);
    }
  }
  bar.hidden = !bar.children.length;
}
