// JHPullToRefreshKit's demo controls (docs/CONTROLS.md): a band whose colour steps through a palette once per
// animation cycle (its "Color" control), with bubbles rising through it (its "Bubble" control). While pulling
// the colour and the bubbles grow with the pull ratio; while refreshing each server cycle (ctx.cycle: index
// and t) plays one colour step; the exit fades the band out.
import { defineControl } from '../api.js';
import { TAU, clamp01, ease } from '../../draw/paint.js';

const PALETTE = ['#ff5e57', '#ffb142', '#2ed573', '#1e90ff', '#a55eea'];
const BUBBLES = 7;

/** A colour between two `#rrggbb` colours, `t` in 0…1. */
export function mix(a, b, t) {
  const pa = parseInt(a.slice(1), 16), pb = parseInt(b.slice(1), 16);
  const ch = (p, s) => (p >> s) & 255;
  const c = (s) => Math.round(ch(pa, s) + (ch(pb, s) - ch(pa, s)) * t);
  return `rgb(${c(16)}, ${c(8)}, ${c(0)})`;
}

function band(ctx, color, rise, alpha) {
  const g = ctx.canvas2d;
  const { area } = ctx;
  if (area.w <= 0 || area.h <= 0) return;
  g.save();
  g.globalAlpha *= alpha;
  g.fillStyle = color;
  g.fillRect(area.x, area.y, area.w, area.h);
  // bubbles: fixed columns, each at its own phase, rising from the content edge to the viewport edge
  g.fillStyle = 'rgba(255, 255, 255, 0.55)';
  for (let i = 0; i < BUBBLES; i++) {
    const phase = (rise + i * 0.37) % 1;
    const r = 3 + ((i * 5) % 7) * (0.4 + 0.6 * clamp01(ctx.progress));
    g.beginPath();
    g.arc(area.x + ((i + 0.5) / BUBBLES) * area.w, area.y + area.h - phase * area.h, r, 0, TAU);
    g.fill();
  }
  g.restore();
}

function cycling(ctx, alpha) {
  const { index, t } = ctx.cycle;
  const step = ctx.reducedMotion ? 0 : ease(t);
  const color = mix(PALETTE[index % PALETTE.length], PALETTE[(index + 1) % PALETTE.length], step);
  band(ctx, color, ctx.reducedMotion ? 0.5 : t, alpha);
}

export default defineControl({
  name: 'colorCycle',
  label: 'Colour cycle and bubbles (JHPullToRefreshKit)',
  cycleMs: 800,
  exitMs: 500,
  progress(ctx) {
    if (ctx.state === 'disabled' || ctx.state === 'noMoreData' || ctx.state === 'failed' || ctx.distance <= 0) return;
    const ratio = clamp01(ctx.progress);
    band(ctx, mix('#d0d4da', PALETTE[0], ratio), ratio * 0.5, 1);
  },
  cycle(ctx) {
    cycling(ctx, 1);
  },
  exit(ctx) {
    if (ctx.exit.t < 1) cycling(ctx, 1 - ctx.exit.t);
  },
});
