// @ts-check
// One WebSocket to the game server that comes back by itself: after a drop it reconnects with
// growing pauses (0.5 s up to 5 s), and the caller's `onOpen` re-identifies the seat.

// Close codes after which coming back cannot help (docs/protocol.md): replaced by a newer
// connection of the same seat, protocol version, bad token, no such table.
const FATAL = new Set([4000, 4003, 4400, 4401, 4404]);

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
      if (!this.wanted || FATAL.has(event.code)) {
        this.wanted = false;
        this.onStatus("closed", event);
        return;
      }
      this.attempt += 1;
      this.onStatus("reconnecting", event);
      const pause = Math.min(5000, 500 * 2 ** Math.min(this.attempt - 1, 4));
      this.timer = setTimeout(() => this.connect(), pause);
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
