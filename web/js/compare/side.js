// One side of compare mode: a preset's own session (its own WebSocket, `hello` with that preset, its own store,
// prediction and renderer) drawn on its own canvas. The compare page (js/compare/page.js) gives every input to
// both sides; each side numbers, predicts and sends it on its own connection and draws its own frames with its
// own preset's indicators. The wiring follows the normal page's (js/app.js) for the parts compare mode keeps:
// the connection, the prediction and its reconciliation, the canvas and its tap targets.
import { Connection } from '../connection.js';
import { Store } from '../store.js';
import { Predictor, DrawnOffset } from '../prediction.js';
import { InputChannel } from '../inputs.js';
import { frameAt } from '../edgeFollow.js';
import { Renderer } from '../renderer.js';
import { EdgeStateClock } from '../controls/stateClock.js';
import { DEFAULT_SLOT } from '../controls/geometry.js';
import { LIBRARIES } from '../panel/seedNames.js';
import { ErrorCode } from '../protocol.js';

/** Events kept per side for `window.refreshkit.compare()` (the store keeps its own last 200). */
const KEPT_EVENTS = 400;

export class CompareSide {
  /**
   * @param {object} o
   * @param {string} o.preset                 the preset this side's session runs (its hello names it)
   * @param {HTMLCanvasElement} o.canvas      where it draws
   * @param {object} o.theme                  the renderer's colours (js/renderer.js readTheme)
   * @param {boolean} o.predict               whether the display follows the prediction (?predict=0: no)
   * @param {(side: CompareSide, msg: object) => void} o.onMessage  every server message, after this side took it
   * @param {(side: CompareSide) => void} o.onStatus  the connection's state changed
   * @param {string} [o.url]                  the WebSocket address (the page's own server by default)
   */
  constructor({ preset, canvas, theme, predict = true, onMessage = () => {}, onStatus = () => {}, url }) {
    this.preset = preset;
    this.library = LIBRARIES[preset] ?? null;
    this.canvas = canvas;
    this.onMessageOut = onMessage;
    this.store = new Store({ preset });
    this.predictor = new Predictor({ enabled: predict, configOf: () => this.store.config });
    this.drawn = new DrawnOffset(this.predictor);
    this.renderer = new Renderer(canvas);
    this.renderer.theme = theme;
    this.renderer.fit();
    this.renderer.controls.attach({ send: (msg) => this.conn.send(msg), onChange: () => { this.dirty = true; } });
    this.stateClock = new EdgeStateClock();
    this.status = { state: 'connecting' };
    this.refused = null;      // the error that refused this side's hello (an unknown preset), if any
    this.dirty = true;
    this.pendingResize = false;
    this.taps = [];
    this.shown = { x: 0, y: 0 };
    this.lastUpdated = null;
    this.framesIn = [];
    this.events = [];         // every event this session sent (the last KEPT_EVENTS)
    this.conn = new Connection({
      store: this.store,
      ...(url ? { url } : {}),
      hello: () => ({ viewport: this.viewportSize(), dpr: this.renderer.dpr, preset: this.preset }),
      onMessage: (msg, tRecv, raw, previousFrame) => this.handle(msg, tRecv, previousFrame),
      onStatus: (s) => {
        this.status = { ...this.status, ...s };
        onStatus(this);
      },
    });
    this.inputs = new InputChannel({
      conn: this.conn, predictor: this.predictor, frameOf: () => this.store.frame,
      serverNowOf: (pageNow) => this.drawingServerNow(pageNow),
    });
  }

  start() {
    this.conn.start();
  }

  stop() {
    this.conn.stop();
  }

  get connected() {
    return this.conn.connected;
  }

  viewportSize() {
    return { w: Math.max(1, Math.round(this.renderer.cssW)), h: Math.max(1, Math.round(this.renderer.cssH)) };
  }

  /** The canvas's box changed: fit it, and tell the server the new viewport on the next loop turn. */
  refit() {
    const before = this.viewportSize();
    this.renderer.fit();
    const after = this.viewportSize();
    this.dirty = true;
    if (before.w !== after.w || before.h !== after.h) this.pendingResize = true;
  }

  /** The server time the side draws at, without moving the display clock's slew (js/clock.js). */
  drawingServerNow(pageNow) {
    return pageNow + (this.conn.clock.applied ?? this.conn.clock.offset);
  }

  /** Changes what the prediction stands on without a jump on screen (js/app.js `rebase`). */
  rebase(previousFrame, change) {
    const now = performance.now();
    const result = this.drawn.rebase(previousFrame, () => this.store.frame, this.drawingServerNow(now), now, change);
    this.dirty = true;
    return result;
  }

  handle(msg, tRecv, previousFrame) {
    switch (msg.type) {
      case 'welcome':
        this.rebase(this.store.frame, () => this.inputs.onWelcome(msg, performance.now()));
        break;
      case 'frame':
        this.rebase(previousFrame, () => this.predictor.onFrame(msg, tRecv));
        this.stateClock.update(msg.edges, tRecv);
        this.framesIn.push(tRecv);
        break;
      case 'event':
        this.events.push(msg);
        if (this.events.length > KEPT_EVENTS) this.events.splice(0, this.events.length - KEPT_EVENTS);
        if (msg.name === 'feedLoaded' && this.store.config?.edges?.[msg.edge]?.role === 'refresh') {
          this.lastUpdated = new Date();
        }
        break;
      case 'error':
        if (Number.isInteger(msg.seq)) this.rebase(this.store.frame, () => this.predictor.onError(msg));
        // a hello refused for what it asks (an unknown preset); a stale token is the connection's to handle
        if (msg.ref === 'hello' && !this.conn.welcomed && msg.code !== ErrorCode.badToken) this.refused = msg;
        console.warn(`refreshkit (${this.preset}): ${msg.code}: ${msg.message}`);
        break;
      default:
        break;
    }
    this.dirty = true;
    this.onMessageOut(this, msg);
  }

  /** A touch or wheel message from either list: a copy is numbered, predicted and sent on this side's connection. */
  sendInput(input) {
    if (!this.inputs.send({ ...input }, performance.now())) return false;
    this.dirty = true;
    return true;
  }

  /** A command, a key's message, a tap target's message: sent as it is. */
  send(msg) {
    return this.conn.send(msg);
  }

  /** The message of this side's tap target under `pt` (canvas px), if any (a footer's "tap to retry"). */
  tapAt(pt) {
    const tap = this.taps.find(({ rect: r }) => pt.x >= r.x && pt.x <= r.x + r.w && pt.y >= r.y && pt.y <= r.y + r.h);
    return tap ? tap.message : null;
  }

  /** One animation frame: tells the server a new size, and draws when anything moved or changed. */
  tick(now, { reducedMotion }) {
    if (this.pendingResize && this.conn.send({ type: 'resize', viewport: this.viewportSize() })) this.pendingResize = false;
    const serverNow = this.conn.displayServerNow(now);
    const frame = this.store.frame;
    const shown = this.drawn.at(frame, serverNow, now);
    const busy = (frame?.edges || []).some((e) => e.state === 'refreshing' || e.state === 'finishing'
      || this.stateClock.age(e.edge, now) < 400);
    if (this.dirty || shown.moving || busy) {
      this.dirty = false;
      // a predicted or blended offset: the edges follow it (their states stay the server's)
      const picture = shown.predicted || shown.blending ? frameAt(frame, shown, this.store.config) : frame;
      const out = this.renderer.draw(picture, shown, {
        config: this.store.config,
        preset: this.preset,
        clock: now,
        serverNow,
        reducedMotion,
        lastUpdated: this.lastUpdated,
        stateClock: this.stateClock,
        slotFor: (edge) => this.slotFor(edge),
      });
      this.taps = out.taps;
      this.shown = { x: shown.x, y: shown.y };
    }
    return serverNow;
  }

  /** The indicator slot depth of an edge: its configured height when the server told us, else 60 px. */
  slotFor(edge) {
    const h = this.store.config?.edges?.[edge]?.height;
    return Number.isFinite(h) && h > 0 ? h : DEFAULT_SLOT;
  }

  /** Frames received in the last second. */
  framesPerSecond(now) {
    while (this.framesIn.length && now - this.framesIn[0] > 1000) this.framesIn.shift();
    return this.framesIn.length;
  }

  /** The edge worth naming in the side's label: the first that is not idle (top first), else the top. */
  headline() {
    const edges = this.store.frame?.edges || [];
    const busy = edges.find((e) => e.state !== 'idle' && e.state !== 'disabled');
    const e = busy ?? edges.find((x) => x.edge === 'top') ?? edges[0];
    return e ? { edge: e.edge, state: e.state } : null;
  }

  /** What `window.refreshkit.compare()` reports for this side. */
  snapshot() {
    const frame = this.store.frame;
    return {
      preset: this.preset,
      library: this.library,
      connected: this.connected,
      session: this.store.session,
      predicting: this.predictor.enabled,
      viewport: this.viewportSize(),
      config: this.store.config,
      phase: frame?.phase ?? null,
      insets: frame?.insets ?? null,
      offset: { x: this.shown.x, y: this.shown.y },
      serverOffset: frame ? { x: Number(frame.offset?.x ?? 0), y: Number(frame.offset?.y ?? 0) } : null,
      edges: Object.fromEntries((frame?.edges || []).map((e) => [e.edge, e.state])),
      events: this.events.map((e) => e.name),
      transitions: this.events.filter((e) => e.name === 'transition')
        .map(({ edge, from, to, cause, t }) => ({ edge, from, to, cause, t })),
      refused: this.refused ? { code: this.refused.code, message: this.refused.message } : null,
    };
  }
}
