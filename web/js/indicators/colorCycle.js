// JHPullToRefreshKit's demo controls: a band whose colour steps through a palette once per animation cycle
// (its "Color" control), with bubbles rising through it (its "Bubble" control). While pulling the colour
// and the bubbles grow with the pull ratio; while refreshing each server cycle (entry.cycle: index, t0,
// duration) plays one colour step; the exit animation fades the band out.
import { TAU, clamp01, cyclePeriodMs, ease, finishingAlpha } from './common.js';

const PALETTE = ['#ff5e57', '#ffb142', '#2ed573', '#1e90ff', '#a55eea'];
const BUBBLES = 7;

/** A colour between two palette entries, `t` in 0…1. */
function mix(a, b, t) {
  const pa = parseInt(a.slice(1), 16), pb = parseInt(b.slice(1), 16);
  const ch = (p, s) => (p >> s) & 255;
  const c = (s) => Math.round(ch(pa, s) + (ch(pb, s) - ch(pa, s)) * t);
  return `rgb(${c(16)}, ${c(8)}, ${c(0)})`;
}

/** Which colour is showing: index of the cycle and progress through it (pulling: index 0, no progress). */
export function cyclePhase(entry, serverNow) {
  const c = entry.cycle;
  if (!c || !Number.isFinite(c.t0)) return { index: 0, t: 0 };
  const period = cyclePeriodMs(c, 800);
  const delay = cyclePeriodMs({ duration: c.delay }, 0) || 0;
  const t = clamp01((serverNow - c.t0 - delay) / Math.max(1, period));
  return { index: Number.isInteger(c.index) ? c.index : 0, t };
}

export default {
  name: 'colorCycle',
  label: 'Colour cycle and bubbles (JHPullToRefreshKit)',
  draw(ctx, entry, layout, env) {
    const state = entry.state;
    if (state === 'disabled' || state === 'noMoreData' || state === 'failed') return null;
    const { band } = layout;
    if (band.w <= 0 || band.h <= 0) return null;
    if ((state === 'idle' || state === 'pulling') && layout.distance <= 0) return null;
    const alpha = finishingAlpha(entry, env, 500);
    if (alpha <= 0) return null;

    let color;
    let rise;
    if (state === 'refreshing' || state === 'finishing') {
      const { index, t } = cyclePhase(entry, env.serverNow);
      const step = env.reducedMotion ? 0 : ease(t);
      color = mix(PALETTE[index % PALETTE.length], PALETTE[(index + 1) % PALETTE.length], step);
      rise = env.reducedMotion ? 0.5 : t;
    } else {
      const ratio = clamp01(entry.progress);
      color = mix('#d0d4da', PALETTE[0], ratio);
      rise = ratio * 0.5;
    }
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.fillStyle = color;
    ctx.fillRect(band.x, band.y, band.w, band.h);
    // Bubbles: fixed columns, each at its own phase, rising from the content edge to the viewport edge.
    ctx.fillStyle = 'rgba(255, 255, 255, 0.55)';
    for (let i = 0; i < BUBBLES; i++) {
      const column = (i + 0.5) / BUBBLES;
      const phase = (rise + i * 0.37) % 1;
      const r = 3 + ((i * 5) % 7) * (0.4 + 0.6 * clamp01(entry.progress));
      const x = band.x + column * band.w;
      const y = band.y + band.h - phase * band.h;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, TAU);
      ctx.fill();
    }
    ctx.restore();
    return null;
  },
};
