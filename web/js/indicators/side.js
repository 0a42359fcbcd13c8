// A simple indicator for the left and right edges: a round badge with a chevron and a progress ring,
// filled when armed, an activity indicator while refreshing.
import { drawActivity, clamp01, finishingAlpha, TAU } from './common.js';

export default {
  name: 'side',
  label: 'Side badge',
  draw(ctx, entry, layout, env) {
    const state = entry.state;
    if (state === 'disabled') return null;
    if ((state === 'idle' || state === 'pulling' || state === 'armed') && layout.distance <= 0) return null;
    const alpha = finishingAlpha(entry, env);
    if (alpha <= 0) return null;
    const { view } = layout;
    const cx = view.x + view.w / 2;
    const cy = view.y + view.h / 2;
    const r = 16;
    const armed = state === 'armed';
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.fillStyle = armed ? env.theme.accent : env.theme.badge;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, TAU);
    ctx.fill();
    if (state === 'refreshing' || state === 'finishing') {
      drawActivity(ctx, cx, cy, env, { radius: 8, alpha });
    } else if (state === 'noMoreData' || state === 'failed') {
      ctx.fillStyle = state === 'failed' ? env.theme.danger : env.theme.text2;
      ctx.font = `600 15px ${env.theme.font}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(state === 'failed' ? '!' : '·', cx, cy + 0.5);
    } else {
      const p = clamp01(entry.progress);
      ctx.strokeStyle = env.theme.accent;
      ctx.lineWidth = 2.5;
      ctx.lineCap = 'round';
      if (!armed && p > 0) {
        ctx.beginPath();
        ctx.arc(cx, cy, r - 1.25, -Math.PI / 2, -Math.PI / 2 + p * TAU);
        ctx.stroke();
      }
      // chevron pointing towards the content
      const dir = entry.edge === 'left' ? 1 : -1;
      ctx.strokeStyle = armed ? env.theme.onAccent : env.theme.text2;
      ctx.lineWidth = 2.2;
      ctx.lineJoin = 'round';
      ctx.beginPath();
      ctx.moveTo(cx - 3 * dir, cy - 6);
      ctx.lineTo(cx + 3 * dir, cy);
      ctx.lineTo(cx - 3 * dir, cy + 6);
      ctx.stroke();
    }
    ctx.restore();
    return null;
  },
};
