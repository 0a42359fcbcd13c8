// The WebSocket to the server (subprotocol refreshkit.v1): hello first, resume with session/token,
// reconnect with exponential backoff + jitter, ping for clock sync and latency.
import { ClockSync, backoffDelay, socketUrl } from './clock.js';

export const PROTOCOL = 'refreshkit.v1';
const PING_INTERVAL_MS = 2000;
const PING_BURST = 5;
const PING_BURST_SPACING_MS = 40;

export class Connection {
  /**
   * @param {object} o
   * @param {() => object} o.hello      builds the hello message (viewport, dpr, preset…)
   * @param {(msg: object, tRecv: number) => void} o.onMessage  every server message except pong
   * @param {(status: object) => void} o.onStatus  {state: connecting|connected|reconnecting, retryAt?, attempt}
   */
  constructor({ hello, onMessage, onStatus, url = socketUrl(location), now = () => performance.now() }) {
    this.url = url;
    this.buildHello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.now = now;
    this.clock = new ClockSync(8);
    this.ws = null;
    this.session = null;
    this.token = null;
    this.attempt = 0;
    this.state = 'idle';
    this.retryAt = null;
    this.welcomed = false;
    this.timers = new Set();
    this.pingTimer = null;
    this.stopped = false;
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
    ws.onopen = () => {
      if (ws !== this.ws) return;
      const hello = { type: 'hello', ...this.buildHello() };
      if (this.session) hello.session = this.session;
      if (this.token) hello.token = this.token;
      this.sendRaw(hello);
      this.clock.reset();
      for (let i = 0; i < PING_BURST; i++) this.later(() => this.ping(), i * PING_BURST_SPACING_MS);
      this.pingTimer = setInterval(() => this.ping(), PING_INTERVAL_MS);
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      const tRecv = this.now();
      if (typeof ev.data !== 'string') return;
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
        if (!this.clock.synced) this.clock.roughFromWelcome(msg.serverT, tRecv);
        this.welcomed = true;
        this.attempt = 0;
        this.setState('connected');
      }
      this.onMessage?.(msg, tRecv);
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
      this.scheduleReconnect(ev.code);
    };
    ws.onerror = () => {
      // onclose follows and schedules the reconnect
    };
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
