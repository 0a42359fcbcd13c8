// The current frame's fields and its active motion segment. `describeFrame` and `describeSegments` are pure.
import { segmentIndexAt } from '../motion.js';
import { el, fmt, setText } from './dom.js';

/** The frame's fields as [label, text] rows. Pure. */
export function describeFrame(f) {
  if (!f) return [['frame', 'none yet']];
  const rows = [
    ['seq', String(f.seq)],
    ['t', fmt(f.t, 1)],
    ['phase', String(f.phase)],
    ['offset', `${fmt(f.offset?.x)}, ${fmt(f.offset?.y)}`],
    ['velocity', `${fmt(f.velocity?.x, 0)}, ${fmt(f.velocity?.y, 0)}`],
    ['content', `${fmt(f.contentSize?.w, 0)} × ${fmt(f.contentSize?.h, 0)}`],
    ['viewport', `${fmt(f.viewport?.w, 0)} × ${fmt(f.viewport?.h, 0)}`],
    ['insets', f.insets ? `${fmt(f.insets.top, 0)} ${fmt(f.insets.left, 0)} ${fmt(f.insets.bottom, 0)} ${fmt(f.insets.right, 0)}` : '–'],
    ['segment', f.segment ? Object.entries(f.segment).map(([axis, c]) => `${axis}: ${(c || []).map((s) => s.kind).join(' › ')}`).join('; ') : '–'],
    ['feed', f.feed ? `${f.feed.count} rows, newest ${f.feed.newest}${f.feed.loading ? ', loading' : ''}${f.feed.hasMore ? '' : ', no more'}` : '–'],
  ];
  for (const e of f.edges || []) {
    rows.push([e.edge, `${e.state} d ${fmt(e.distance)} p ${fmt(e.progress, 2)}`]);
  }
  return rows;
}

/** One segment's parameters as text. Pure. */
export function segmentParams(s) {
  switch (s.kind) {
    case 'spring':
      return `x0 ${fmt(s.x0)} v0 ${fmt(s.v0, 0)} → ${fmt(s.target)} · m ${fmt(s.mass, 2)} k ${fmt(s.stiffness, 1)} c ${fmt(s.damping, 2)}`;
    case 'decay':
      return `x0 ${fmt(s.x0)} v0 ${fmt(s.v0, 0)} · k ${fmt(s.k, 3)}`;
    case 'timed': {
      const c = Array.isArray(s.curve) ? s.curve : [0, 0, 1, 1];
      return `x0 ${fmt(s.x0)} → ${fmt(s.target)} · curve (${c.map((v) => fmt(v, 2)).join(', ')})`;
    }
    case 'hold':
      return `x0 ${fmt(s.x0)}`;
    default:
      return '';
  }
}

/**
 * The segment chains of a frame as rows: {axis, index, count, kind, active, time, params}; the active one is
 * the segment valid at `serverNow`. `time` is "0.21 s of 0.61 s" (or "held" for an open hold). Pure.
 */
export function describeSegments(frame, serverNow) {
  const out = [];
  const seg = frame?.phase === 'animating' ? frame.segment : null;
  if (!seg) return out;
  for (const axis of ['y', 'x']) {
    const chain = seg[axis];
    if (!Array.isArray(chain) || !chain.length) continue;
    const active = segmentIndexAt(chain, serverNow);
    chain.forEach((s, index) => {
      const t0 = Number(s.t0);
      const hasEnd = Number.isFinite(s.t1);
      const dur = hasEnd ? (s.t1 - t0) / 1000 : null;
      const into = Math.max(0, (serverNow - t0) / 1000);
      let time;
      if (index < active) time = 'done';
      else if (index > active) time = dur == null ? 'open' : `${dur.toFixed(2)} s`;
      else if (dur == null) time = `${into.toFixed(2)} s, open`;
      else time = `${Math.min(into, dur).toFixed(2)} / ${dur.toFixed(2)} s`;
      out.push({ axis, index, count: chain.length, kind: String(s.kind), active: index === active, time, params: segmentParams(s) });
    });
  }
  return out;
}

export class FramePane {
  constructor() {
    this.fields = el('dl', 'panel-fields');
    this.fields.dataset.panelFields = '';
    this.segments = el('ol', 'segments');
    this.segments.dataset.panelSegment = '';
    this.root = el('div', 'frame-pane', [
      this.fields,
      el('h4', 'panel-sub', 'Motion segment'),
      this.segments,
    ]);
    this.cells = new Map();
    this.segmentKey = '';
  }

  render(frame, serverNow) {
    const rows = describeFrame(frame);
    for (const [k, v] of rows) {
      let cell = this.cells.get(k);
      if (!cell) {
        const dt = el('dt', null, k);
        const dd = el('dd');
        dd.dataset.field = k;
        this.fields.append(dt, dd);
        cell = { dt, dd };
        this.cells.set(k, cell);
      }
      setText(cell.dd, v);
      cell.seen = true;
    }
    for (const [k, cell] of this.cells) {
      if (!cell.seen) {
        cell.dt.remove();
        cell.dd.remove();
        this.cells.delete(k);
      }
      cell.seen = false;
    }
    const segs = describeSegments(frame, serverNow);
    const key = segs.map((s) => `${s.axis}${s.index}${s.kind}${s.params}`).join('|');
    if (key !== this.segmentKey) {
      this.segmentKey = key;
      const frag = document.createDocumentFragment();
      if (!segs.length) frag.append(el('li', 'segment-none', frame?.phase === 'animating' ? 'no segment' : `none (${frame?.phase ?? 'no frame'})`));
      for (const s of segs) {
        const time = el('span', 'seg-time', s.time);
        const li = el('li', 'segment', [
          el('span', 'seg-axis', s.axis),
          el('span', 'seg-kind', `${s.kind}${s.count > 1 ? ` ${s.index + 1}/${s.count}` : ''}`),
          time,
          el('span', 'seg-params', s.params),
        ]);
        li.dataset.active = String(s.active);
        li.timeEl = time;
        frag.append(li);
      }
      this.segments.replaceChildren(frag);
    } else {
      let i = 0;
      for (const li of this.segments.children) {
        const s = segs[i++];
        if (!s || !li.timeEl) continue;
        setText(li.timeEl, s.time);
        li.dataset.active = String(s.active);
      }
    }
  }
}
