// Classic arrow + label: "Pull to refresh", "Release to refresh" (the arrow turns up when armed),
// "Loading…" with an activity indicator while refreshing.
import { drawArrow, drawActivity, drawCheck, ease, finishingAlpha, setFont, clamp01 } from './common.js';
import { t, language } from '../i18n.js';

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

function arrowAngle(state, env) {
  const t = env.reducedMotion ? 1 : ease(env.stateAge / TURN_MS);
  if (state === 'armed') return Math.PI * t;
  if (env.prevState === 'armed') return Math.PI * (1 - t);
  return 0;
}

export default {
  name: 'arrow',
  label: 'Arrow and label',
  /** The words drawn for `state` (also read by tests through window.refreshkit.indicatorTexts). */
  text: arrowLabel,
  draw(ctx, entry, layout, env) {
    const state = entry.state;
    if (state === 'disabled' || state === 'noMoreData' || state === 'failed') return null;
    if ((state === 'idle' || state === 'pulling') && layout.distance <= 0) return null;
    const { view } = layout;
    const alpha = finishingAlpha(entry, env);
    if (alpha <= 0) return null;
    const label = arrowLabel(state);
    setFont(ctx, env, 15, 500);
    const textW = ctx.measureText(label).width;
    const iconW = 20, gap = 10;
    const total = iconW + gap + textW;
    const left = view.x + (view.w - total) / 2;
    const updated = lastUpdatedText(env.lastUpdated);
    const cy = view.y + view.h / 2 - (updated ? 8 : 0);
    const ix = left + iconW / 2;
    const color = env.theme.text2;
    if (state === 'refreshing') drawActivity(ctx, ix, cy, env, { radius: 9, alpha });
    else if (state === 'finishing') drawCheck(ctx, ix, cy, env.theme.accent, 16, alpha);
    else {
      // the arrow fades in with the first part of the pull
      const a = 0.35 + 0.65 * clamp01(entry.progress * 1.5);
      drawArrow(ctx, ix, cy, arrowAngle(state, env), state === 'armed' ? env.theme.accent : color, 18, a);
    }
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.fillStyle = env.theme.text2;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillText(label, left + iconW + gap, cy);
    if (updated) {
      setFont(ctx, env, 12, 400);
      ctx.textAlign = 'center';
      ctx.fillText(updated, view.x + view.w / 2, cy + 18);
    }
    ctx.restore();
    return null;
  },
};
