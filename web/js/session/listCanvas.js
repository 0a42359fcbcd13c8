// A live session's canvas (js/session/liveSession.js): its size in CSS and device pixels, its colours, the
// control host that draws its edges (js/controls/controlHost.js), the tap targets the controls offered, and the
// drawing of one picture (js/renderer.js). It watches what changes the picture without a message from the server: the canvas's box,
// the device pixel ratio, the colour scheme.
import { Renderer, readTheme } from '../renderer.js';
import { DEFAULT_SLOT } from '../controls/geometry.js';

export class ListCanvas {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {object} o
   * @param {object} [o.theme]  the colours; none: read from the page's CSS, and again when the scheme changes
   */
  constructor(canvas, { theme = null } = {}) {
    this.canvas = canvas;
    this.renderer = new Renderer(canvas);
    this.ownTheme = !theme;
    this.renderer.theme = theme ?? readTheme();
    this.renderer.fit();
    this.taps = [];
  }

  /** The list's size in CSS px, as the server is told it. */
  viewportSize() {
    return { w: Math.max(1, Math.round(this.renderer.cssW)), h: Math.max(1, Math.round(this.renderer.cssH)) };
  }

  get dpr() {
    return this.renderer.dpr;
  }

  get cssH() {
    return this.renderer.cssH;
  }

  /** Fits the backing store to the box and the device's pixels; returns whether the viewport's size changed. */
  refit() {
    const before = this.viewportSize();
    this.renderer.fit();
    const after = this.viewportSize();
    return before.w !== after.w || before.h !== after.h;
  }

  /**
   * Calls `changed(resized)` when the box, the device pixel ratio or the colour scheme changes (`resized`: the
   * viewport's size changed), until `signal` aborts.
   */
  watch(signal, changed) {
    const refit = () => changed(this.refit());
    const observer = new ResizeObserver(refit);
    observer.observe(this.canvas);
    signal.addEventListener('abort', () => observer.disconnect());
    window.addEventListener('resize', refit, { signal });
    const watchDpr = () => {
      const mq = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
      mq.addEventListener?.('change', () => {
        refit();
        watchDpr();
      }, { once: true, signal });
    };
    watchDpr();
    window.matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
      if (this.ownTheme) this.renderer.theme = readTheme();
      changed(false);
    }, { signal });
  }

  /** The controls of this list's edges: which control draws each edge, their state and problems. */
  get controls() {
    return this.renderer.controls;
  }

  /** Draws `picture` at the offset `shown` with the renderer's options `env`; keeps its tap targets. */
  draw(picture, shown, env) {
    this.taps = this.renderer.draw(picture, shown, env).taps;
  }

  /** The message of the tap target under `pt` (canvas px), if any (a footer's "tap to retry"). */
  tapAt(pt) {
    for (const tap of this.taps) {
      const r = tap.rect;
      if (pt.x >= r.x && pt.x <= r.x + r.w && pt.y >= r.y && pt.y <= r.y + r.h) return tap.message;
    }
    return null;
  }
}

/** The control slot depth of an edge: its configured height in `config` when the server said, else 60 px. */
export function slotDepth(config, edge) {
  const h = config?.edges?.[edge]?.height;
  return Number.isFinite(h) && h > 0 ? h : DEFAULT_SLOT;
}
