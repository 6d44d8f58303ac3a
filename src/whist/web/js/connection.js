// One table's WebSocket: reconnects with a short back-off (capped at 3 s, and at once when
// the page becomes visible or the network comes back), asks for a snapshot when a
// version is skipped, keeps each action until it is acknowledged, pings every 20 s.
//
// Nothing is lost or applied twice: an action keeps its message id until its ack (or an
// error) arrives. After a reconnect the server sends a fresh state first; a pending action
// that is no longer legal there was applied before the connection dropped (or is moot), so
// it is dropped; one that is still legal is re-sent once with the same id. The server
// answers duplicate_message for an id it already applied: that counts as done.
//
// A club of several servers may give more than one address for its sockets (GET
// /api/config): each new socket goes to the next one, so a dead server is left behind at
// once (any server of the club serves any table).

import { config } from "./config.js";

const PING_MS = 20000;
const PONG_TIMEOUT_MS = 10000;
// A restarted server is back within seconds: a player should not wait longer than this for
// the next try (each try is one cheap connection attempt).
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 3000;

// How long to wait before try number ``attempt`` + 1 (0 for the first retry): doubling from
// 0.5 s with ±20 % jitter (so that a club's pages do not all knock at the same instant),
// never over 3 s. ``random`` is a number in [0, 1). Pure, for node --test.
export function backoffDelay(attempt, random) {
  const base = FIRST_BACKOFF_MS * 2 ** Math.min(attempt, 10);
  return Math.min(MAX_BACKOFF_MS, Math.round(base * (0.8 + random * 0.4)));
}

// Whole seconds left until ``at`` (ms), as a countdown shows them: 2.1 s left reads "3 s".
export function secondsLeft(at, now) {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

// The WebSocket address of a table for the ``attempt``-th try: the club's socket addresses
// in turn (``bases``, e.g. ["wss://a.example.com"]), or the page's own server when none are
// configured. Pure, for node --test.
export function socketUrl(tableId, attempt, bases, page) {
  const path = `/ws/tables/${encodeURIComponent(tableId)}`;
  if (bases && bases.length) return bases[attempt % bases.length].replace(/\/+$/, "") + path;
  const scheme = page.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${page.host}${path}`;
}

export function sameAction(action, legal) {
  const kind = Object.keys(action)[0];
  return legal.some((item) => Object.prototype.hasOwnProperty.call(item, kind) && item[kind] === action[kind]);
}

export class TableConnection {
  constructor(tableId, handlers) {
    this.tableId = tableId;
    this.handlers = handlers; // onState, onTable, onAck, onError, onXp, onStatus, onHint
    this.ws = null;
    this.version = null;
    this.fresh = true; // the next state follows a (re)connect: a jump is expected
    this.pending = new Map(); // id -> {action, resent}
    this.checkPending = false;
    this.attempt = 0;
    this.stopped = false;
    this.status = "connecting";
    this.counter = 0;
    this.bases = [];
    // Sockets opened so far: the next one goes to the next address (from a random one, so
    // that the pages of a club spread over its servers).
    this.tries = Math.floor(Math.random() * 1000);
    this.reconnectTimer = null;
    this.pingTimer = null;
    this.awaitingPong = false;
    this.pongTimer = null;
    this.lastSnapshotAsk = 0;
    this.onOnline = () => this.reconnectNow();
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    };
  }

  start() {
    window.addEventListener("online", this.onOnline);
    document.addEventListener("visibilitychange", this.onVisible);
    this.bases = config.sockets;
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("visibilitychange", this.onVisible);
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    if (this.handlers.onStatus) this.handlers.onStatus(status, this.attempt);
  }

  url() {
    return socketUrl(this.tableId, this.tries++, this.bases, location);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.fresh = true;
      this.checkPending = this.pending.size > 0;
      this.awaitingPong = false;
      this.setStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_MS);
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    };
    ws.onclose = (event) => {
      clearInterval(this.pingTimer);
      clearTimeout(this.pongTimer);
      if (this.ws === ws) this.ws = null;
      if (this.stopped) return;
      if (event.code === 4404) {
        this.setStatus("gone");
        return;
      }
      if (event.code === 4403) {
        this.setStatus("forbidden");
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  async tableExists() {
    // A browser cannot see the server's close code for a refused handshake (4404 arrives as
    // a failed connection), so after a few failures ask over HTTP whether the table is there.
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}`, { credentials: "same-origin" });
      return response.status !== 404;
    } catch {
      return true; // the server is unreachable: keep trying
    }
  }

  scheduleReconnect() {
    if (this.stopped || this.reconnectTimer) return;
    if (this.attempt >= 2 && this.attempt % 2 === 0) {
      this.reconnectTimer = -1; // reserved while we ask
      this.tableExists().then((exists) => {
        this.reconnectTimer = null;
        if (this.stopped) return;
        if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
        if (!exists) this.setStatus("gone");
        else this.backOff();
      });
      return;
    }
    this.backOff();
  }

  backOff() {
    if (this.stopped) return;
    this.setStatus("reconnecting");
    const delay = backoffDelay(this.attempt, Math.random());
    this.attempt += 1;
    if (this.handlers.onStatus) this.handlers.onStatus("reconnecting", this.attempt, delay);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  reconnectNow() {
    if (this.stopped) return;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    if (this.reconnectTimer === -1) return; // asking whether the table still exists
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.connect();
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  ping() {
    if (this.awaitingPong) {
      // No pong for a whole period: the connection is dead even if the socket says open.
      if (this.ws) this.ws.close();
      return;
    }
    if (this.send({ type: "ping" })) {
      this.awaitingPong = true;
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => {
        if (this.awaitingPong && this.ws) this.ws.close();
      }, PONG_TIMEOUT_MS);
    }
  }

  askSnapshot() {
    const now = Date.now();
    if (now - this.lastSnapshotAsk < 500) return;
    this.lastSnapshotAsk = now;
    this.send({ type: "snapshot" });
  }

  behind(version) {
    if (typeof version === "number" && this.version !== null && version > this.version) this.askSnapshot();
  }

  receive(message) {
    switch (message.type) {
      case "state": {
        if (this.version !== null && message.version < this.version) return; // stale
        if (!this.fresh && this.version !== null && message.version > this.version + 1) {
          this.askSnapshot(); // a version was skipped
        }
        const first = this.fresh; // the snapshot that follows a (re)connect
        this.fresh = false;
        this.version = message.version;
        if (this.checkPending) {
          this.checkPending = false;
          this.resendPending(message.view);
        }
        this.handlers.onState(message, first);
        break;
      }
      case "table":
        this.behind(message.version);
        if (this.handlers.onTable) this.handlers.onTable(message.table);
        break;
      case "ack":
        this.pending.delete(message.id);
        this.behind(message.version);
        if (this.handlers.onAck) this.handlers.onAck(message.id);
        break;
      case "error": {
        this.behind(message.version);
        const known = message.id !== undefined && message.id !== null && this.pending.has(message.id);
        if (known) this.pending.delete(message.id);
        if (message.code === "duplicate_message") {
          if (this.handlers.onAck) this.handlers.onAck(message.id); // it was applied
          break;
        }
        if (this.handlers.onError) this.handlers.onError(message.code, message.message, known);
        break;
      }
      case "xp":
        if (this.handlers.onXp) this.handlers.onXp(message.gained);
        break;
      case "hint": // advice (or why none) for this connection alone
        this.behind(message.version);
        if (this.handlers.onHint) this.handlers.onHint(message);
        break;
      case "pong":
        this.awaitingPong = false;
        clearTimeout(this.pongTimer);
        this.behind(message.version);
        break;
      default:
        break;
    }
  }

  resendPending(view) {
    for (const [id, entry] of Array.from(this.pending)) {
      const stillLegal = entry.action.resign ? !view.over : sameAction(entry.action, view.legal || []);
      if (entry.resent || !stillLegal) {
        this.pending.delete(id); // applied before the drop, or no longer possible
        if (this.handlers.onAck) this.handlers.onAck(id);
        continue;
      }
      entry.resent = true;
      this.send({ type: "act", id, action: entry.action });
    }
  }

  get busy() {
    return this.pending.size > 0;
  }

  // Ask for a hint (MASTER's choice for the seat's decision now); its id, or null when not
  // connected (a hint is not worth re-sending after a reconnect: the position may move on).
  hint() {
    this.counter += 1;
    const id = `h${Date.now().toString(36)}-${this.counter}`;
    return this.send({ type: "hint", id }) ? id : null;
  }

  act(action) {
    if (this.pending.size > 0) return null; // one decision at a time
    this.counter += 1;
    const id = `m${Date.now().toString(36)}-${this.counter}`;
    this.pending.set(id, { action, resent: false });
    if (!this.send({ type: "act", id, action })) {
      // Not connected: it goes out (once) after the reconnect, if still legal then.
      this.checkPending = true;
      this.reconnectNow();
    }
    return id;
  }
}
