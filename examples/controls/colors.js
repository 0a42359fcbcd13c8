// JHPullToRefreshKit's "colors" control, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own
// examples"): JH's README shows it first, and names ColorChangeRefreshControl as its example of a subclass.
// - With the pull (handleScrollingOnAnimationView's pullRatio = ctx.progress): the band's colour rises from
//   grey to the first colour, and a bar across it grows with the ratio.
// - Each animation cycle (animationCycleForAnimationView, one per ctx.cycle.index, eased by ctx.cycle.t): one
//   colour change, from palette[index] to palette[index + 1].
// - The exit (exitAnimationForRefreshView): the README's own example, "Fade to black": the band turns black
//   while what is on it fades out, over the exit's duration (ctx.exit.t).
import { defineControl } from '/js/refreshkit.js';

const PALETTE = ['#e74c3c', '#f39c12', '#f1c40f', '#2ecc71', '#3498db', '#9b59b6'];

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(a, b, t) {
  const x = rgb(a), y = rgb(b);
  return `rgb(${x.map((v, i) => Math.round(v + (y[i] - v) * t)).join(',')})`;
}

const ease = (t) => t * t * (3 - 2 * t);

function paint(ctx, colour, bar, alpha) {
  const g = ctx.canvas2d;
  const { area, view } = ctx;
  g.fillStyle = colour;
  g.fillRect(area.x, area.y, area.w, area.h);
  g.globalAlpha *= alpha;
  g.fillStyle = 'rgba(255,255,255,0.85)';
  const w = Math.max(0, Math.min(1, bar)) * view.w * 0.6;
  g.fillRect(view.x + (view.w - w) / 2, view.y + view.h / 2 - 3, w, 6);
}

export default defineControl({
  name: 'colors',
  label: 'Colors (JHPullToRefreshKit)',
  cycleMs: 600,
  exitMs: 1000,
  progress(ctx) {
    if (ctx.distance <= 0 || ctx.state === 'disabled') return;
    paint(ctx, mix('#c8ccd2', PALETTE[0], ctx.progress), ctx.progress, 1);
  },
  cycle(ctx) {
    const { index, t } = ctx.cycle;
    const colour = mix(PALETTE[index % PALETTE.length], PALETTE[(index + 1) % PALETTE.length], ease(t));
    paint(ctx, colour, 1, 1);
  },
  exit(ctx) {
    const { index } = ctx.cycle;
    paint(ctx, mix(PALETTE[index % PALETTE.length], '#000000', ctx.exit.t), 1, 1 - ctx.exit.t);
  },
});
