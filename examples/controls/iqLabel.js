// IQPullToRefresh's custom view, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own examples"):
// IQ takes any UIView that adopts IQAnimatableRefresh, and its README's example is a UILabel whose
// `refreshState` didSet sets its alpha and text. This one is a DOM control (`dom: true`): a label element that
// the host keeps over the edge's area.
// - With the pull (`.pulling(progress)`, ctx.progress): alpha = progress, "Pull to refresh"; `.eligible`
//   (armed): alpha 1, "Release to refresh"; `.none` (idle, nothing pulled): alpha 0, no text.
// - While refreshing (`.refreshing`): "Loading", with one more dot per quarter of each animation cycle
//   (ctx.cycle.t): IQ's label does not move, the dots show the cycle.
// - The exit (endPullToRefreshAnimation, ctx.exit.t): the label fades out as the inset goes back.
import { defineControl } from '/js/refreshkit.js';

function show(ctx, text, alpha) {
  const label = ctx.data.label;
  if (label.textContent !== text) label.textContent = text;
  ctx.element.style.opacity = String(Math.max(0, Math.min(1, alpha)));
}

export default defineControl({
  name: 'iqLabel',
  label: 'Custom label (IQPullToRefresh)',
  dom: true,
  cycleMs: 1200,
  exitMs: 100,
  text: (state) => ({ pulling: 'Pull to refresh', armed: 'Release to refresh', refreshing: 'Loading' })[state] ?? '',
  setup(ctx) {
    const label = document.createElement('span');
    const s = ctx.element.style;
    s.display = 'flex';
    s.alignItems = 'center';
    s.justifyContent = 'center';
    s.font = '600 17px var(--rk-font)';
    s.color = 'var(--rk-accent)';
    ctx.element.append(label);
    ctx.data.label = label;
  },
  progress(ctx) {
    if (ctx.state === 'pulling' && ctx.distance > 0) show(ctx, 'Pull to refresh', ctx.progress);
    else if (ctx.state === 'armed') show(ctx, 'Release to refresh', 1);
    else show(ctx, '', 0);
  },
  cycle(ctx) {
    show(ctx, `Loading${'.'.repeat(Math.min(3, Math.floor(ctx.cycle.t * 4)))}`, 1);
  },
  exit(ctx) {
    show(ctx, 'Loading...', 1 - ctx.exit.t);
  },
  teardown(ctx) {
    ctx.data.label?.remove();
  },
});
