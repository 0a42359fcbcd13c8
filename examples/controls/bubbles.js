// JHPullToRefreshKit's "bubbles" control, on RefreshKit's control API (docs/CONTROLS.md, "The seeds' own
// examples"): the README's second example, shown only as a picture (bubbles.gif), one of the four "made with
// less than 150 lines of code"; this one follows its name through JH's life cycle.
// - With the pull (pullRatio = ctx.progress): bubbles appear one by one and grow, resting on the content edge.
// - Each animation cycle (ctx.cycle.index, ctx.cycle.t): every bubble rises from the content edge to the top of
//   the control and a new set starts; a bubble's column, size and colour come from the cycle's index, so every
//   device draws the same bubbles.
// - The exit (ctx.exit.t): the bubbles pop: they swell and fade out.
import { defineControl } from '/js/refreshkit.js';

const COLOURS = ['#ff6b6b', '#feca57', '#48dbfb', '#1dd1a1', '#5f27cd', '#ff9ff3'];
const COUNT = 8;

/** A number in 0…1 from two integers: the same on every device. */
function hash(a, b) {
  const x = Math.sin(a * 127.1 + b * 311.7) * 43758.5453;
  return x - Math.floor(x);
}

function bubble(g, x, y, r, colour, alpha) {
  g.globalAlpha = alpha;
  g.fillStyle = colour;
  g.beginPath();
  g.arc(x, y, Math.max(0.5, r), 0, Math.PI * 2);
  g.fill();
}

function drawCycle(ctx, swell, alpha) {
  const g = ctx.canvas2d;
  const { area } = ctx;
  const { index, t } = ctx.cycle;
  g.fillStyle = '#0b3d91';
  g.fillRect(area.x, area.y, area.w, area.h);
  for (let i = 0; i < COUNT; i++) {
    const lag = hash(index, i) * 0.4;
    const rise = Math.max(0, Math.min(1, (t - lag) / (1 - lag)));
    const r = (5 + hash(i, index) * 9) * swell;
    const x = area.x + ((i + 0.5) / COUNT) * area.w;
    const y = area.y + area.h - r - rise * (area.h - 2 * r);
    bubble(g, x, y, r, COLOURS[(index + i) % COLOURS.length], alpha);
  }
}

export default defineControl({
  name: 'bubbles',
  label: 'Bubbles (JHPullToRefreshKit)',
  cycleMs: 900,
  exitMs: 500,
  progress(ctx) {
    if (ctx.distance <= 0 || ctx.state === 'disabled') return;
    const g = ctx.canvas2d;
    const { area } = ctx;
    g.fillStyle = '#0b3d91';
    g.fillRect(area.x, area.y, area.w, area.h);
    const shown = ctx.progress * COUNT;
    for (let i = 0; i < COUNT; i++) {
      const grow = Math.max(0, Math.min(1, shown - i));
      if (grow <= 0) break;
      const r = (5 + hash(i, 0) * 9) * grow;
      bubble(g, area.x + ((i + 0.5) / COUNT) * area.w, area.y + area.h - r - 2, r, COLOURS[i % COLOURS.length], 1);
    }
  },
  cycle(ctx) {
    drawCycle(ctx, 1, 1);
  },
  exit(ctx) {
    drawCycle(ctx, 1 + ctx.exit.t * 1.5, 1 - ctx.exit.t);
  },
});
