// One side of compare mode: a preset's own live session (js/session/liveSession.js: its own WebSocket, `hello`
// with that preset, store, prediction and renderer) on its own canvas, and what compare mode says about it (its
// label's headline, `window.refreshkit.compare()`). The compare page (js/compare/page.js) gives every input to
// both sides and draws both from its one loop: the sessions take no input and run no loop of their own.
import { LiveSession } from '../session/liveSession.js';
import { libraryFor } from '../catalogue.js';

/** Events kept per side for `window.refreshkit.compare()` (the store keeps its own last 200). */
const KEPT_EVENTS = 400;

export class CompareSide {
  /**
   * @param {object} o
   * @param {string} o.preset                 the preset this side's session runs (its hello names it)
   * @param {HTMLCanvasElement} o.canvas      where it draws
   * @param {boolean} o.predict               whether the display follows the prediction (?predict=0: no)
   * @param {(side: CompareSide, msg: object) => void} o.onMessage  every server message, after the session took it
   * @param {(side: CompareSide) => void} o.onStatus  the connection's state changed
   * @param {string} [o.url]                  the WebSocket address (the page's own server by default)
   */
  constructor({ preset, canvas, predict = true, onMessage = () => {}, onStatus = () => {}, url }) {
    this.preset = preset;
    this.library = libraryFor(preset); // known once a welcome brought the catalogue
    this.canvas = canvas;
    this.session = new LiveSession(canvas, { preset, predict, url, input: false, animate: false, label: preset });
    this.events = []; // every event this session sent (the last KEPT_EVENTS)
    this.session.on('message', (msg) => {
      if (msg.type === 'welcome') this.library = libraryFor(this.preset); // the session took its catalogue
      if (msg.type === 'event') {
        this.events.push(msg);
        if (this.events.length > KEPT_EVENTS) this.events.splice(0, this.events.length - KEPT_EVENTS);
      }
      onMessage(this, msg);
    });
    this.session.on('status', () => onStatus(this));
  }

  get store() {
    return this.session.store;
  }

  /** The error that refused this side's hello (an unknown preset), if any. */
  get refused() {
    return this.session.refused;
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
    const { session } = this;
    const frame = this.store.frame;
    const shown = session.view.shown;
    return {
      preset: this.preset,
      library: this.library,
      connected: session.connected,
      session: this.store.session,
      predicting: session.predictor.enabled,
      viewport: session.viewportSize(),
      config: this.store.config,
      phase: frame?.phase ?? null,
      insets: frame?.insets ?? null,
      offset: { x: shown.x, y: shown.y },
      serverOffset: frame ? { x: Number(frame.offset?.x ?? 0), y: Number(frame.offset?.y ?? 0) } : null,
      edges: Object.fromEntries((frame?.edges || []).map((e) => [e.edge, e.state])),
      events: this.events.map((e) => e.name),
      transitions: this.events.filter((e) => e.name === 'transition')
        .map(({ edge, from, to, cause, t }) => ({ edge, from, to, cause, t })),
      refused: session.refused ? { code: session.refused.code, message: session.refused.message } : null,
    };
  }
}
