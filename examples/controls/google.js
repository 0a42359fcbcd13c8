// JHPullToRefreshKit's "google" control, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own
// examples"): the README shows it only as a picture (google.gif), the third of its four controls; this one
// draws Google's four colours as dots and runs them through JH's life cycle.
// - With the pull (pullRatio = ctx.progress): the four dots come out of the centre and spread to their places,
//   growing as they go.
// - Each animation cycle (ctx.cycle.t): the dots jump one after the other, a wave that runs once per cycle.
// - The exit (ctx.exit.t): the dots gather back into the centre and shrink away.
import { defineControl } from '/js/refreshkit.js';

const DOTS = ['#4285f4', '#ea4335', '#fbbc05', '#34a853'];
const GAP = 22;
const RADIUS = 6;

function dots(ctx, spread, size, lift) {
  const g = ctx.canvas2d;
  const { view } = ctx;
  const cx = view.x + view.w / 2;
  const cy = view.y + view.h / 2;
  DOTS.forEach((colour, i) => {
    const x = cx + (i - 1.5) * GAP * spread;
    g.fillStyle = colour;
    g.beginPath();
    g.arc(x, cy - lift(i), Math.max(0.5, RADIUS * size), 0, Math.PI * 2);
    g.fill();
  });
}

export default defineControl({
  name: 'google',
  label: 'Google dots (JHPullToRefreshKit)',
  cycleMs: 800,
  exitMs: 300,
  progress(ctx) {
    if (ctx.distance <= 0 || ctx.state === 'disabled') return;
    const p = Math.max(0, Math.min(1, ctx.progress));
    dots(ctx, p, 0.3 + 0.7 * p, () => 0);
  },
  cycle(ctx) {
    const { t } = ctx.cycle;
    // dot i jumps during its quarter of the cycle: a half sine, 12 px high
    dots(ctx, 1, 1, (i) => {
      const local = t * DOTS.length - i;
      return local > 0 && local < 1 ? Math.sin(local * Math.PI) * 12 : 0;
    });
  },
  exit(ctx) {
    const left = 1 - ctx.exit.t;
    dots(ctx, left, left, () => 0);
  },
});
