// UIRefreshControl style: eight ticks revealed one by one with the pull's progress, the spinning activity
// indicator while refreshing, fading (and shrinking) away while finishing.
import { drawTicks, finishingAlpha, cyclePeriodMs, clamp01 } from './common.js';

export default {
  name: 'spinner',
  label: 'Spinner (UIRefreshControl)',
  draw(ctx, entry, layout, env) {
    const { view } = layout;
    const cx = view.x + view.w / 2;
    const cy = view.y + view.h / 2;
    const color = env.theme.indicator;
    const state = entry.state;
    if (state === 'disabled' || state === 'noMoreData' || state === 'failed') return null;

    if (state === 'refreshing' || state === 'finishing') {
      const alpha = finishingAlpha(entry, env);
      if (alpha <= 0) return null;
      const period = cyclePeriodMs(entry.cycle, 1000);
      const since = entry.cycle && Number.isFinite(entry.cycle.t0) ? env.serverNow - entry.cycle.t0 : env.clock;
      const spin = env.reducedMotion ? null : (((since % period) + period) % period) / period;
      const scale = state === 'finishing' && !env.reducedMotion ? 0.6 + 0.4 * alpha : 1;
      drawTicks(ctx, cx, cy, { radius: 13 * scale, width: 3 * scale, color, alpha, spin, revealed: 1 });
      return null;
    }
    // idle, pulling, armed: reveal with the progress
    const progress = clamp01(entry.progress);
    if (progress <= 0 || layout.distance <= 0) return null;
    drawTicks(ctx, cx, cy, { radius: 13, width: 3, color, revealed: progress, alpha: state === 'armed' ? 1 : 0.9 });
    return null;
  },
};
