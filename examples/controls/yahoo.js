// JHPullToRefreshKit's "yahoo" control, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own
// examples"): the README's Yahoo News Digest example, a JHLayerAnimationRefreshControl that spins its dots by
// `addCABasicAnimationWithKeyPath:@"transform.rotation.z" fromValue:0.0 toValue:2*M_PI`, one turn per animation
// cycle, and the README's example of an exit animation.
// - With the pull (pullRatio = ctx.progress): the ring of dots appears dot by dot and turns with the pull.
// - Each animation cycle (ctx.cycle.t): the ring turns once, 0 → 2π, as the CABasicAnimation does.
// - The exit (ctx.exit.t): the dots fly outwards and fade, then the control resigns.
import { defineControl } from '/js/refreshkit.js';

const COLOURS = ['#7b0099', '#a23fd1', '#c77dff', '#7b0099', '#a23fd1', '#c77dff', '#7b0099', '#a23fd1'];
const RING = 16;

function ring(ctx, { shown = COLOURS.length, angle = 0, radius = RING, alpha = 1 }) {
  const g = ctx.canvas2d;
  const { view } = ctx;
  const cx = view.x + view.w / 2;
  const cy = view.y + view.h / 2;
  g.globalAlpha *= alpha;
  for (let i = 0; i < shown; i++) {
    const a = angle + (i / COLOURS.length) * Math.PI * 2 - Math.PI / 2;
    g.fillStyle = COLOURS[i];
    g.beginPath();
    g.arc(cx + Math.cos(a) * radius, cy + Math.sin(a) * radius, 4, 0, Math.PI * 2);
    g.fill();
  }
}

export default defineControl({
  name: 'yahoo',
  label: 'Yahoo dots (JHPullToRefreshKit)',
  cycleMs: 1000,
  exitMs: 400,
  progress(ctx) {
    if (ctx.distance <= 0 || ctx.state === 'disabled') return;
    const p = Math.max(0, Math.min(1, ctx.progress));
    ring(ctx, { shown: Math.ceil(p * COLOURS.length), angle: p * Math.PI });
  },
  cycle(ctx) {
    ring(ctx, { angle: Math.PI + ctx.cycle.t * Math.PI * 2 });
  },
  exit(ctx) {
    const e = ctx.exit.t;
    ring(ctx, { angle: Math.PI, radius: RING + e * 40, alpha: 1 - e });
  },
});
