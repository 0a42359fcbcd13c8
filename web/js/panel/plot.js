// A live plot of the displayed offset (y and x) and velocity over the last seconds, with the state
// transitions as vertical ticks. One sample per animation frame into a ring buffer; one canvas.
import { evaluateChain } from '../motion.js';
import { SeriesRing } from '../ringBuffer.js';
import { el, fitCanvas, fmt } from './dom.js';

export const PLOT_WINDOW_MS = 5000;

/** The displayed offset and velocity at `serverNow` (segment chains evaluated like the renderer). Pure. */
export function sampleMotion(frame, serverNow) {
  const out = { x: 0, y: 0, vx: 0, vy: 0 };
  if (!frame || !frame.offset) return out;
  out.x = Number(frame.offset.x) || 0;
  out.y = Number(frame.offset.y) || 0;
  out.vx = Number(frame.velocity?.x) || 0;
  out.vy = Number(frame.velocity?.y) || 0;
  if (frame.phase === 'animating' && frame.segment) {
    for (const axis of ['x', 'y']) {
      const r = evaluateChain(frame.segment[axis], serverNow);
      if (!r || !Number.isFinite(r.x)) continue;
      out[axis] = r.x;
      out[axis === 'x' ? 'vx' : 'vy'] = Number.isFinite(r.v) ? r.v : 0;
    }
  }
  return out;
}

/** A value range that grows at once and shrinks slowly, so the axes do not twitch. Pure. */
export function easeRange(prev, lo, hi, minSpan, shrink = 0.08) {
  const mid = (lo + hi) / 2;
  if (hi - lo < minSpan) {
    lo = mid - minSpan / 2;
    hi = mid + minSpan / 2;
  }
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  if (!prev) return { lo, hi };
  return {
    lo: lo < prev.lo ? lo : prev.lo + (lo - prev.lo) * shrink,
    hi: hi > prev.hi ? hi : prev.hi + (hi - prev.hi) * shrink,
  };
}

export class Plot {
  constructor(transitions) {
    this.transitions = transitions; // a TransitionLog
    this.samples = new SeriesRing(1024, ['t', 'x', 'y', 'vx', 'vy']);
    this.canvas = el('canvas', 'plot-canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'Offset and velocity over the last 5 seconds');
    this.canvas.dataset.panelPlot = '';
    const key = (cls, text) => el('span', `plot-key ${cls}`, text);
    this.root = el('div', 'plot', [
      this.canvas,
      el('div', 'plot-legend', [
        key('key-y', 'offset y'), key('key-x', 'offset x'), key('key-vy', 'velocity y'), key('key-vx', 'velocity x'),
        el('span', 'plot-key key-tick', 'transition'),
      ]),
    ]);
    this.ranges = { offset: null, velocity: null };
    this.lastT = -Infinity;
  }

  /** Every animation frame: one sample; `shown` (optional) is the offset the page drew, predicted or not. */
  sample(frame, serverNow, shown = null) {
    if (!frame || !(serverNow > this.lastT)) return;
    this.lastT = serverNow;
    const s = sampleMotion(frame, serverNow);
    if (shown && Number.isFinite(shown.x) && Number.isFinite(shown.y)) {
      s.x = shown.x;
      s.y = shown.y;
    }
    this.samples.push(serverNow, s.x, s.y, s.vx, s.vy);
    this.samples.dropBefore('t', serverNow - PLOT_WINDOW_MS - 500);
  }

  reset() {
    this.samples.clear();
    this.lastT = -Infinity;
  }

  /** Every animation frame while the panel is open. */
  draw(serverNow, colours) {
    const { w, h, dpr } = fitCanvas(this.canvas);
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const S = this.samples;
    const t1 = serverNow, t0 = serverNow - PLOT_WINDOW_MS;
    const left = 40, right = w - 3; // a gutter for the axis labels
    const xOf = (t) => left + ((t - t0) / PLOT_WINDOW_MS) * (right - left);
    const first = S.lowerBound('t', t0);
    // which series have something to show, and the ranges
    let oLo = 0, oHi = 0, vLo = 0, vHi = 0, anyX = false, anyVX = false;
    for (let i = first; i < S.length; i++) {
      const x = S.get('x', i), y = S.get('y', i), vx = S.get('vx', i), vy = S.get('vy', i);
      if (Math.abs(x) > 0.5) anyX = true;
      if (Math.abs(vx) > 1) anyVX = true;
      oLo = Math.min(oLo, y, anyX ? x : 0); oHi = Math.max(oHi, y, anyX ? x : 0);
      vLo = Math.min(vLo, vy, anyVX ? vx : 0); vHi = Math.max(vHi, vy, anyVX ? vx : 0);
    }
    this.ranges.offset = easeRange(this.ranges.offset, oLo, oHi, 40);
    this.ranges.velocity = easeRange(this.ranges.velocity, vLo, vHi, 400);
    const gap = 6;
    const oTop = 2, oH = Math.round((h - gap) * 0.58) - 2;
    const vTop = oTop + oH + gap, vH = h - vTop - 2;
    const panes = [
      { top: oTop, height: oH, range: this.ranges.offset, label: 'px', series: [['y', 'plot-y', true], ['x', 'plot-x', anyX]] },
      { top: vTop, height: vH, range: this.ranges.velocity, label: 'px/s', series: [['vy', 'plot-vy', true], ['vx', 'plot-vx', anyVX]] },
    ];
    ctx.font = `9.5px ${colours.font}`;
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    for (const p of panes) {
      const yOf = (v) => p.top + p.height - ((v - p.range.lo) / (p.range.hi - p.range.lo)) * p.height;
      // frame and the zero line
      ctx.fillStyle = colours.grid;
      ctx.fillRect(left, p.top, right - left, 1 / dpr);
      ctx.fillRect(left, p.top + p.height, right - left, 1 / dpr);
      for (let s = 1; s < PLOT_WINDOW_MS / 1000; s++) ctx.fillRect(Math.round(xOf(t1 - s * 1000)), p.top, 1 / dpr, p.height);
      ctx.fillStyle = colours['plot-zero'];
      ctx.fillRect(left, Math.round(yOf(0)), right - left, 1 / dpr);
      // series
      ctx.lineWidth = 1.5;
      ctx.lineJoin = 'round';
      for (const [col, colour, show] of p.series) {
        if (!show || S.length - first < 1) continue;
        ctx.strokeStyle = colours[colour];
        ctx.beginPath();
        let started = false, lastPx = -1;
        for (let i = Math.max(0, first - 1); i < S.length; i++) {
          const px = xOf(S.get('t', i));
          if (started && px - lastPx < 0.5 && i < S.length - 1) continue; // one point per half pixel
          const py = yOf(S.get(col, i));
          if (!started) ctx.moveTo(Math.max(left, px), py);
          else ctx.lineTo(px, py);
          started = true;
          lastPx = px;
        }
        ctx.stroke();
      }
      // labels in the gutter: the range's ends, the unit between them
      ctx.fillStyle = colours['plot-text'];
      ctx.textAlign = 'right';
      ctx.textBaseline = 'top';
      ctx.fillText(fmt(p.range.hi, 0), left - 5, p.top);
      ctx.textBaseline = 'bottom';
      ctx.fillText(fmt(p.range.lo, 0), left - 5, p.top + p.height + 1);
      ctx.textBaseline = 'middle';
      ctx.fillText(p.label, left - 5, p.top + p.height / 2);
    }
    // transitions: vertical ticks in the colour of the state entered
    for (const [, ring] of this.transitions.edges) {
      for (let i = ring.length - 1; i >= 0; i--) {
        const tr = ring.at(i);
        if (tr.t < t0) break;
        if (tr.t > t1) continue;
        const x = Math.round(xOf(tr.t)) + 0.5;
        ctx.fillStyle = colours[tr.to] || colours.grid;
        ctx.fillRect(x - 0.75, oTop, 1.5, h - oTop - 2);
        ctx.beginPath();
        ctx.moveTo(x - 3.5, oTop);
        ctx.lineTo(x + 3.5, oTop);
        ctx.lineTo(x, oTop + 5);
        ctx.fill();
      }
    }
  }
}
