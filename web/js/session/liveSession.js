// One live session on the page: its WebSocket (js/connection.js), what it knows (js/store.js), the prediction of
// its own drag (js/prediction.js), its input channel (js/inputs.js: numbering and resending), the rebase that
// keeps a change of base from jumping on screen, and the drawing of its canvas (js/session/listCanvas.js). The
// normal page (js/app.js), each side of compare mode (js/compare/compareSide.js) and a page that embeds a list
// (js/refreshkit.js, docs/PAGE.md) each make one; what is around the list (a bar, a panel, announcements)
// subscribes to its events. After Phoenix LiveView's `View`: one object per live session, with a life cycle.
//
//   new LiveSession(canvas, options) ──connect()──▶ live ──dispose()──▶ disposed
//   (fitted; a skeleton until a frame)   │  every server message: the store takes it, the session reacts, then
//                                        │  'message' and the message's own event ('welcome', 'frame'…) go out
//                                        │  every frame of its loop (js/session/frameLoop.js: animation frames,
//                                        ▼  a rest tick at rest): drawFrame(now) draws when anything moved or
//                                           changed, then 'tick' (and 'draw' when it drew)
//
// Per animation frame the session allocates nothing of its own: the renderer's options, the offset drawn last
// (`view`) and the draw log are kept and written in place.
import { Connection } from '../connection.js';
import { ErrorCode } from '../protocol.js';
import { Store } from '../store.js';
import { Predictor, DrawnOffset } from '../prediction.js';
import { InputChannel } from '../inputs.js';
import { frameAt } from '../edgeFollow.js';
import { attachInput } from '../pointerInput.js';
import { FeedMirror } from '../feedMirror.js';
import { EdgeStateClock } from '../controls/stateClock.js';
import { receiveCatalogue } from '../catalogue.js';
import { FeedState } from '../feed/feedState.js';
import { RowLayout } from '../feed/rowLayout.js';
import { FeedImages } from '../feed/images.js';
import { tapLink } from '../feed/itemLink.js';
import { SeriesRing } from '../ringBuffer.js';
import { Emitter } from './emitter.js';
import { ListCanvas, slotDepth } from './listCanvas.js';
import { RefreshAsks } from './refreshAsks.js';
import { FrameLoop } from './frameLoop.js';

/** An edge changed state this recently (ms): its control may still be animating the change. */
const STATE_CHANGE_MS = 400;
/** An external source's rows are drawn again this often (ms) while nothing else changes: their ages move on. */
const AGES_REDRAW_MS = 15_000;
/** Heights and rows wait at most this long (ms) for the frame that goes with them (js/feed/rowLayout.js). */
const LAYOUT_HOLD_MS = 100;

export class LiveSession {
  /**
   * @param {HTMLCanvasElement} canvas  where the list is drawn (sized by CSS; the session fits it to the
   *   device's pixels and tells the server its size)
   * @param {object} [o]
   * @param {string} [o.preset]         the preset the first hello asks for (else the server's default)
   * @param {boolean} [o.predict=true]  whether the display follows the page's own prediction (?predict=0: no)
   * @param {boolean} [o.input=true]    whether the session takes the canvas's pointer and wheel input itself
   *   (compare mode gives each input to both sessions, and so takes it itself: `sendInput`, `tapAt`)
   * @param {boolean} [o.animate=true]  whether the session draws on its own animation frames; false: the page
   *   calls `drawFrame(now)` from its loop
   * @param {HTMLElement} [o.mirror]    a `role="feed"` element that mirrors the rows for screen readers and
   *   keyboards (js/feedMirror.js)
   * @param {{initial: () => {session, token}, remember: (session, token) => void}} [o.identity]  where the
   *   session id and member token are kept across reloads (js/session/identity.js); none: a new session
   * @param {object} [o.theme]          the colours (js/renderer.js); by default read from the page's CSS, and
   *   again when the colour scheme changes
   * @param {number} [o.drawLog=0]      how many draws to keep for `drawLog()` (measurements)
   * @param {string} [o.url]            the WebSocket address (the page's own server by default)
   * @param {string} [o.label]          names the session in console warnings
   * @param {(url: string) => void} [o.openLink]  opens the link of a row tapped (an http(s) address); by default
   *   in a new tab, without an opener
   */
  constructor(canvas, {
    preset = null, predict = true, input = true, animate = true, mirror = null, identity = null, theme = null,
    drawLog = 0, url, label = null, openLink = defaultOpenLink,
  } = {}) {
    this.canvas = canvas;
    /** When the session draws: every animation frame while busy, a rest tick at rest (js/session/frameLoop.js). */
    this.frames = new FrameLoop({
      draw: (now) => this.drawFrame(now),
      busy: (now) => this.moving || this.pendingResize || this.layoutHeldSince !== null
        || this.edgesBusy(this.store.frame, now),
      running: () => this.phase === 'live' && this.animate,
    });
    this.openLink = openLink;
    this.moving = false;           // the offset drawn last was moving (a fling, a bounce, a blend)
    this.restAtDown = false;       // the list was at rest when the last touch began (js/feed/itemLink.js, tapLink)
    this.identity = identity;
    this.label = label;
    this.animate = animate;
    this.phase = 'idle'; // idle → live → disposed
    this.emitter = new Emitter();
    this.abort = new AbortController();
    const start = identity?.initial() ?? {};
    /** What the session knows (frame, config, preset, session id, member, events, errors): js/store.js. */
    this.store = new Store({
      session: start.session ?? null, token: start.token ?? null, key: start.key ?? null, preset: preset || null,
    });
    /** The session's feed source: its items, requests and "N new" (js/feed/feedState.js, docs/PROTOCOL.md). */
    this.feed = new FeedState();
    /** An external source's rows, laid out at the session's width, placed by the engine's heights (js/feed/rowLayout.js). */
    this.layout = new RowLayout({ hold: true });
    this.layoutHeldSince = null;   // page time heights or rows began to wait for a frame
    /** Refreshes asked for by a button, held while the edge's last refresh ends (js/session/refreshAsks.js). */
    this.refreshAsks = new RefreshAsks((edge) => this.send({ type: 'command', name: 'refresh', edge }));
    /** The feed's images: fetched from the server, decoded off the frame path, a loaded one re-lays its row out (js/feed/images.js). */
    this.images = new FeedImages({ onLoad: (url) => { this.layout.imageLoaded(url); this.dirty = true; } });
    this.layout.images = this.images;
    this.layout.onAhead = () => { this.dirty = true; }; // rows laid out in idle time: drawn, their heights sent
    this.predictor = new Predictor({ enabled: predict, configOf: () => this.store.config });
    this.drawn = new DrawnOffset(this.predictor);
    /** The canvas: its size, colours, edge controls and tap targets (js/session/listCanvas.js). */
    this.listCanvas = new ListCanvas(canvas, { theme });
    /** The controls of the list's edges (js/controls/controlHost.js): their taps and redraws go to this session. */
    this.controls = this.listCanvas.controls;
    this.controls.attach({ send: (msg) => this.send(msg), onChange: () => { this.dirty = true; } });
    this.reducedMotionQuery = window.matchMedia('(prefers-reduced-motion: reduce)');
    this.stateClock = new EdgeStateClock();
    this.status = { state: 'connecting' };
    this.refused = null;           // the error that refused this session's hello (an unknown preset), if any
    this.lastUpdated = null;       // when a refresh last loaded the feed (the arrow's "last updated" line)
    this.lastInputAt = -Infinity;  // page time of the last input this session sent
    this.pointerCancels = 0;
    this.dirty = true;
    this.pendingResize = false;
    this.framesIn = [];            // page times of the frames received in the last second
    /** What was drawn last: the offset on screen and the prediction's lead over the server (drawn − server y). */
    this.view = { shown: { x: 0, y: 0 }, gap: 0 };
    // the draws' times, offset.y and the rows' shift so far (`drawLog()`)
    this.log = drawLog >= 1 ? new SeriesRing(drawLog, ['t', 'y', 'shift']) : null;
    this.rowsShift = 0; // how far committed heights have moved the rows at the drawn offset, in total
    this.drawEnv = {
      config: null, preset: null, clock: 0, serverNow: 0, reducedMotion: false, lastUpdated: null,
      stateClock: this.stateClock, slotFor: (edge) => slotDepth(this.store.config, edge),
      feed: this.feed,
      layout: this.layout,
      // the failed state's words: the last error of the source for the edge's kind of request (docs/CONTROLS.md)
      errorOf: (edge) => this.feed.errorFor(this.roleOf(edge) ?? (edge === 'bottom' || edge === 'right' ? 'loadMore' : 'refresh')),
    };
    this.drawnAt = -Infinity;

    this.connection = new Connection({
      store: this.store,
      ...(url ? { url } : {}),
      onTokenChange: (session, token) => this.identity?.remember(session, token),
      hello: () => {
        const hello = { viewport: this.listCanvas.viewportSize(), dpr: this.listCanvas.dpr };
        if (this.store.preset) hello.preset = this.store.preset;
        // where the reader was, on the way back to a session (which, gone, starts again there: docs/PROTOCOL.md,
        // "Your place, kept"); a new session asked for (a restart, a trace's playback) starts as asked
        const position = this.store.session ? this.identity?.position() : null;
        if (position) hello.position = position;
        return hello;
      },
      onMessage: (msg, tRecv, raw, previousFrame) => this.receive(msg, tRecv, raw, previousFrame),
      onStatus: (s) => {
        this.status = { ...this.status, ...s };
        if (this.phase === 'live') this.emitter.emit('status', this.status);
      },
    });
    /** The page's touch and wheel messages: numbered, predicted, and sent again after a resume (js/inputs.js). */
    this.inputs = new InputChannel({
      conn: this.connection, predictor: this.predictor, frameOf: () => this.store.frame,
      serverNowOf: (pageNow) => this.drawingServerNow(pageNow),
    });
    this.mirror = mirror ? new FeedMirror(mirror, {
      scrollBy: (amount) => this.send({ type: 'command', name: 'scrollBy', amount }),
      view: () => ({
        frame: this.store.frame, offsetY: Number(this.store.frame?.offset?.y ?? 0), viewportH: this.listCanvas.cssH,
      }),
      state: this.feed,
      layout: this.layout,
    }) : null;
    if (input) this.takeInput();
    this.listCanvas.watch(this.abort.signal, (resized) => {
      this.dirty = true;
      if (resized) this.pendingResize = true;
    });
  }

  /**
   * Keeps the reader's place at rest: the item whose row holds the list's top, and how far into it; none at the top
   * (a reader at the top comes back to the top, and sees what is new).
   */
  keepPlace(frame) {
    const layout = this.layout;
    if (!this.identity || !(layout?.width > 0) || layout.count === 0) return;
    const y = Number(frame.offset?.y ?? 0);
    if (y <= 0) {
      this.identity.rememberPosition(null);
      return;
    }
    const i = layout.indexAt(y);
    const item = layout.items[i];
    if (item) this.identity.rememberPosition({ id: item.id, offset: Math.round((y - layout.top(i)) * 4) / 4 });
  }

  // ---------------------------------------------------------------- life cycle

  /** Opens the connection (hello, then the server's welcome and frames) and, unless `animate` is false, draws. */
  connect() {
    if (this.phase !== 'idle') return this;
    this.phase = 'live';
    this.connection.start();
    this.wake();
    return this;
  }

  /** Closes the connection, stops drawing, and lets go of every listener (the session's and the page's). */
  dispose() {
    if (this.phase === 'disposed') return;
    this.phase = 'disposed';
    this.frames.stop();
    this.abort.abort();
    this.connection.stop();
    this.images.dispose();
    this.controls.destroy();
    this.emitter.clear();
  }

  /**
   * Calls `fn` on each `name` event; returns the function that stops it. Events: `status` (the connection's
   * state), `message` (every server message, with its arrival time and text), `welcome`, `config`, `room`,
   * `frame` (deltas applied), `event`, `error`, `trace` (the message), `tick` (every animation frame, every
   * REST_TICK_MS at rest: page time, server time) and `draw` (after a draw: page time, then the picture, the
   * offset and the renderer's options it drew with, for a page that draws the same session on more canvases;
   * `view` holds what was drawn).
   * docs/PAGE.md.
   */
  on(name, fn) {
    return this.emitter.on(name, fn);
  }

  get connected() {
    return this.connection.connected;
  }

  // ---------------------------------------------------------------- the server's messages

  /** One server message, after the store took it (a `delta` arrives as the whole `frame` it makes). */
  receive(msg, tRecv, raw, previousFrame) {
    const fed = this.feed.receive(msg);
    this.refreshAsks.onMessage(msg);
    this.layout.receive(msg);
    if (this.layoutHeldSince === null && this.layout.holding(this.feed.rows)) this.layoutHeldSince = performance.now();
    if (fed && fed !== 'feed') console.warn(`refreshkit${this.label ? ` (${this.label})` : ''}: ${fed}`);
    switch (msg.type) {
      case 'welcome':
        receiveCatalogue(msg.catalogue); // the presets' libraries, event names and own controls (js/catalogue.js)
        // a join keeps the session's viewport (docs/PROTOCOL.md, "Sessions"): the size this page's list took
        // before (its first fit, a panel opened) is not pushed onto it; a later change is (docs/PAGE.md)
        if (msg.member > 0 && !msg.resumed) this.pendingResize = false;
        this.rebase(this.store.frame, () => this.inputs.onWelcome(msg));
        break;
      case 'frame': {
        // heights and rows are committed with the frame that carries the engine's anchoring correction for
        // them: the rows and the offset move together. That correction moves the content, it is no
        // misprediction: the blend does not take it (docs/PAGE.md, "Rows of measured heights").
        const before = Number(previousFrame?.offset?.y ?? 0);
        const shift = this.commitLayout(before);
        const blend = this.drawn.blend.y;
        this.rebase(previousFrame, () => this.predictor.onFrame(msg, tRecv));
        if (shift !== 0 && before > 0 && this.drawn.blend.y !== blend) this.drawn.blend.y += shift;
        this.stateClock.update(msg.edges, tRecv);
        this.framesIn.push(tRecv);
        if (msg.phase === 'idle') this.keepPlace(msg);
        break;
      }
      case 'event':
        if (msg.name === 'feedLoaded' && this.roleOf(msg.edge) === 'refresh') this.lastUpdated = new Date();
        break;
      case 'error':
        if (Number.isInteger(msg.seq)) this.rebase(this.store.frame, () => this.predictor.onError(msg));
        // a hello refused for what it asks (an unknown preset); a stale token is the connection's to handle
        if (msg.ref === 'hello' && !this.connection.welcomed && msg.code !== ErrorCode.badToken) this.refused = msg;
        // a picked preset the server does not know: show the server's again
        if (msg.ref === 'configure' && msg.code === ErrorCode.unknownPreset && this.store.welcome) {
          this.store.pickPreset(this.store.serverPreset);
        }
        console.warn(`refreshkit${this.label ? ` (${this.label})` : ''}: ${msg.code}: ${msg.message}`);
        break;
      default:
        break;
    }
    this.dirty = true;
    if (this.phase !== 'live') return;
    this.emitter.emit('message', msg, tRecv, raw);
    this.emitter.emit(msg.type, msg, tRecv);
  }

  /** The server time the session draws at, without moving the display clock's slew (js/clock.js). */
  drawingServerNow(pageNow) {
    return pageNow + (this.connection.clock.applied ?? this.connection.clock.offset);
  }

  /** The server's clock now (ms), as the page estimates it. */
  serverNow(pageNow = performance.now()) {
    return this.connection.serverNow(pageNow);
  }

  /**
   * Changes what the prediction stands on (a frame, a welcome, a refused input, the switch) without a jump on
   * screen: when the session was or is predicting, the difference goes into the blend, which fades it out.
   */
  rebase(previousFrame, change) {
    const now = performance.now();
    const result = this.drawn.rebase(previousFrame, () => this.store.frame, this.drawingServerNow(now), now, change);
    this.dirty = true;
    return result;
  }

  // ---------------------------------------------------------------- what the page sends

  /** Sends a message as it is (a command, a configure…) once the session is open. Returns whether it went. */
  send(msg) {
    return this.connection.send(msg);
  }

  /**
   * A touch or wheel message: numbered (it gets `seq`), predicted, and sent, or kept for the session being
   * resumed. Returns whether it was sent or kept.
   */
  sendInput(msg) {
    // a tap that stops a moving list only stops it: whether it began at rest decides if it may open a link
    if (msg.type === 'touch' && msg.phase === 'start') this.restAtDown = this.atRest();
    const now = performance.now();
    if (!this.inputs.send(msg, now)) return false;
    this.lastInputAt = now;
    this.dirty = true;
    return true;
  }

  /** Asks the server for preset `name`; the list shows it at once, and the server's `config` confirms it. */
  pickPreset(name) {
    this.send({ type: 'configure', preset: name });
    this.store.pickPreset(name);
    this.dirty = true;
  }

  /** Whether the display follows the prediction (?predict=0 and the panel's switch). */
  setPrediction(on) {
    if (this.predictor.enabled === on) return;
    this.rebase(this.store.frame, () => {
      this.predictor.enabled = on;
    });
  }

  /**
   * Asks for a refresh of `edge` (a Retry button's, a control's own): at once when the edge has settled, else once
   * its last refresh has ended. Returns `'sent'`, `'waiting'` or `'dropped'` (the link is closed).
   */
  refresh(edge) {
    return this.refreshAsks.ask(edge, this.store.frame);
  }

  /** The message of the tap target under `pt` (canvas px), if any (a footer's "tap to retry"). */
  tapAt(pt) {
    return this.listCanvas.tapAt(pt);
  }

  /** The item of the row drawn under `pt` (canvas px), or null. */
  itemAt(pt) {
    const drawn = this.listCanvas.renderer.rows.rects();
    for (const r of drawn) {
      if (pt.x < r.x || pt.x > r.x + r.w || pt.y < r.y || pt.y >= r.y + r.h) continue;
      const item = this.feed.rows.item(r.index);
      return item && item.id === r.id ? item : null;
    }
    return null;
  }

  /**
   * A tap at `pt` (canvas px; js/pointerInput.js tells taps from drags): a control's tap target's message is
   * sent; else the row's link, when it has an http(s) one and the list was at rest when the touch began, opens
   * (`openLink`). Returns what it did: `'message'`, `'link'` or null.
   */
  tap(pt) {
    const message = this.tapAt(pt);
    if (message) {
      this.send(message);
      return 'message';
    }
    const url = tapLink({ tap: pt, atRest: this.restAtDown, target: message, item: this.itemAt(pt) });
    if (!url) return null;
    this.openLink(url);
    return 'link';
  }

  /** Whether the list is at rest: the server's frame idle and the offset drawn last still. */
  atRest() {
    return this.store.frame?.phase === 'idle' && !this.moving;
  }

  /** Each edge's configured role (`refresh` or `loadMore`), from the session's configuration. */
  edgeRoles() {
    const edges = this.store.config?.edges ?? {};
    return Object.fromEntries(Object.entries(edges).map(([edge, c]) => [edge, c.role]));
  }

  roleOf(edge) {
    return this.store.config?.edges?.[edge]?.role ?? null;
  }

  get reducedMotion() {
    return this.reducedMotionQuery.matches;
  }

  takeInput() {
    attachInput(this.canvas, {
      send: (msg) => this.sendInput(msg),
      onInput: () => {
        this.dirty = true;
      },
      onTap: (pt) => this.tap(pt),
      onPointerCancel: () => {
        this.pointerCancels += 1;
      },
      signal: this.abort.signal,
    });
  }

  // ---------------------------------------------------------------- size

  /** The list's size in CSS px, as the server is told it. */
  viewportSize() {
    return this.listCanvas.viewportSize();
  }

  /** The canvas's box or the device's pixels changed: fit it, and tell the server a new size on the next frame. */
  refit() {
    if (this.listCanvas.refit()) this.pendingResize = true;
    this.dirty = true;
  }

  // ---------------------------------------------------------------- drawing

  /** Something the list draws changed: it is drawn on the loop's next frame, which wakes a list at rest. */
  get dirty() {
    return this.frames.dirty;
  }

  set dirty(on) {
    this.frames.dirty = on;
  }

  /** Asks for the next animation frame (js/session/frameLoop.js). */
  wake() {
    this.frames.wake();
  }

  /**
   * Whether the session runs on every animation frame even at rest (the debug panel's live plot); off, a list at
   * rest ticks every REST_TICK_MS only.
   */
  keepAwake(on) {
    this.frames.keepAwake(on);
  }

  /**
   * One animation frame at page time `now`: tells the server a new size, and draws when anything moved or
   * changed. Returns the server time it drew at.
   */
  drawFrame(now) {
    if (this.pendingResize && this.send({ type: 'resize', viewport: this.viewportSize() })) this.pendingResize = false;
    const serverNow = this.connection.displayServerNow(now);
    const frame = this.store.frame;
    const shown = this.drawn.at(frame, serverNow, now);
    this.moving = shown.moving;
    if (now - this.drawnAt > AGES_REDRAW_MS) this.dirty = true;
    // no frame came for the heights or rows held (nothing moved on the server): they are drawn anyway
    if (this.layoutHeldSince !== null && now - this.layoutHeldSince > LAYOUT_HOLD_MS) {
      this.commitLayout(shown.y);
      this.dirty = true;
    }
    if (this.dirty || shown.moving || this.edgesBusy(frame, now)) {
      this.dirty = false;
      this.drawnAt = now;
      // a predicted or blended offset: the edges follow it (their states stay the server's)
      const picture = shown.predicted || shown.blending ? frameAt(frame, shown, this.store.config) : frame;
      const env = this.drawEnv;
      env.config = this.store.config;
      env.preset = this.store.preset;
      env.clock = now;
      env.serverNow = serverNow;
      env.reducedMotion = this.reducedMotionQuery.matches;
      env.lastUpdated = this.lastUpdated;
      if (frame?.viewport) this.layout.setWidth(Number(frame.viewport.w));
      this.listCanvas.draw(picture, shown, env);
      this.sendMeasures(now);
      this.view.shown.x = shown.x;
      this.view.shown.y = shown.y;
      this.view.gap = frame ? shown.y - Number(frame.offset?.y ?? 0) : 0;
      if (this.mirror) {
        this.mirror.update(frame, shown.y, this.listCanvas.cssH);
        this.mirror.place(shown.y);
      }
      this.log?.push(now, shown.y, this.rowsShift);
      this.emitter.emit('draw', now, picture, shown, env);
    }
    this.emitter.emit('tick', now, serverNow);
    return serverNow;
  }

  /** Commits the layout's held heights and rows (js/feed/rowLayout.js); returns how far they moved the row at `y`. */
  commitLayout(y) {
    this.layoutHeldSince = null;
    const shift = this.layout.commit(this.feed.rows, y);
    this.rowsShift += shift;
    return shift;
  }

  /**
   * The heights of the rows the drawing laid out that the engine has not accepted: `measure` messages, numbered
   * and kept for a resend like touches (js/inputs.js; docs/PROTOCOL.md, "measure").
   */
  sendMeasures(now) {
    const messages = this.layout.takeMeasures();
    for (let i = 0; i < messages.length; i++) this.inputs.send(messages[i], now);
  }

  /** An edge refreshing, finishing, or just changed state: its control animates. */
  edgesBusy(frame, now) {
    const edges = frame?.edges;
    if (!edges) return false;
    for (let i = 0; i < edges.length; i++) {
      const e = edges[i];
      if (e.state === 'refreshing' || e.state === 'finishing') return true;
      if (this.stateClock.age(e.edge, now) < STATE_CHANGE_MS) return true;
    }
    return false;
  }

  /** Frames received in the last second, at page time `now`. */
  framesPerSecond(now) {
    const list = this.framesIn;
    while (list.length && now - list[0] > 1000) list.shift();
    return list.length;
  }

  /**
   * The last ≤ `drawLog` draws, `{t, y, shift}`: the animation frame's time, the offset.y drawn, and how far
   * committed row heights had moved the rows at the drawn offset by then, in total. The engine's anchoring
   * correction moves the offset with them, so `y − shift` is where the content is, as a finger sees it.
   */
  drawLog() {
    return this.log ? this.log.rows() : [];
  }
}

/** Opens an item's link in a new tab, without giving it this page as its opener. */
function defaultOpenLink(url) {
  window.open(url, '_blank', 'noopener');
}
