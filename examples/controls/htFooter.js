// HTRefreshView's footer, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own examples"): an
// HTBottomRightRefreshView subclass for the bottom edge (?control=bottom:htFooter), with the same hooks as the
// header (loadSubViews, refreshStateChanged:, refreshPercentChanged:offset:direction:) and HT's load-more modes.
// - With the pull (percent = ctx.progress, DraggingTrigger mode): "Pull up to load more" and the percent; at
//   CanEngageRefresh (armed) "Release to load more".
// - While loading (DidEngageRefresh): a bar runs across the footer once per animation cycle (ctx.cycle.t)
//   under "Loading…".
// - The exit (DidEndRefresh, ctx.exit.t): the bar fills and the footer fades out.
// - At rest: "No more items" when the feed has run out; a failed load offers a tap target that retries
//   (ctx.tap(rect, 'retry')), as HT's footer leaves the retry to the app.
import { defineControl, setFont, t } from '/js/refreshkit.js';

const WORDS = {
  armed: 'footer.release', refreshing: 'footer.loading', finishing: 'footer.loading',
  noMoreData: 'footer.noMore', failed: 'footer.failed',
};

function words(state) {
  return state === 'disabled' ? '' : t(WORDS[state] ?? 'footer.pull');
}

function footer(ctx, bar, alpha) {
  const g = ctx.canvas2d;
  const { view, theme } = ctx;
  const percent = ctx.state === 'pulling' || ctx.state === 'armed' ? ` ${Math.round(Math.min(1, ctx.progress) * 100)}%` : '';
  g.globalAlpha *= alpha;
  setFont(g, theme, 14, ctx.state === 'failed' ? 600 : 500);
  g.fillStyle = ctx.state === 'failed' ? theme.danger : theme.text2;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(words(ctx.state) + percent, view.x + view.w / 2, view.y + view.h / 2 - 4);
  if (bar) {
    const [from, to] = bar;
    g.fillStyle = theme.accent;
    g.fillRect(view.x + view.w * from, view.y + view.h / 2 + 10, view.w * (to - from), 3);
  }
}

export default defineControl({
  name: 'htFooter',
  label: 'Footer (HTRefreshView)',
  edges: ['bottom'],
  cycleMs: 900,
  exitMs: 300,
  text: words,
  progress(ctx) {
    if (ctx.state === 'disabled') return;
    if ((ctx.state === 'idle' || ctx.state === 'pulling') && ctx.distance < 0) return;
    footer(ctx, ctx.state === 'pulling' || ctx.state === 'armed' ? [0, Math.min(1, ctx.progress)] : null, 1);
    if (ctx.state === 'failed') ctx.tap(ctx.view, 'retry', words('failed'));
  },
  cycle(ctx) {
    const head = ctx.cycle.t * 1.3;
    footer(ctx, [Math.max(0, head - 0.3), Math.min(1, head)], 1);
  },
  exit(ctx) {
    footer(ctx, [0, 1], 1 - ctx.exit.t);
  },
});
