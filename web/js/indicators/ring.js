// A progress ring: the arc closes with the pull's progress (IQPullToRefresh's pulling(progress)), turns
// solid when armed (eligible), spins a gap while refreshing and shows a check while finishing. The view
// is scaled by the entry's `scale` (GVRefreshControl's `stretches` and `fixedTop` behaviours).
import { TAU, clamp01, drawCheck, finishingAlpha } from './common.js';

export default {
  name: 'ring',
  label: 'Progress ring',
  draw(ctx, entry, layout, env) {
    const state = entry.state;
    if (state === 'disabled' || state === 'noMoreData' || state === 'failed') return null;
    if ((state === 'idle' || state === 'pulling') && layout.distance <= 0) return null;
    const alpha = finishingAlpha(entry, env);
    if (alpha <= 0) return null;
    const { view } = layout;
    const scale = Number.isFinite(entry.scale) && entry.scale > 0 ? Math.min(1, entry.scale) : 1;
    const cx = view.x + view.w / 2;
    const cy = view.y + view.h / 2;
    const radius = Math.min(14, view.h * 0.3) * scale;
    if (radius <= 0.5) return null;
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.lineCap = 'round';
    ctx.lineWidth = 3 * scale;
    ctx.strokeStyle = env.theme.separator || 'rgba(128,128,128,0.3)';
    ctx.beginPath();
    ctx.arc(cx, cy, radius, 0, TAU);
    ctx.stroke();
    ctx.strokeStyle = env.theme.accent;
    ctx.beginPath();
    if (state === 'refreshing') {
      const spin = env.reducedMotion ? 0 : ((env.clock % 900) / 900) * TAU;
      ctx.arc(cx, cy, radius, spin - Math.PI / 2, spin + Math.PI);
      ctx.stroke();
    } else if (state === 'finishing') {
      ctx.arc(cx, cy, radius, 0, TAU);
      ctx.stroke();
      drawCheck(ctx, cx, cy, env.theme.accent, radius, alpha);
    } else {
      const progress = state === 'armed' ? 1 : clamp01(entry.progress);
      ctx.arc(cx, cy, radius, -Math.PI / 2, -Math.PI / 2 + progress * TAU);
      ctx.stroke();
    }
    ctx.restore();
    return null;
  },
};
