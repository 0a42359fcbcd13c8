// A progress ring: the arc closes with the pull's progress (IQPullToRefresh's pulling(progress)), turns
// solid when armed (eligible), spins a gap while refreshing and shows a check fading out in the exit. The
// view is scaled by the entry's `scale` (GVRefreshControl's `stretches` and `fixedTop` behaviours).
import { defineControl } from '../api.js';
import { TAU, clamp01, drawCheck } from '../../draw/paint.js';

const SPIN_MS = 900;

function ring(ctx, alpha, arc) {
  const g = ctx.canvas2d;
  const { view } = ctx;
  const scale = Math.min(1, ctx.scale);
  const cx = view.x + view.w / 2;
  const cy = view.y + view.h / 2;
  const radius = Math.min(14, view.h * 0.3) * scale;
  if (radius <= 0.5 || alpha <= 0) return;
  g.save();
  g.globalAlpha *= alpha;
  g.lineCap = 'round';
  g.lineWidth = 3 * scale;
  g.strokeStyle = ctx.theme.separator || 'rgba(128,128,128,0.3)';
  g.beginPath();
  g.arc(cx, cy, radius, 0, TAU);
  g.stroke();
  g.strokeStyle = ctx.theme.accent;
  g.beginPath();
  g.arc(cx, cy, radius, arc[0], arc[1]);
  g.stroke();
  if (ctx.state === 'finishing') drawCheck(g, cx, cy, ctx.theme.accent, radius, 1);
  g.restore();
}

export default defineControl({
  name: 'ring',
  label: 'Progress ring',
  progress(ctx) {
    if (ctx.state === 'disabled' || ctx.state === 'noMoreData' || ctx.state === 'failed' || ctx.distance <= 0) return;
    const progress = ctx.state === 'armed' ? 1 : clamp01(ctx.progress);
    ring(ctx, 1, [-Math.PI / 2, -Math.PI / 2 + progress * TAU]);
  },
  cycle(ctx) {
    const spin = ctx.reducedMotion ? 0 : (((ctx.serverNow % SPIN_MS) + SPIN_MS) % SPIN_MS) / SPIN_MS * TAU;
    ring(ctx, 1, [spin - Math.PI / 2, spin + Math.PI]);
  },
  exit(ctx) {
    ring(ctx, 1 - ctx.exit.t, [0, TAU]);
  },
});
