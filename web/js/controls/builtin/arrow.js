// Classic arrow + label: "Pull to refresh", "Release to refresh" (the arrow turns up when armed),
// "Loading…" with an activity indicator while refreshing, "Done" with a check fading out in the exit.
import { defineControl } from '../api.js';
import { drawArrow, drawActivity, drawCheck, ease, setFont, clamp01 } from '../../draw/paint.js';
import { t, language } from '../../i18n.js';

const TURN_MS = 180;

export function arrowLabel(state) {
  switch (state) {
    case 'armed': return t('indicator.release');
    case 'refreshing': return t('indicator.loading');
    case 'finishing': return t('indicator.done');
    default: return t('indicator.pull');
  }
}

/**
 * The classic header's second line, as EGOTableViewPullRefresh and MJRefresh's state header draw it under their
 * label: when the list was last refreshed (`at`, a Date; null before the first refresh of this page).
 */
export function lastUpdatedText(at, lang = language()) {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) return null;
  const time = new Intl.DateTimeFormat(lang === 'zh-Hans' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit' })
    .format(at);
  return t('indicator.lastUpdated', { time }, lang);
}

function arrowAngle(ctx) {
  const t = ctx.reducedMotion ? 1 : ease(ctx.stateAge / TURN_MS);
  if (ctx.state === 'armed') return Math.PI * t;
  if (ctx.previousState === 'armed') return Math.PI * (1 - t);
  return 0;
}

/** The icon, the label and the "last updated" line, at `alpha`. */
function drawHeader(ctx, alpha) {
  const g = ctx.canvas2d;
  const { view, state } = ctx;
  const label = arrowLabel(state);
  setFont(g, ctx.theme, 15, 500);
  const textW = g.measureText(label).width;
  const iconW = 20, gap = 10;
  const left = view.x + (view.w - (iconW + gap + textW)) / 2;
  const updated = lastUpdatedText(ctx.lastUpdated);
  const cy = view.y + view.h / 2 - (updated ? 8 : 0);
  const ix = left + iconW / 2;
  if (state === 'refreshing') drawActivity(g, ix, cy, ctx, { radius: 9, alpha });
  else if (state === 'finishing') drawCheck(g, ix, cy, ctx.theme.accent, 16, alpha);
  else {
    // the arrow fades in with the first part of the pull
    const a = 0.35 + 0.65 * clamp01(ctx.progress * 1.5);
    drawArrow(g, ix, cy, arrowAngle(ctx), state === 'armed' ? ctx.theme.accent : ctx.theme.text2, 18, a);
  }
  g.save();
  g.globalAlpha = alpha;
  g.fillStyle = ctx.theme.text2;
  g.textBaseline = 'middle';
  g.textAlign = 'left';
  g.fillText(label, left + iconW + gap, cy);
  if (updated) {
    setFont(g, ctx.theme, 12, 400);
    g.textAlign = 'center';
    g.fillText(updated, view.x + view.w / 2, cy + 18);
  }
  g.restore();
}

export default defineControl({
  name: 'arrow',
  label: 'Arrow and label',
  /** The words drawn for `state` (also read by tests through window.refreshkit.indicatorTexts). */
  text: arrowLabel,
  progress(ctx) {
    if (ctx.state === 'disabled' || ctx.state === 'noMoreData' || ctx.state === 'failed') return;
    if (ctx.distance <= 0) return;
    drawHeader(ctx, 1);
  },
  cycle(ctx) {
    drawHeader(ctx, 1);
  },
  exit(ctx) {
    if (ctx.exit.t < 1) drawHeader(ctx, 1 - ctx.exit.t);
  },
});
