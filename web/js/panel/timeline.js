// Each edge's state with a timeline of its transitions (what, when, cause): a strip of coloured states
// over the last seconds (canvas) and the last transitions as rows. `TransitionLog` is pure (unit tested).
import { Ring } from '../ringBuffer.js';
import { el, fitCanvas, fmt, setText } from './dom.js';
import { seedNamesForTransition } from './seedNames.js';

export const STRIP_WINDOW_MS = 10_000;
const ROWS_PER_EDGE = 6;
const EDGE_ORDER = ['top', 'bottom', 'left', 'right'];

/** The transitions of every edge (server times), a ring per edge. */
export class TransitionLog {
  constructor(perEdge = 64) {
    this.perEdge = perEdge;
    this.edges = new Map();
    this.version = 0;
  }

  /** Takes an `event`; keeps it when it is a transition of an edge. Returns whether it did. */
  add(ev) {
    if (!ev || ev.name !== 'transition' || typeof ev.edge !== 'string') return false;
    let ring = this.edges.get(ev.edge);
    if (!ring) {
      ring = new Ring(this.perEdge);
      this.edges.set(ev.edge, ring);
    }
    ring.push({ t: Number(ev.t), from: ev.from ?? null, to: ev.to ?? null, cause: ev.cause ?? null });
    this.version += 1;
    return true;
  }

  clear() {
    this.edges.clear();
    this.version += 1;
  }

  /** The newest `n` transitions of `edge`, newest first. */
  recent(edge, n = ROWS_PER_EDGE) {
    const ring = this.edges.get(edge);
    return ring ? ring.newest(n) : [];
  }

  /**
   * The states of `edge` between server times t0 and t1 as [{state, t0, t1}], in order. Before the first
   * known transition the edge was in that transition's `from` state (else in `current`).
   */
  spans(edge, t0, t1, current) {
    const list = this.edges.get(edge)?.toArray() ?? [];
    let state = current ?? null;
    let i = 0;
    // the state at t0: the last transition at or before t0, else the first transition's `from`
    while (i < list.length && list[i].t <= t0) i++;
    if (i > 0) state = list[i - 1].to;
    else if (list.length) state = list[0].from ?? state;
    const out = [];
    let from = t0;
    for (; i < list.length && list[i].t < t1; i++) {
      if (list[i].t > from && state) out.push({ state, t0: from, t1: list[i].t });
      from = Math.max(from, list[i].t);
      state = list[i].to;
    }
    if (state && t1 > from) out.push({ state, t0: from, t1 });
    return out;
  }
}

/** "−1.2 s", "−12 s", "−2 min". */
export function relativeTime(dtMs) {
  if (!Number.isFinite(dtMs)) return '–';
  const s = Math.max(0, dtMs) / 1000;
  if (s < 10) return `−${s.toFixed(1)} s`;
  if (s < 120) return `−${Math.round(s)} s`;
  return `−${Math.round(s / 60)} min`;
}

/** The section's DOM: the strip, then one block per edge (header with its state, then its transitions). */
export class Timeline {
  constructor({ roleOf, presetOf }) {
    this.log = new TransitionLog();
    this.roleOf = roleOf;
    this.presetOf = presetOf;
    this.canvas = el('canvas', 'timeline-strip');
    this.canvas.setAttribute('aria-label', 'States of each edge over the last 10 seconds');
    this.canvas.setAttribute('role', 'img');
    this.edgesEl = el('div', 'timeline-edges');
    this.root = el('div', 'timeline', [this.canvas, this.edgesEl]);
    this.blocks = new Map();
    this.renderedVersion = -1;
    this.renderedPreset = null;
  }

  add(ev) {
    return this.log.add(ev);
  }

  block(edge) {
    let b = this.blocks.get(edge);
    if (b) return b;
    const state = el('span', 'state-badge');
    const figures = el('span', 'timeline-figures');
    const rows = el('ol', 'timeline-rows');
    const node = el('div', 'timeline-edge', [
      el('div', 'timeline-edge-head', [el('span', 'timeline-edge-name', edge), state, figures]),
      rows,
    ]);
    node.dataset.timelineEdge = edge;
    rows.dataset.timelineRows = edge;
    b = { node, state, figures, rows, times: [] };
    this.blocks.set(edge, b);
    // keep the blocks in edge order
    const after = EDGE_ORDER.slice(EDGE_ORDER.indexOf(edge) + 1).map((e) => this.blocks.get(e)?.node).find(Boolean);
    this.edgesEl.insertBefore(node, after ?? null);
    return b;
  }

  /** Text: at most ~10 times a second. */
  render(frame, serverNow) {
    const entries = frame?.edges || [];
    const seen = new Set();
    for (const e of entries) {
      seen.add(e.edge);
      const b = this.block(e.edge);
      setText(b.state, e.state);
      b.state.dataset.state = e.state;
      setText(b.figures, `d ${fmt(e.distance)} · p ${fmt(e.progress, 2)} · v ${fmt(e.velocity, 0)}`);
    }
    for (const edge of this.log.edges.keys()) if (!seen.has(edge)) this.block(edge);
    for (const [edge, b] of this.blocks) b.node.dataset.present = String(seen.has(edge));
    const preset = this.presetOf();
    if (this.renderedVersion !== this.log.version || this.renderedPreset !== preset) {
      this.renderedVersion = this.log.version;
      this.renderedPreset = preset;
      for (const [edge, b] of this.blocks) this.renderRows(edge, b, preset);
    }
    for (const b of this.blocks.values()) {
      for (const { node, t } of b.times) setText(node, relativeTime(serverNow - t));
    }
  }

  renderRows(edge, b, preset) {
    const role = this.roleOf(edge);
    const frag = document.createDocumentFragment();
    b.times = [];
    const rows = this.log.recent(edge);
    if (!rows.length) frag.append(el('li', 'timeline-empty', 'no transitions yet'));
    for (const r of rows) {
      const time = el('span', 'tl-time');
      b.times.push({ node: time, t: r.t });
      const to = el('span', 'tl-to', r.to ?? '?');
      to.dataset.state = r.to ?? '';
      const seeds = seedNamesForTransition(preset, r.from, r.to, role);
      const li = el('li', 'timeline-row', [
        time,
        el('span', 'tl-move', [el('span', 'tl-from', r.from ?? '?'), el('span', 'tl-arrow', ' → '), to]),
        el('span', 'tl-cause', r.cause ?? ''),
        seeds.length ? el('span', 'seed-name', seeds.join(', ')) : null,
      ]);
      li.dataset.from = r.from ?? '';
      li.dataset.to = r.to ?? '';
      li.dataset.cause = r.cause ?? '';
      frag.append(li);
    }
    b.rows.replaceChildren(frag);
  }

  /** The strip: cheap enough for every animation frame (a few rectangles per edge). */
  draw(frame, serverNow, colours) {
    const edges = [];
    for (const e of frame?.edges || []) edges.push(e);
    const lanes = edges.length || 1;
    const laneH = 12, gap = 5, top = 4, axis = 14;
    const want = top + lanes * laneH + (lanes - 1) * gap + axis;
    if (this.canvas.dataset.h !== String(want)) {
      this.canvas.dataset.h = String(want);
      this.canvas.style.height = `${want}px`;
    }
    const { w, h, dpr } = fitCanvas(this.canvas);
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const label = 46;
    const x0 = label, x1 = w - 2;
    const t1 = serverNow, t0 = serverNow - STRIP_WINDOW_MS;
    const xOf = (t) => x0 + ((t - t0) / (t1 - t0)) * (x1 - x0);
    ctx.font = `10px ${colours.font}`;
    ctx.textBaseline = 'middle';
    // time grid: a line every 2 s, labelled
    ctx.fillStyle = colours.grid;
    ctx.textAlign = 'center';
    for (let s = 0; s <= STRIP_WINDOW_MS / 1000; s += 2) {
      const x = Math.round(xOf(t1 - s * 1000)) + 0.5;
      ctx.fillRect(x - 0.5, top, 1 / dpr, h - axis - top);
      ctx.fillStyle = colours['plot-text'];
      ctx.fillText(s === 0 ? 'now' : `−${s}s`, Math.min(x, w - 14), h - axis / 2 + 1);
      ctx.fillStyle = colours.grid;
    }
    edges.forEach((e, i) => {
      const y = top + i * (laneH + gap);
      ctx.fillStyle = colours['plot-text'];
      ctx.textAlign = 'left';
      ctx.fillText(e.edge, 0, y + laneH / 2 + 0.5);
      for (const s of this.log.spans(e.edge, t0, t1, e.state)) {
        const a = Math.max(x0, xOf(s.t0)), b = Math.min(x1, xOf(s.t1));
        if (b <= a) continue;
        ctx.fillStyle = colours[s.state] || colours.idle;
        ctx.fillRect(a, y, Math.max(1 / dpr, b - a), laneH);
      }
    });
  }
}
