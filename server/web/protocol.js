// The websocket connection: connect, send with a `ref`, reconnect with backoff; and what
// to resume after a (re)connection.
//
// The connection knows nothing of rooms: on every `open` the app says hello, and on the
// welcome sends `resumeMessages(...)`. Each sent message gets a `ref` so an `error` can be
// traced back to the message that caused it. `moveTo` follows a `route` frame: a second
// socket to the node's path takes over once welcomed (the app resumes on it, so the page
// never shows a reconnect); if it is lost later, reconnecting goes back to `/`.

const BACKOFF = [0.5, 1, 2, 4, 8, 15]; // seconds before each reconnect attempt
const PING_EVERY = 25_000; // ms: an application ping to notice a dead connection
const PING_GRACE = 10_000; // ms to wait for its pong

export function serverUrl(loc = window.location, path = '/') {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${path}`;
}

// A `route` frame's path, if it is one this page may follow: a plain path on its own host.
export function routePath(frame) {
  const path = frame?.path;
  return typeof path === 'string' && /^\/(?!\/)[\w.\-/]{0,100}$/.test(path) ? path : null;
}

export class Connection {
  // handlers: onFrame(frame, sent), onState(state, detail), onOpen()
  constructor(url, handlers) {
    this.url = url;
    this.home = url; // where to reconnect after losing a connection that moved
    this.h = handlers;
    this.ws = null;
    this.state = 'closed';
    this.attempt = 0;
    this.timer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.seq = 0;
    this.sent = new Map(); // ref -> message, the latest few hundred
    this.stopped = false;
    this.moving = null; // the socket a `moveTo` is opening
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws) return;
    this.setState('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setState('open');
      this.keepAlive();
      this.h.onOpen?.();
    };
    this.listen(ws);
  }

  listen(ws) {
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!frame || typeof frame.type !== 'string') return;
      if (frame.type === 'pong' && frame.ref?.startsWith('ka')) {
        clearTimeout(this.pongTimer);
        return;
      }
      const sent = frame.ref ? this.sent.get(frame.ref) ?? null : null;
      this.h.onFrame(frame, sent);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopKeepAlive();
      if (this.stopped) {
        this.setState('closed');
        return;
      }
      this.url = this.home;
      this.scheduleReconnect(event.code);
    };
    ws.onerror = () => {}; // onclose follows and handles it
  }

  // Move to another node's URL: a second socket says `hello` (the message given); the old
  // one serves until the new one's `welcome`, which then goes to the app (onFrame: it
  // resumes there) while the old one closes. Nothing is sent in between on the new one, so
  // the app's commands after the welcome follow its resumes.
  moveTo(url, hello) {
    if (!this.isOpen || url === this.url || this.moving || !hello) return;
    let next;
    try {
      next = new WebSocket(url);
    } catch {
      return;
    }
    this.moving = next;
    const giveUp = () => {
      if (this.moving !== next) return;
      this.moving = null;
      next.close(); // that node did not answer, or refused: stay
    };
    next.onerror = () => {};
    next.onclose = giveUp;
    next.onopen = () => next.send(JSON.stringify({ ...hello, ref: `mv${++this.seq}` }));
    next.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame?.type !== 'welcome') {
        giveUp();
        return;
      }
      const old = this.ws;
      this.moving = null;
      if (!old || this.stopped) {
        next.close();
        return;
      }
      this.ws = next;
      this.url = url;
      this.listen(next);
      this.keepAlive();
      old.close(); // (its last frames still come in; its close goes unnoticed)
      this.h.onFrame(frame, null);
    };
  }

  scheduleReconnect(code = null) {
    const base = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
    const delay = base * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.setState('closed', { retryIn: delay, code });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay * 1000);
  }

  // Reconnect now (the page came back to the foreground or the network returned).
  nudge() {
    if (!this.ws && !this.stopped) this.connect();
  }

  // Close and reconnect (a connection that stopped answering).
  drop() {
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      this.stopKeepAlive();
      try {
        ws.close();
      } catch {
        // already closing
      }
      this.scheduleReconnect();
    }
  }

  setState(state, detail = {}) {
    this.state = state;
    this.h.onState?.(state, detail);
  }

  // Send a message; returns its ref, or null when not connected.
  send(message) {
    if (!this.isOpen) return null;
    const ref = message.ref ?? `m${++this.seq}`;
    const full = { ...message, ref };
    this.sent.set(ref, full);
    if (this.sent.size > 300) this.sent.delete(this.sent.keys().next().value);
    this.ws.send(JSON.stringify(full));
    return ref;
  }

  keepAlive() {
    this.stopKeepAlive();
    this.pingTimer = setInterval(() => {
      if (!this.isOpen) return;
      this.ws.send(JSON.stringify({ type: 'ping', ref: `ka${++this.seq}` }));
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => this.drop(), PING_GRACE);
    }, PING_EVERY);
  }

  stopKeepAlive() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pingTimer = null;
    this.pongTimer = null;
  }
}

// The resumes to send after a welcome: every room we follow from its last applied version
// (finished or closed rooms are gone from the server), then every room the server says we
// sit in that we do not know yet, from version 0 (a snapshot).
//   followed: [{roomId, version, done}]   seated: welcome.rooms
export function resumeMessages(followed, seated) {
  const out = [];
  const known = new Set();
  for (const room of followed) {
    known.add(room.roomId);
    if (!room.done) out.push({ type: 'resume', room_id: room.roomId, version: room.version });
  }
  for (const room of seated ?? []) {
    if (!known.has(room.room_id)) out.push({ type: 'resume', room_id: room.room_id, version: 0 });
  }
  return out;
}
