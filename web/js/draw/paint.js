// Canvas drawing helpers shared by the edges' controls (js/controls/builtin/, and yours: /js/refreshkit.js
// exports them) and the list's own drawing (js/renderer.js, js/feed/rowPainter.js); a folder of their own, so
// that the controls and the feed import neither each other (docs/PAGE.md, "The modules"). Every function takes
// the 2D context first (`ctx.canvas2d` in a hook).

export const TAU = Math.PI * 2;
export const clamp01 = (v) => (v < 0 ? 0 : v > 1 ? 1 : Number.isFinite(v) ? v : 0);

/**
 * UIActivityIndicatorView-style ticks. `revealed` (0…1) shows the ticks clockwise from 12 o'clock one by
 * one; `spin` (null or 0…1) runs the graded-opacity rotation of the spinning indicator.
 */
export function drawTicks(ctx, cx, cy, { radius = 13, ticks = 8, revealed = 1, spin = null, color, alpha = 1, width = 3 }) {
  const inner = radius * 0.46;
  const shown = spin == null ? Math.floor(clamp01(revealed) * ticks + 1e-9) : ticks;
  if (shown <= 0 || alpha <= 0) return;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  const head = spin == null ? 0 : Math.floor(clamp01(spin) * ticks) % ticks;
  for (let i = 0; i < shown; i++) {
    let a = alpha;
    if (spin != null) {
      const behind = (head - i + ticks) % ticks; // 0 = the brightest tick
      a *= 1 - (behind / ticks) * 0.8;
    } else {
      a *= 0.85;
    }
    const ang = -Math.PI / 2 + (i / ticks) * TAU;
    const c = Math.cos(ang), s = Math.sin(ang);
    ctx.globalAlpha = a;
    ctx.beginPath();
    ctx.moveTo(cx + c * inner, cy + s * inner);
    ctx.lineTo(cx + c * radius, cy + s * radius);
    ctx.stroke();
  }
  ctx.restore();
}

/**
 * A spinning activity indicator (one turn per `periodMs` of server time, so every device shows the same tick),
 * static ticks under reduced motion. `c` is the hook's context.
 */
export function drawActivity(ctx, cx, cy, c, { radius = 9, color, alpha = 1, periodMs = 1000 } = {}) {
  const spin = c.reducedMotion ? null : (((c.serverNow % periodMs) + periodMs) % periodMs) / periodMs;
  drawTicks(ctx, cx, cy, {
    radius, color: color || c.theme.indicator, alpha: c.reducedMotion ? alpha * 0.8 : alpha,
    spin, revealed: 1, width: Math.max(2, radius * 0.24),
  });
}

/** Adds a rounded rectangle to the current path (ctx.roundRect where it exists, arcs elsewhere). */
export function roundRectPath(ctx, x, y, w, h, r) {
  const rr = Math.max(0, Math.min(r, w / 2, h / 2));
  if (typeof ctx.roundRect === 'function') {
    ctx.roundRect(x, y, w, h, rr);
    return;
  }
  ctx.moveTo(x + rr, y);
  ctx.arcTo(x + w, y, x + w, y + h, rr);
  ctx.arcTo(x + w, y + h, x, y + h, rr);
  ctx.arcTo(x, y + h, x, y, rr);
  ctx.arcTo(x, y, x + w, y, rr);
  ctx.closePath();
}

export function setFont(ctx, theme, size, weight = 400) {
  ctx.font = `${weight} ${size}px ${theme.font}`;
}

/** The pen of the arrow and the check: 2.2 px, round ends and joins. */
function roundPen(ctx, color, alpha) {
  ctx.globalAlpha = alpha;
  ctx.strokeStyle = color;
  ctx.lineWidth = 2.2;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
}

/** A down-pointing arrow centred at (cx, cy), rotated by `angle` (π = pointing up). */
export function drawArrow(ctx, cx, cy, angle, color, size = 18, alpha = 1) {
  ctx.save();
  ctx.translate(cx, cy);
  ctx.rotate(angle);
  roundPen(ctx, color, alpha);
  const h = size / 2;
  ctx.beginPath();
  ctx.moveTo(0, -h);
  ctx.lineTo(0, h);
  ctx.moveTo(-h * 0.6, h * 0.4);
  ctx.lineTo(0, h);
  ctx.lineTo(h * 0.6, h * 0.4);
  ctx.stroke();
  ctx.restore();
}

export function drawCheck(ctx, cx, cy, color, size = 16, alpha = 1) {
  ctx.save();
  roundPen(ctx, color, alpha);
  const h = size / 2;
  ctx.beginPath();
  ctx.moveTo(cx - h * 0.8, cy);
  ctx.lineTo(cx - h * 0.2, cy + h * 0.6);
  ctx.lineTo(cx + h * 0.85, cy - h * 0.6);
  ctx.stroke();
  ctx.restore();
}

/** Smoothstep easing of a local tween, 0…1. */
export function ease(t) {
  const x = clamp01(t);
  return x * x * (3 - 2 * x);
}
