// @ts-check
// One WebSocket to the game server that comes back by itself: after a drop it reconnects with
// growing pauses (0.5 s up to 5 s), and the caller's `onOpen` re-identifies the seat.

// Close codes after which coming back cannot help (docs/protocol.md): the seat taken by a
// connection of another page, removed by the host, protocol version, bad token, banned by an
// admin, no such table. A seat taken by a connection of this very page (`pageId`: one of its own that came
// late, through another server process) is closed with 4012 instead, and this page comes
// back: it never gives up a seat it still holds.
const FATAL = new Set([4000, 4003, 4400, 4401, 4403, 4404]);

/** What a page does when its connection closed with `code`: "closed" for good, or
 * "reconnect" after `pause` ms (`attempt`: the tries since the last open, this one
 * included). A page that no longer wants the connection (it left the table) is closed.
 * @param {number} code @param {boolean} wanted @param {number} attempt
 * @returns {{next: "closed"} | {next: "reconnect", pause: number}} */
export function afterClose(code, wanted, attempt) {
  if (!wanted || FATAL.has(code)) return { next: "closed" };
  return { next: "reconnect", pause: Math.min(5000, 500 * 2 ** Math.min(attempt - 1, 4)) };
}

/** A new random id for a page's connections (`?page=` on /ws/{code}): the server tells the
 * page's own connections apart from another page's. */
export function pageId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return "p" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @typedef {import("./view").ServerMessage} ServerMessage */
/** @typedef {import("./protocol").ClientMessage} ClientMessage */

export class Connection {
  /**
   * @param {() => string} url  the address to (re)connect to, asked anew on every attempt
   * @param {{onOpen?: (conn: Connection) => void, onMessage?: (message: ServerMessage) => void,
   *   onStatus?: (status: string, event?: CloseEvent) => void}} handlers
   *   onStatus("connecting"|"open"|"reconnecting"|"closed")
   */
  constructor(url, { onOpen = () => {}, onMessage = () => {}, onStatus = () => {} } = {}) {
    this.url = url;
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.wanted = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  open() {
    this.wanted = true;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.onStatus("open");
      this.onOpen(this);
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      const then = afterClose(event.code, this.wanted, this.attempt + 1);
      if (then.next === "closed") {
        this.wanted = false;
        this.onStatus("closed", event);
        return;
      }
      this.attempt += 1;
      this.onStatus("reconnecting", event);
      this.timer = setTimeout(() => this.connect(), then.pause);
    });
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends a JSON message; false when the socket is not open (the caller shows it).
   * @param {ClientMessage} message */
  send(message) {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.wanted = false;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
