// The canvas: rows (visible ones only) and the edges' controls, crisp at devicePixelRatio. Each edge is drawn
// by the control its configuration names, run by this list's control host (js/controls/controlHost.js).
import { rowContent, visibleRows } from './rows.js';
import { ControlHost } from './controls/controlHost.js';
import { TAU, roundRectPath } from './controls/paint.js';

const THEME_VARS = {
  background: '--rk-background', row: '--rk-row', separator: '--rk-separator', text: '--rk-text',
  text2: '--rk-text-secondary', text3: '--rk-text-tertiary', accent: '--rk-accent', onAccent: '--rk-on-accent',
  indicator: '--rk-indicator', danger: '--rk-danger', dangerFill: '--rk-danger-fill', badge: '--rk-badge',
  skeleton: '--rk-skeleton', font: '--rk-font',
};

const FALLBACK = {
  background: '#f2f2f7', row: '#ffffff', separator: 'rgba(60,60,67,0.29)', text: '#000000',
  text2: 'rgba(60,60,67,0.6)', text3: 'rgba(60,60,67,0.3)', accent: '#007aff', onAccent: '#ffffff',
  indicator: '#8e8e93', danger: '#ff3b30', dangerFill: 'rgba(255,59,48,0.12)', badge: 'rgba(120,120,128,0.16)',
  skeleton: 'rgba(120,120,128,0.12)',
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
   * `preset` (which control draws each edge) and per-edge state ages. Returns the tap targets the controls
   * offered.
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
    const range = visibleRows(shown.y, vh, rh, count);
    let drawn = 0;
    if (range) {
      drawn = range.last - range.first + 1;
      this.drawRows(range, feed, rh, contentW, tx, ty);
    }
    // the edges' controls, each clipped to the band its edge owns
    taps.push(...this.controls.draw(ctx, frame, shown, { ...env, theme: t, dpr: this.dpr, viewport: { w: vw, h: vh } }));
    return { taps, rows: drawn };
  }

  drawRows(range, feed, rh, contentW, tx, ty) {
    const ctx = this.ctx;
    const t = this.theme;
    const dpr = this.dpr;
    const hair = 1 / dpr;
    const newest = Number.isFinite(feed.newest) ? feed.newest : 0;
    const top = range.first * rh + ty;
    const bottom = (range.last + 1) * rh + ty;
    ctx.fillStyle = t.row;
    ctx.fillRect(tx, top, contentW, bottom - top);

    const r = Math.max(8, Math.min(20, rh * 0.28));
    const pad = 16;
    const textX = tx + pad + 2 * r + 12;
    const twoLines = rh >= 52;
    const rows = [];
    for (let i = range.first; i <= range.last; i++) {
      rows.push({ i, y: this.snap(i * rh + ty), c: rowContent(newest - i) });
    }
    // separators (inset like UITableView), except under the last row
    ctx.fillStyle = t.separator;
    for (const row of rows) {
      if (row.i === feed.count - 1) continue;
      ctx.fillRect(textX, row.y + rh - hair, tx + contentW - textX, hair);
    }
    // avatars
    for (const row of rows) {
      ctx.fillStyle = `hsl(${row.c.hue}, 58%, 55%)`;
      ctx.beginPath();
      ctx.arc(tx + pad + r, row.y + rh / 2, r, 0, TAU);
      ctx.fill();
    }
    ctx.fillStyle = '#ffffff';
    ctx.font = `600 ${Math.round(r * 0.7)}px ${t.font}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const row of rows) ctx.fillText(row.c.initials, tx + pad + r, row.y + rh / 2 + 0.5);
    // titles
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = t.text;
    ctx.font = `600 16px ${t.font}`;
    const titleY = twoLines ? rh / 2 - 3 : rh / 2 + 5.5;
    for (const row of rows) ctx.fillText(row.c.title, textX, row.y + titleY);
    // times
    ctx.textAlign = 'right';
    ctx.fillStyle = t.text2;
    ctx.font = `400 14px ${t.font}`;
    for (const row of rows) ctx.fillText(row.c.time, tx + contentW - pad, row.y + titleY);
    // subtitles
    if (twoLines) {
      ctx.textAlign = 'left';
      ctx.font = `400 14px ${t.font}`;
      const maxW = Math.max(20, tx + contentW - pad - textX);
      for (const row of rows) ctx.fillText(row.c.subtitle, textX, row.y + rh / 2 + 16, maxW);
    }
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
