// The left and right edges' control: a round badge with a chevron and a progress ring, filled when armed, an
// activity indicator while refreshing, fading out in the exit.
import { defineControl } from '../api.js';
import { TAU, clamp01, drawActivity } from '../../draw/paint.js';

function badge(ctx, alpha) {
  const g = ctx.canvas2d;
  const { view, state } = ctx;
  const cx = view.x + view.w / 2;
  const cy = view.y + view.h / 2;
  const r = 16;
  const armed = state === 'armed';
  g.save();
  g.globalAlpha *= alpha;
  g.fillStyle = armed ? ctx.theme.accent : ctx.theme.badge;
  g.beginPath();
  g.arc(cx, cy, r, 0, TAU);
  g.fill();
  if (state === 'refreshing' || state === 'finishing') {
    drawActivity(g, cx, cy, ctx, { radius: 8, alpha: 1 });
  } else if (state === 'noMoreData' || state === 'failed') {
    g.fillStyle = state === 'failed' ? ctx.theme.danger : ctx.theme.text2;
    g.font = `600 15px ${ctx.theme.font}`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(state === 'failed' ? '!' : '·', cx, cy + 0.5);
  } else {
    const p = clamp01(ctx.progress);
    g.strokeStyle = ctx.theme.accent;
    g.lineWidth = 2.5;
    g.lineCap = 'round';
    if (!armed && p > 0) {
      g.beginPath();
      g.arc(cx, cy, r - 1.25, -Math.PI / 2, -Math.PI / 2 + p * TAU);
      g.stroke();
    }
    // chevron pointing towards the content
    const dir = ctx.edge === 'left' ? 1 : -1;
    g.strokeStyle = armed ? ctx.theme.onAccent : ctx.theme.text2;
    g.lineWidth = 2.2;
    g.lineJoin = 'round';
    g.beginPath();
    g.moveTo(cx - 3 * dir, cy - 6);
    g.lineTo(cx + 3 * dir, cy);
    g.lineTo(cx - 3 * dir, cy + 6);
    g.stroke();
  }
  g.restore();
}

export default defineControl({
  name: 'side',
  label: 'Side badge',
  edges: ['left', 'right'],
  progress(ctx) {
    if (ctx.state === 'disabled') return;
    if ((ctx.state === 'idle' || ctx.state === 'pulling' || ctx.state === 'armed') && ctx.distance <= 0) return;
    badge(ctx, 1);
  },
  cycle(ctx) {
    badge(ctx, 1);
  },
  exit(ctx) {
    badge(ctx, 1 - ctx.exit.t);
  },
});
