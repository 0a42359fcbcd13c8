// The bottom edge's footer: load more, loading, no more items, and a failed load that retries on tap.
import { drawActivity, drawArrow, finishingAlpha, setFont, ease, roundRectPath } from './common.js';
import { t } from '../i18n.js';

export function footerLabel(state) {
  switch (state) {
    case 'armed': return t('footer.release');
    case 'refreshing':
    case 'finishing': return t('footer.loading');
    case 'noMoreData': return t('footer.noMore');
    case 'failed': return t('footer.failed');
    case 'disabled': return '';
    default: return t('footer.pull');
  }
}

export const RETRY = Object.freeze({ type: 'command', name: 'retry', edge: 'bottom' });

export default {
  name: 'footer',
  label: 'Load-more footer',
  /** The words drawn for `state` (also read by tests through window.refreshkit.indicatorTexts). */
  text: footerLabel,
  draw(ctx, entry, layout, env) {
    const state = entry.state;
    const label = footerLabel(state);
    if (!label) return null;
    const { view } = layout;
    const alpha = finishingAlpha(entry, env);
    if (alpha <= 0) return null;
    const cx = view.x + view.w / 2;
    const cy = view.y + view.h / 2;
    setFont(ctx, env, 15, state === 'failed' ? 600 : 500);
    const textW = ctx.measureText(label).width;
    ctx.save();
    ctx.textBaseline = 'middle';
    ctx.globalAlpha = alpha;
    if (state === 'refreshing' || state === 'finishing') {
      const total = 20 + 10 + textW;
      const left = cx - total / 2;
      drawActivity(ctx, left + 10, cy, env, { radius: 9, alpha });
      ctx.fillStyle = env.theme.text2;
      ctx.textAlign = 'left';
      ctx.fillText(label, left + 30, cy);
    } else if (state === 'noMoreData') {
      ctx.fillStyle = env.theme.text2;
      ctx.textAlign = 'center';
      ctx.fillText(label, cx, cy);
      ctx.fillStyle = env.theme.separator;
      const lw = Math.min(56, (view.w - textW) / 2 - 28);
      if (lw > 8) {
        const hair = 1 / env.dpr;
        ctx.fillRect(cx - textW / 2 - 14 - lw, cy, lw, hair);
        ctx.fillRect(cx + textW / 2 + 14, cy, lw, hair);
      }
    } else if (state === 'failed') {
      const padX = 16, h = 34;
      const w = textW + padX * 2;
      const x = cx - w / 2, y = cy - h / 2;
      ctx.fillStyle = env.theme.dangerFill;
      ctx.beginPath();
      roundRectPath(ctx, x, y, w, h, h / 2);
      ctx.fill();
      ctx.fillStyle = env.theme.danger;
      ctx.textAlign = 'center';
      ctx.fillText(label, cx, cy + 0.5);
      ctx.restore();
      // the whole footer slot is the tap target (generous for fingers)
      return { tap: { rect: { ...view }, message: RETRY, label } };
    } else {
      const armed = state === 'armed';
      const total = 20 + 10 + textW;
      const left = cx - total / 2;
      const turn = env.reducedMotion ? 1 : ease(env.stateAge / 180);
      const angle = armed ? Math.PI * (1 - turn) : env.prevState === 'armed' ? Math.PI * turn : Math.PI;
      drawArrow(ctx, left + 10, cy, angle, armed ? env.theme.accent : env.theme.text2, 16, 0.9);
      ctx.fillStyle = env.theme.text2;
      ctx.textAlign = 'left';
      ctx.fillText(label, left + 30, cy);
    }
    ctx.restore();
    return null;
  },
};
