// The bottom edge's footer: load more, loading, no more items, and a failed load that retries on tap.
import { defineControl } from '../api.js';
import { drawActivity, drawArrow, setFont, ease, roundRectPath } from '../../draw/paint.js';
import { t } from '../../i18n.js';
import { ellipsize } from '../../draw/wrap.js';

/** The footer's words in `state`; a failed load says the source's `error` (`ctx.error`) when there is one. */
export function footerLabel(state, error = null) {
  switch (state) {
    case 'armed': return t('footer.release');
    case 'refreshing':
    case 'finishing': return t('footer.loading');
    case 'noMoreData': return t('footer.noMore');
    case 'failed': return error?.message ? t('footer.failedBecause', { message: error.message }) : t('footer.failed');
    case 'disabled': return '';
    default: return t('footer.pull');
  }
}

export const RETRY = Object.freeze({ type: 'command', name: 'retry', edge: 'bottom' });

function drawFooter(ctx, alpha) {
  const g = ctx.canvas2d;
  const { view, state, theme } = ctx;
  let label = footerLabel(state, ctx.error);
  if (!label || alpha <= 0) return;
  const cx = view.x + view.w / 2;
  const cy = view.y + view.h / 2;
  setFont(g, theme, 15, state === 'failed' ? 600 : 500);
  if (state === 'failed') label = ellipsize(label, view.w - 48, (s) => g.measureText(s).width);
  const textW = g.measureText(label).width;
  g.save();
  g.textBaseline = 'middle';
  g.globalAlpha *= alpha;
  if (state === 'refreshing' || state === 'finishing') {
    const left = cx - (20 + 10 + textW) / 2;
    drawActivity(g, left + 10, cy, ctx, { radius: 9, alpha: 1 });
    g.fillStyle = theme.text2;
    g.textAlign = 'left';
    g.fillText(label, left + 30, cy);
  } else if (state === 'noMoreData') {
    g.fillStyle = theme.text2;
    g.textAlign = 'center';
    g.fillText(label, cx, cy);
    g.fillStyle = theme.separator;
    const lw = Math.min(56, (view.w - textW) / 2 - 28);
    if (lw > 8) {
      const hair = 1 / ctx.dpr;
      g.fillRect(cx - textW / 2 - 14 - lw, cy, lw, hair);
      g.fillRect(cx + textW / 2 + 14, cy, lw, hair);
    }
  } else if (state === 'failed') {
    const padX = 16, h = 34;
    const w = textW + padX * 2;
    g.fillStyle = theme.dangerFill;
    g.beginPath();
    roundRectPath(g, cx - w / 2, cy - h / 2, w, h, h / 2);
    g.fill();
    g.fillStyle = theme.danger;
    g.textAlign = 'center';
    g.fillText(label, cx, cy + 0.5);
    // the whole footer slot is the tap target (generous for fingers)
    ctx.tap(view, 'retry', label);
  } else {
    const armed = state === 'armed';
    const left = cx - (20 + 10 + textW) / 2;
    const turn = ctx.reducedMotion ? 1 : ease(ctx.stateAge / 180);
    const angle = armed ? Math.PI * (1 - turn) : ctx.previousState === 'armed' ? Math.PI * turn : Math.PI;
    drawArrow(g, left + 10, cy, angle, armed ? theme.accent : theme.text2, 16, 0.9);
    g.fillStyle = theme.text2;
    g.textAlign = 'left';
    g.fillText(label, left + 30, cy);
  }
  g.restore();
}

export default defineControl({
  name: 'footer',
  label: 'Load-more footer',
  edges: ['bottom'],
  /** The words drawn for `state` (also read by tests through window.refreshkit.indicatorTexts). */
  text: footerLabel,
  progress(ctx) {
    drawFooter(ctx, 1);
  },
  cycle(ctx) {
    drawFooter(ctx, 1);
  },
  exit(ctx) {
    drawFooter(ctx, 1 - ctx.exit.t);
  },
});
