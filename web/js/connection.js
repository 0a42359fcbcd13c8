// The WebSocket to the server (subprotocol refreshkit.v1): hello first, resume with session/token,
// reconnect with exponential backoff + jitter, ping for clock sync and latency.
// Sessions (docs/PROTOCOL.md, "Sessions"): a hello with `session` and `token` resumes this page's member;
// `bad_token`, or a close with 4001 (the member was resumed by another connection), drops the token and
// joins the session as a new member instead.
// Frames come as deltas (docs/PROTOCOL.md, "delta"): a whole `frame` after each welcome, then `delta`s that
// are applied here, so every listener gets whole `frame` messages as before.
import { ClockSync, backoffDelay, socketUrl } from './clock.js';
import { applyDelta } from './delta.js';

export const PROTOCOL = 'refreshkit.v1';
/** The close code of a connection whose member was resumed on another connection. */
export const CLOSE_SESSION_TAKEN = 4001;
const PING_INTERVAL_MS = 2000;
const PING_BURST = 5;
const PING_BURST_SPACING_MS = 40;

export class Connection {
  /**
   * @param {object} o
   * @param {() => object} o.hello      builds the hello message (viewport, dpr, preset…)
   * @param {(msg: object, tRecv: number, raw: string) => void} o.onMessage  every server message except pong (and its
   *   text); a `delta` arrives as the whole `frame` it makes
   * @param {(status: object) => void} o.onStatus  {state: connecting|connected|reconnecting, retryAt?, attempt}
   * @param {string?} o.session  a session to join (or resume, with `token`) on the first hello
   * @param {(session: string, token: string?) => void} o.onTokenChange  the member token was issued or dropped
   */
  constructor({
    hello, onMessage, onStatus, url = socketUrl(location), now = () => performance.now(),
    session = null, token = null, onTokenChange = null,
  }) {
    this.url = url;
    this.buildHello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.now = now;
    this.clock = new ClockSync(8);
    this.ws = null;
    this.session = session;
    this.token = session ? token : null;
    this.onTokenChange = onTokenChange;
    this.helloOnce = null; // extra hello fields for the next connection only (a trace playback)
    this.attempt = 0;
    this.state = 'idle';
    this.retryAt = null;
    this.welcomed = false;
    this.timers = new Set();
    this.pingTimer = null;
    this.stopped = false;
    this.bytesIn = 0;    // characters of every text message received (≈ bytes: the JSON is ASCII); the debug panel's figures
    this.messagesIn = 0;
    this.frame = null;   // the frame the next delta applies to: null until a whole frame came on this connection
    this.deltasIn = 0;
  }

  get connected() {
    return this.state === 'connected';
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    this.clearTimers();
    if (this.ws) this.ws.close(1000, 'bye');
  }

  later(fn, ms) {
    const id = setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, ms);
    this.timers.add(id);
    return id;
  }

  clearTimers() {
    for (const id of this.timers) clearTimeout(id);
    this.timers.clear();
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  setState(state, extra = {}) {
    this.state = state;
    this.onStatus?.({ state, attempt: this.attempt, retryAt: this.retryAt, ...extra });
  }

  open() {
    this.clearTimers();
    this.welcomed = false;
    this.retryAt = null;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let ws;
    try {
      ws = new WebSocket(this.url, PROTOCOL);
    } catch (err) {
      console.error('websocket', err);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.frame = null;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.sendHello();
      this.clock.reset();
      for (let i = 0; i < PING_BURST; i++) this.later(() => this.ping(), i * PING_BURST_SPACING_MS);
      this.pingTimer = setInterval(() => this.ping(), PING_INTERVAL_MS);
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      const tRecv = this.now();
      if (typeof ev.data !== 'string') return;
      this.bytesIn += ev.data.length;
      this.messagesIn += 1;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        console.warn('refreshkit: a message that is not JSON');
        return;
      }
      if (!msg || typeof msg.type !== 'string') return;
      if (msg.type === 'pong') {
        this.clock.addSample(msg.t, tRecv, msg.serverT);
        this.onStatus?.({ state: this.state, attempt: this.attempt, rtt: this.clock.rtt });
        return;
      }
      if (msg.type === 'welcome') {
        if (typeof msg.session === 'string') this.session = msg.session;
        if (typeof msg.token === 'string') this.token = msg.token;
        this.helloOnce = null;
        if (this.session) this.onTokenChange?.(this.session, this.token);
        if (!this.clock.synced) this.clock.roughFromWelcome(msg.serverT, tRecv);
        this.welcomed = true;
        this.attempt = 0;
        this.frame = null; // the server sends a whole frame next
        this.setState('connected');
      }
      if (msg.type === 'frame') {
        this.frame = msg;
      } else if (msg.type === 'delta') {
        if (!this.frame) {
          console.warn('refreshkit: a delta with no frame to apply it to');
          return;
        }
        msg = applyDelta(this.frame, msg);
        this.frame = msg;
        this.deltasIn += 1;
      }
      if (msg.type === 'error' && msg.code === 'bad_token' && !this.welcomed) {
        // not this session's token (any more): join it as a new member
        this.dropToken();
        this.sendHello();
      }
      this.onMessage?.(msg, tRecv, ev.data);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      if (this.stopped) {
        this.setState('closed', { code: ev.code });
        return;
      }
      if (ev.code === CLOSE_SESSION_TAKEN) this.dropToken();
      this.scheduleReconnect(ev.code);
    };
    ws.onerror = () => {
      // onclose follows and schedules the reconnect
    };
  }

  sendHello() {
    const hello = { type: 'hello', frames: 'delta', ...this.buildHello(), ...(this.helloOnce ?? {}) };
    if (this.session) hello.session = this.session;
    if (this.token) hello.token = this.token;
    this.sendRaw(hello);
  }

  dropToken() {
    if (!this.token) return;
    this.token = null;
    if (this.session) this.onTokenChange?.(this.session, null);
  }

  /**
   * Leaves the session for a new one at once: the next hello carries no session or token, plus `hello`'s
   * fields (e.g. a trace's preset, viewport, dpr and seed).
   */
  restart({ hello = null } = {}) {
    this.session = null;
    this.token = null;
    this.helloOnce = hello;
    this.attempt = 0;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000, 'new session');
    this.stopped = false;
    this.open();
  }

  scheduleReconnect(code) {
    const delay = backoffDelay(this.attempt);
    this.attempt += 1;
    this.retryAt = this.now() + delay;
    this.setState('reconnecting', { code });
    this.later(() => this.open(), delay);
  }

  ping() {
    this.sendRaw({ type: 'ping', t: this.now() });
  }

  sendRaw(obj) {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1) return false;
    ws.send(JSON.stringify(obj));
    return true;
  }

  /** Sends a message once the session is open (inputs before welcome would only get not_ready). */
  send(obj) {
    if (!this.welcomed) return false;
    return this.sendRaw(obj);
  }

  serverNow(pageNow = this.now()) {
    return this.clock.serverNow(pageNow);
  }

  /** serverNow for drawing: the clock offset is slewed, never stepped (see ClockSync.displayOffset). */
  displayServerNow(pageNow) {
    return pageNow + this.clock.displayOffset(pageNow);
  }
}
