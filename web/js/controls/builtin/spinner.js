// UIRefreshControl's look: eight ticks revealed one by one with the pull's progress, the spinning activity
// indicator while refreshing (one turn per animation cycle), shrinking and fading away in the exit.
import { defineControl } from '../api.js';
import { clamp01, drawTicks } from '../../draw/paint.js';

const RESTING = new Set(['disabled', 'noMoreData', 'failed']);

function spin(ctx, scale, alpha) {
  const { view } = ctx;
  drawTicks(ctx.canvas2d, view.x + view.w / 2, view.y + view.h / 2, {
    radius: 13 * scale, width: 3 * scale, color: ctx.theme.indicator, alpha,
    spin: ctx.reducedMotion ? null : ctx.cycle.t, revealed: 1,
  });
}

export default defineControl({
  name: 'spinner',
  label: 'Spinner (UIRefreshControl)',
  progress(ctx) {
    const progress = clamp01(ctx.progress);
    if (RESTING.has(ctx.state) || progress <= 0 || ctx.distance <= 0) return;
    const { view } = ctx;
    drawTicks(ctx.canvas2d, view.x + view.w / 2, view.y + view.h / 2, {
      radius: 13, width: 3, color: ctx.theme.indicator, revealed: progress, alpha: ctx.state === 'armed' ? 1 : 0.9,
    });
  },
  cycle(ctx) {
    spin(ctx, 1, 1);
  },
  exit(ctx) {
    const alpha = 1 - ctx.exit.t;
    if (alpha > 0) spin(ctx, ctx.reducedMotion ? 1 : 0.6 + 0.4 * alpha, alpha);
  },
});
