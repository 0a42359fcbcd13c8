// MSPullToRefreshController's rainbow, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own
// examples"): Miso's README says its demo "recreates our familiar rainbow loading in the Miso App"; the library
// draws nothing itself and hands the app its delegate calls, which are this control's hooks.
// - With the pull: the rainbow's stripes slide in from the left as far as the progress goes (ctx.progress);
//   canEngageRefreshDirection / didDisengageRefreshDirection (the state armed, back to pulling, through
//   stateChanged) saturate it or grey it again.
// - While refreshing (didEngageRefreshDirection): the stripes run across the band, one stripe's width per
//   animation cycle (ctx.cycle: the preset's cycle, or one per second of server time).
// - MS has no exit animation (finishRefreshingDirection just takes the inset back): without an `exit` hook the
//   host fades the running rainbow out over the exit's duration.
import { defineControl } from '/js/refreshkit.js';

const STRIPES = ['#ff0000', '#ff7f00', '#ffff00', '#00c000', '#0000ff', '#4b0082', '#8f00ff'];

function stripes(ctx, reveal, shift, saturated) {
  const g = ctx.canvas2d;
  const { area } = ctx;
  const h = Math.min(area.h, 12);
  const y = area.y + area.h - h;
  const w = area.w / STRIPES.length;
  g.save();
  g.beginPath();
  g.rect(area.x, y, area.w * reveal, h);
  g.clip();
  g.globalAlpha *= saturated ? 1 : 0.45;
  for (let i = -1; i < STRIPES.length; i++) {
    const colour = STRIPES[(((i - Math.floor(shift)) % STRIPES.length) + STRIPES.length) % STRIPES.length];
    g.fillStyle = colour;
    g.fillRect(area.x + (i + (shift % 1)) * w, y, w + 1, h);
  }
  g.restore();
}

export default defineControl({
  name: 'rainbow',
  label: 'Rainbow (MSPullToRefreshController)',
  cycleMs: 1000,
  setup(ctx) {
    ctx.data.engaged = false;
  },
  stateChanged(ctx, previous) {
    // canEngageRefreshDirection / didDisengageRefreshDirection
    if (ctx.state === 'armed') ctx.data.engaged = true;
    else if (previous === 'armed' && ctx.state === 'pulling') ctx.data.engaged = false;
  },
  progress(ctx) {
    if (ctx.distance <= 0 || ctx.state === 'disabled') return;
    stripes(ctx, Math.max(0, Math.min(1, ctx.progress)), 0, ctx.state === 'armed' || ctx.data.engaged && ctx.state !== 'idle');
  },
  cycle(ctx) {
    stripes(ctx, 1, ctx.cycle.index + ctx.cycle.t, true);
  },
});
