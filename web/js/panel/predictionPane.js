// The panel's Prediction section (README, "Prediction"): the link (round trip, jitter, stalls seen), the inputs the
// server has not acknowledged, the reconciliation error, a switch for prediction, and a live plot of the
// prediction's lead (drawn offset − the server frame's offset, y). The figures are pure (web/test/panel.test.js).
import { SeriesRing } from '../ringBuffer.js';
import { el, figureTile, fitCanvas, fmt, setText } from './dom.js';
import { easeRange } from './plot.js';
import { t } from '../i18n.js';

export const LEAD_WINDOW_MS = 5000;

/** Round-trip jitter, ms: the mean |difference| of consecutive round trips (RFC 3550 §6.4.1's idea). Pure. */
export function rttJitter(rtts) {
  if (!Array.isArray(rtts) || rtts.length < 2) return null;
  let sum = 0;
  for (let i = 1; i < rtts.length; i++) sum += Math.abs(rtts[i] - rtts[i - 1]);
  return sum / (rtts.length - 1);
}

/** The p-quantile (0…1, nearest rank) of a list of numbers, or null. Pure. */
export function quantile(list, p) {
  if (!Array.isArray(list) || list.length === 0) return null;
  const sorted = [...list].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}

export class PredictionPane {
  /** @param {{predictor: object, onToggle: (on: boolean) => void}} o */
  constructor({ predictor, onToggle = () => {} }) {
    this.predictor = predictor;
    this.samples = new SeriesRing(1024, ['t', 'lead']);
    this.range = null;
    this.lastT = -Infinity;
    this.toggle = el('input');
    this.toggle.type = 'checkbox';
    this.toggle.dataset.panelPredict = '';
    this.toggle.checked = predictor.enabled;
    this.toggle.addEventListener('change', () => onToggle(this.toggle.checked));
    this.status = el('span', 'predict-status');
    this.tiles = {};
    const tile = (key, label) => figureTile(this.tiles, key, label);
    this.canvas = el('canvas', 'plot-canvas lead-canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'Drawn minus server offset over the last 5 seconds');
    this.canvas.dataset.panelLead = '';
    this.root = el('div', 'prediction-pane', [
      el('label', 'predict-switch', [this.toggle, ` ${t('panel.predict')}`, this.status]),
      el('div', 'figs', [tile('link', 'Link'), tile('pending', 'Unacknowledged'), tile('error', 'Reconciliation')]),
      this.canvas,
      el('div', 'plot-legend', [el('span', 'plot-key key-y', 'drawn − server offset y (px)')]),
    ]);
  }

  /** Every animation frame: one sample of the lead. */
  sample(serverNow, gap) {
    if (!(serverNow > this.lastT)) return;
    this.lastT = serverNow;
    this.samples.push(serverNow, Number.isFinite(gap) ? gap : 0);
    this.samples.dropBefore('t', serverNow - LEAD_WINDOW_MS - 500);
  }

  /** At most ~10 times a second, while the panel is open. `clock` is the connection's ClockSync. */
  render(clock) {
    const p = this.predictor;
    const t = this.tiles;
    this.toggle.checked = p.enabled;
    setText(this.status, p.support === 'yes' ? '' : p.support === 'no' ? ' (this server sends no acks: off)' : ' (waiting for the first ack)');
    const rtts = (clock?.samples || []).map((s) => s.rtt);
    setText(t.link.value, clock?.rtt == null ? '–' : `${fmt(clock.rtt, clock.rtt < 10 ? 1 : 0)} ms`);
    setText(t.link.sub, `jitter ${fmt(rttJitter(rtts), 1)} ms · ${p.stalls} stall${p.stalls === 1 ? '' : 's'}`);
    t.link.node.dataset.hot = String(p.stalls > 0);
    setText(t.pending.value, String(p.pending.length));
    const latency = quantile(p.ackLatency.list(), 0.5);
    setText(t.pending.sub, `ack ${p.lastAck} · input→ack ${fmt(latency, 0)} ms`);
    const errors = p.errors.list().slice(-200);
    setText(t.error.value, errors.length ? `${fmt(quantile(errors, 0.99), 2)} px` : '–');
    setText(t.error.sub, `p99 of ${errors.length} · max ${fmt(errors.length ? Math.max(...errors) : null, 1)}`);
  }

  /** Every animation frame while the panel is open. */
  draw(serverNow, colours) {
    const { w, h, dpr } = fitCanvas(this.canvas);
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const S = this.samples;
    const t0 = serverNow - LEAD_WINDOW_MS;
    const left = 40, right = w - 3;
    const first = S.lowerBound('t', t0);
    let lo = 0, hi = 0;
    for (let i = first; i < S.length; i++) {
      lo = Math.min(lo, S.get('lead', i));
      hi = Math.max(hi, S.get('lead', i));
    }
    this.range = easeRange(this.range, lo, hi, 10);
    const r = this.range;
    const xOf = (t) => left + ((t - t0) / LEAD_WINDOW_MS) * (right - left);
    const yOf = (v) => 2 + (h - 4) - ((v - r.lo) / (r.hi - r.lo)) * (h - 4);
    ctx.fillStyle = colours['plot-zero'];
    ctx.fillRect(left, Math.round(yOf(0)), right - left, 1 / dpr);
    ctx.strokeStyle = colours['plot-y'];
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    let started = false;
    for (let i = Math.max(0, first - 1); i < S.length; i++) {
      const px = Math.max(left, xOf(S.get('t', i)));
      const py = yOf(S.get('lead', i));
      if (started) ctx.lineTo(px, py);
      else ctx.moveTo(px, py);
      started = true;
    }
    ctx.stroke();
    ctx.font = `9.5px ${colours.font}`;
    ctx.fillStyle = colours['plot-text'];
    ctx.textAlign = 'right';
    ctx.textBaseline = 'top';
    ctx.fillText(fmt(r.hi, 0), left - 5, 2);
    ctx.textBaseline = 'bottom';
    ctx.fillText(fmt(r.lo, 0), left - 5, h - 1);
  }
}
