// HTRefreshView's arrow-and-text header, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own
// examples"): an HTTopLeftRefreshView subclass builds its views in `loadSubViews` (setup here), hears
// `refreshStateChanged:` (stateChanged) and `refreshPercentChanged:offset:direction:` (progress), and the
// README's gif shows the percent of the pull next to the words.
// - With the pull (percent = ctx.progress): an arrow, the words "Pull to refresh" and the percent; at
//   CanEngageRefresh (armed) the arrow turns up and the words say "Release to refresh"; at DidDisengageRefresh
//   they turn back.
// - While refreshing (DidEngageRefresh): the activity ticks turn once per animation cycle (ctx.cycle.t) beside
//   "Loading…".
// - The exit (WillEndRefresh → DidEndRefresh, ctx.exit.t): "Done" with a check, fading out.
// The words are the page's own (English or Chinese, /js/i18n.js), as HTRefreshView's demo is in Chinese.
import { defineControl, drawArrow, drawCheck, drawTicks, setFont, t } from '/js/refreshkit.js';

const WORDS = { armed: 'indicator.release', refreshing: 'indicator.loading', finishing: 'indicator.done' };

function words(state) {
  return t(WORDS[state] ?? 'indicator.pull');
}

function header(ctx, icon, alpha) {
  const g = ctx.canvas2d;
  const { view, theme } = ctx;
  const percent = ctx.state === 'pulling' || ctx.state === 'armed' ? ` ${Math.round(Math.min(1, ctx.progress) * 100)}%` : '';
  const label = words(ctx.state) + percent;
  setFont(g, theme, 15, 500);
  const textW = g.measureText(label).width;
  const left = view.x + (view.w - (20 + 10 + textW)) / 2;
  const cy = view.y + view.h / 2;
  g.globalAlpha *= alpha;
  icon(g, left + 10, cy);
  g.fillStyle = theme.text2;
  g.textAlign = 'left';
  g.textBaseline = 'middle';
  g.fillText(label, left + 30, cy);
}

export default defineControl({
  name: 'htHeader',
  label: 'Arrow and text (HTRefreshView)',
  cycleMs: 1000,
  exitMs: 300,
  text: words,
  setup(ctx) {
    // loadSubViews: what the header remembers between frames
    ctx.data.turnedAt = -Infinity;
    ctx.data.up = false;
  },
  stateChanged(ctx) {
    // refreshStateChanged: CanEngageRefresh turns the arrow up, DidDisengageRefresh turns it back down
    const up = ctx.state === 'armed';
    if (up !== ctx.data.up) {
      ctx.data.up = up;
      ctx.data.turnedAt = ctx.clock;
    }
  },
  progress(ctx) {
    if (ctx.distance <= 0 || ctx.state === 'disabled' || ctx.state === 'noMoreData' || ctx.state === 'failed') return;
    const turn = ctx.reducedMotion ? 1 : Math.min(1, (ctx.clock - ctx.data.turnedAt) / 200);
    const angle = ctx.data.up ? Math.PI * turn : Math.PI * (1 - turn);
    header(ctx, (g, x, y) => drawArrow(g, x, y, angle, ctx.data.up ? ctx.theme.accent : ctx.theme.text2, 18), 1);
  },
  cycle(ctx) {
    const spin = ctx.reducedMotion ? null : ctx.cycle.t;
    header(ctx, (g, x, y) => drawTicks(g, x, y, { radius: 9, width: 2.2, color: ctx.theme.indicator, spin }), 1);
  },
  exit(ctx) {
    header(ctx, (g, x, y) => drawCheck(g, x, y, ctx.theme.accent, 16), 1 - ctx.exit.t);
  },
});
