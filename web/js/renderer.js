// The canvas: rows (visible ones only) and the edges' controls, crisp at devicePixelRatio. Each edge is drawn
// by the control its configuration names, run by this list's control host (js/controls/controlHost.js).
import { visibleRows } from './rows.js';
import { RowPainter } from './feed/rowPainter.js';
import { ControlHost } from './controls/controlHost.js';
import { TAU, roundRectPath } from './draw/paint.js';

const THEME_VARS = {
  background: '--rk-background', row: '--rk-row', separator: '--rk-separator', text: '--rk-text',
  text2: '--rk-text-secondary', text3: '--rk-text-tertiary', accent: '--rk-accent', onAccent: '--rk-on-accent',
  indicator: '--rk-indicator', danger: '--rk-danger', dangerFill: '--rk-danger-fill', badge: '--rk-badge',
  skeleton: '--rk-skeleton', font: '--rk-font', imageRadius: '--rk-image-radius',
};

const FALLBACK = {
  background: '#f2f2f7', row: '#ffffff', separator: 'rgba(60,60,67,0.29)', text: '#000000',
  text2: 'rgba(60,60,67,0.6)', text3: 'rgba(60,60,67,0.3)', accent: '#007aff', onAccent: '#ffffff',
  indicator: '#8e8e93', danger: '#ff3b30', dangerFill: 'rgba(255,59,48,0.12)', badge: 'rgba(120,120,128,0.16)',
  skeleton: 'rgba(120,120,128,0.12)', imageRadius: '8px',
  font: '-apple-system, BlinkMacSystemFont, "SF Pro Text", "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif',
};

/** Reads the colours from the CSS custom properties (css/app.css owns the look, dark mode included). */
export function readTheme(el = document.documentElement) {
  const cs = getComputedStyle(el);
  const theme = {};
  for (const [key, name] of Object.entries(THEME_VARS)) {
    const v = cs.getPropertyValue(name).trim();
    theme[key] = v || FALLBACK[key];
  }
  return theme;
}

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d', { alpha: false });
    this.cssW = 0;
    this.cssH = 0;
    this.dpr = 1;
    this.theme = FALLBACK;
    /** The controls of this list's edges (attach it to the page: `renderer.controls.attach({...})`). */
    this.controls = new ControlHost({ canvas });
    /** The rows: the feed's items (js/feed/rowPainter.js). */
    this.rows = new RowPainter();
  }

  /** Matches the backing store to the element's size × devicePixelRatio. Returns true when it changed. */
  fit() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = Math.max(1, Math.min(4, window.devicePixelRatio || 1));
    const w = Math.max(1, rect.width);
    const h = Math.max(1, rect.height);
    const bw = Math.max(1, Math.round(w * dpr));
    const bh = Math.max(1, Math.round(h * dpr));
    const changed = bw !== this.canvas.width || bh !== this.canvas.height || dpr !== this.dpr
      || w !== this.cssW || h !== this.cssH;
    if (bw !== this.canvas.width) this.canvas.width = bw;
    if (bh !== this.canvas.height) this.canvas.height = bh;
    this.cssW = w;
    this.cssH = h;
    this.dpr = dpr;
    return changed;
  }

  snap(v) {
    return Math.round(v * this.dpr) / this.dpr;
  }

  /**
   * Draws one picture. `shown` is the offset on screen; `env` carries the clocks, the session's `config` and
   * `preset` (which control draws each edge), per-edge state ages and the feed (`env.feed`, js/feed/feedState.js:
   * the feed's items, drawn where `env.layout` places them, js/feed/rowLayout.js). Returns the tap targets the
   * controls offered.
   */
  draw(frame, shown, env) {
    const ctx = this.ctx;
    const t = this.theme;
    const vw = this.cssW, vh = this.cssH;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = t.background;
    ctx.fillRect(0, 0, vw, vh);
    const taps = [];
    if (!frame || !frame.feed) {
      this.drawSkeleton(vw, vh);
      return { taps, rows: 0 };
    }
    const feed = frame.feed;
    const rh = feed.rowHeight > 0 ? feed.rowHeight : 72;
    const count = Math.max(0, feed.count | 0);
    const contentW = frame.contentSize && frame.contentSize.w > 0 ? frame.contentSize.w : vw;
    const tx = this.snap(-shown.x);
    const ty = this.snap(-shown.y);
    const layout = env.feed && env.layout?.width > 0 ? env.layout : null;
    const range = layout ? layout.visible(shown.y, vh) : visibleRows(shown.y, vh, rh, count);
    let drawn = 0;
    this.rows.drawnRows.n = 0;
    if (range && layout) {
      // the rows at their measured heights (js/feed/rowLayout.js), a screen laid out ahead
      drawn = range.last - range.first + 1;
      const insetTop = frame.insets?.top ?? 0;
      this.rows.drawLaidOut(this.ctx, t, this.dpr, range, layout, drawn, contentW, tx, ty, Date.now(), insetTop);
    } else if (range) {
      drawn = range.last - range.first + 1;
      const items = env.feed ? env.feed.rows : null;
      this.rows.draw(this.ctx, t, this.dpr, range, feed, items, rh, contentW, tx, ty, Date.now());
    }
    // the edges' controls, each clipped to the band its edge owns
    taps.push(...this.controls.draw(ctx, frame, shown, { ...env, theme: t, dpr: this.dpr, viewport: { w: vw, h: vh } }));
    return { taps, rows: drawn };
  }

  /** Placeholder rows before the first frame arrives. */
  drawSkeleton(vw, vh) {
    const ctx = this.ctx;
    const t = this.theme;
    const rh = 72;
    ctx.fillStyle = t.row;
    ctx.fillRect(0, 0, vw, vh);
    ctx.fillStyle = t.skeleton;
    for (let y = 0; y < vh; y += rh) {
      ctx.beginPath();
      ctx.arc(36, y + rh / 2, 20, 0, TAU);
      ctx.fill();
      ctx.beginPath();
      roundRectPath(ctx, 68, y + rh / 2 - 14, Math.min(160, vw * 0.4), 11, 5.5);
      roundRectPath(ctx, 68, y + rh / 2 + 5, Math.min(240, vw * 0.6), 9, 4.5);
      ctx.fill();
    }
  }
}
