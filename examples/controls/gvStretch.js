// GVRefreshControl's stretching view, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own
// examples"): GV takes any view; its README's demo puts a red view over the control's content view and picks
// the `.stretches` behaviour, "a CGAffineTransform of scale x = 1.0 and y = max(visiblePercentage, 0.01)", and
// while refreshing animates the view's colour between red and blue (`UIView.animate(withDuration: 3)`).
// - With the pull: the view is the control's height scaled along the pull by ctx.scale (the frame's `scale`,
//   distance / height, at least 0.01 and not clamped above, docs/PROTOCOL.md), about the view's centre.
// - Each animation cycle (ctx.cycle): one colour change, red → blue on even cycles and blue → red on odd ones.
// - The exit (endRefreshing, ctx.exit.t): the view shrinks back to nothing as the control's inset closes.
import { defineControl } from '/js/refreshkit.js';

const RED = [230, 40, 40];
const BLUE = [40, 80, 230];

function colour(a, b, t) {
  return `rgb(${a.map((v, i) => Math.round(v + (b[i] - v) * t)).join(',')})`;
}

function view(ctx, fill, scale) {
  const g = ctx.canvas2d;
  const { view: v } = ctx;
  const h = v.h * Math.max(0.01, scale);
  g.fillStyle = fill;
  g.fillRect(v.x, v.y + (v.h - h) / 2, v.w, h);
}

function cycling(ctx) {
  const { index, t } = ctx.cycle;
  return index % 2 === 0 ? colour(RED, BLUE, t) : colour(BLUE, RED, t);
}

export default defineControl({
  name: 'gvStretch',
  label: 'Stretching view (GVRefreshControl)',
  cycleMs: 3000,
  exitMs: 300,
  progress(ctx) {
    if (ctx.distance <= 0 || ctx.state === 'disabled') return;
    // the frame's scale is 1 for presets without `stretches`: then stretch by the progress
    const scale = ctx.scale !== 1 ? ctx.scale : Math.max(0.01, ctx.progress);
    view(ctx, colour(RED, RED, 0), scale);
  },
  cycle(ctx) {
    view(ctx, cycling(ctx), Math.max(1, ctx.scale));
  },
  exit(ctx) {
    view(ctx, cycling(ctx), 1 - ctx.exit.t);
  },
});
