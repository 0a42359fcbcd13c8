// The WebSocket to the server (subprotocol refreshkit.v1): hello first, resume with session/token,
// reconnect with exponential backoff + jitter, ping for clock sync and latency.
// Sessions (docs/PROTOCOL.md, "Sessions"): a hello with `session` and `token` resumes this page's member;
// `bad_token`, or a close with 4001 (`CloseCode.sessionTaken`: the member was resumed by another connection),
// drops the token and joins the session as a new member instead. The wire's names are in js/protocol.js.
// Every message goes into the page's store (js/store.js), which applies the deltas (docs/PROTOCOL.md, "delta")
// and holds the session, the token and the frame; listeners get whole `frame` messages.
// Touches go out as binary messages (js/protocol.js, encodeBinaryTouch) to a server whose welcome says it reads
// them: its JSON decode is the server's largest cost per input. Every other message is JSON.
import { ClockSync, backoffDelay, socketUrl } from './clock.js';
import {
  CloseCode, ErrorCode, NORMAL_CLOSURE, PROTOCOL, encodeBinaryTouch, readsBinaryTouch, roleMay,
} from './protocol.js';
import { Store } from './store.js';

const PING_INTERVAL_MS = 2000;
const PING_BURST = 5;
const PING_BURST_SPACING_MS = 40;

export class Connection {
  /**
   * @param {object} o
   * @param {() => object} o.hello      builds the hello message (viewport, dpr, preset…)
   * @param {(msg: object, tRecv: number, raw: string, previousFrame: object?) => void} o.onMessage  every server
   *   message except pong (and its text, and the frame the store held before it); a `delta` arrives as the whole
   *   `frame` it makes
   * @param {(status: object) => void} o.onStatus  {state: connecting|connected|reconnecting, retryAt?, attempt}
   * @param {Store} o.store  the page's store: the session and token of the first hello (join, or resume with
   *   a token), and where every message goes
   * @param {(session: string, token: string?) => void} o.onTokenChange  the member token was issued or dropped
   */
  constructor({
    hello, onMessage, onStatus, url = socketUrl(location), now = () => performance.now(),
    store = new Store(), onTokenChange = null,
  }) {
    this.url = url;
    this.node = null; // the process holding the session, from the last welcome (routedUrl)
    this.buildHello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.now = now;
    this.clock = new ClockSync(8);
    this.ws = null;
    this.store = store;
    this.onTokenChange = onTokenChange;
    this.helloOnce = null; // extra hello fields for the next connection only (a trace playback)
    this.attempt = 0;
    this.state = 'idle';
    this.retryAt = null;
    this.welcomed = false;
    this.binaryTouch = false; // the last welcome on this socket said the server reads binary touches
    this.timers = new Set();
    this.pingTimer = null;
    this.stopped = false;
    this.bytesIn = 0;    // characters of every text message received (≈ bytes: the JSON is ASCII); the debug panel's figures
    this.messagesIn = 0;
  }

  get session() {
    return this.store.session;
  }

  get deltasIn() {
    return this.store.deltas;
  }

  get connected() {
    return this.state === 'connected';
  }

  /** Whether `send` would send now: welcomed, and the socket open. */
  get ready() {
    return this.welcomed && this.ws?.readyState === 1;
  }

  /** Whether the page is on its way back to a session it had (its inputs are kept for it: js/inputs.js). */
  get resuming() {
    return !this.stopped && !this.ready && Boolean(this.store.session && this.store.token);
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    this.clearTimers();
    if (this.ws) this.ws.close(NORMAL_CLOSURE, 'bye');
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
    this.binaryTouch = false; // the next server may be an older one: JSON until its welcome says otherwise
    this.retryAt = null;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let ws;
    try {
      ws = new WebSocket(this.routedUrl(), PROTOCOL);
    } catch (err) {
      console.error('websocket', err);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.store.connectionOpened();
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
      const previousFrame = this.store.frame;
      const out = this.store.receive(msg);
      if (!out) {
        console.warn(`refreshkit: a ${msg.type} that could not be used (a delta with no frame to apply it to)`);
        return;
      }
      msg = out;
      if (msg.type === 'welcome') {
        this.helloOnce = null;
        this.node = typeof msg.node === 'string' ? msg.node : null;
        if (this.store.session) this.onTokenChange?.(this.store.session, this.store.token);
        if (!this.clock.synced) this.clock.roughFromWelcome(msg.serverT, tRecv);
        this.welcomed = true;
        this.binaryTouch = readsBinaryTouch(msg); // before onMessage, which may resend the kept inputs
        this.attempt = 0;
        this.setState('connected');
      }
      if (msg.type === 'error' && msg.code === ErrorCode.badToken && !this.welcomed) {
        // not this session's token (any more): join it as a new member
        this.dropToken();
        this.sendHello();
      }
      if (msg.type === 'error' && msg.code === ErrorCode.sessionElsewhere) this.goElsewhere(msg);
      this.onMessage?.(msg, tRecv, ev.data, previousFrame);
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
      if (ev.code === CloseCode.sessionTaken) this.dropToken();
      this.scheduleReconnect(ev.code);
    };
    ws.onerror = () => {
      // onclose follows and schedules the reconnect
    };
  }

  /**
   * The socket's URL with the session it is for: `s` (the session id) and, once a welcome named it, `n` (the
   * process holding it). A balancer in front of several processes routes by them (docs/SCALING.md); the
   * server reads only the hello, whose `session` stays authoritative.
   */
  routedUrl() {
    if (!this.store.session) return this.url;
    let url;
    try {
      url = new URL(this.url);
    } catch {
      return this.url;
    }
    url.searchParams.set('s', this.store.session);
    if (this.node) url.searchParams.set('n', this.node);
    return url.toString();
  }

  /**
   * `session_elsewhere`: another process holds the session (docs/SCALING.md, "Who holds a session"). The page
   * connects again naming it (`n`), which the balancer routes there; the reconnection backs off as any other,
   * so a balancer that keeps sending it back cannot make it spin. Once welcomed, only the one that answers no
   * message (no `ref`): the process serving the session lost it to a newer holder ("Fencing"). Returns whether
   * it goes.
   */
  goElsewhere(msg) {
    if (this.welcomed && msg.ref !== undefined) return false;
    if (typeof msg.node !== 'string' || !msg.node || !this.ws) return false;
    this.node = msg.node;
    this.ws.close(NORMAL_CLOSURE, 'session elsewhere');
    return true;
  }

  sendHello() {
    const hello = { type: 'hello', frames: 'delta', ...this.buildHello(), ...(this.helloOnce ?? {}) };
    if (this.store.session) hello.session = this.store.session;
    if (this.store.token) hello.token = this.store.token;
    if (this.store.key && this.store.session) hello.key = this.store.key;
    this.sendRaw(hello);
  }

  dropToken() {
    if (!this.store.token) return;
    this.store.setToken(this.store.session, null);
    if (this.store.session) this.onTokenChange?.(this.store.session, null);
  }

  /**
   * Leaves the session for a new one at once: the next hello carries no session or token, plus `hello`'s
   * fields (e.g. a trace's preset, viewport, dpr and seed).
   */
  restart({ hello = null } = {}) {
    this.node = null;
    this.store.session = null;
    this.store.token = null;
    this.helloOnce = hello;
    this.attempt = 0;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(NORMAL_CLOSURE, 'new session');
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
    const binary = this.binaryTouch ? encodeBinaryTouch(obj) : null; // null: not a touch, or not spellable so
    ws.send(binary ?? JSON.stringify(obj));
    return true;
  }

  /**
   * Sends a message once the session is open (inputs before welcome would only get not_ready), and only what
   * the member's role may send (a watch page sends no input: docs/PROTOCOL.md, "Roles").
   */
  send(obj) {
    if (!this.welcomed || !roleMay(this.store.role, obj?.type)) return false;
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
