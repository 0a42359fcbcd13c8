// The debug panel: the current frame's fields and the last events (edge, from → to, cause).
// Minimal for now; a later issue grows it (state timeline, latency graph).

const MAX_EVENTS = 50;
const REFRESH_MS = 100;

const fmt = (v, d = 1) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(d) : '–');

/** One line per event, as the panel shows it. Pure. */
export function describeEvent(ev) {
  const parts = [];
  if (ev.edge) parts.push(ev.edge);
  if (ev.name === 'transition') parts.push(`${ev.from ?? '?'} → ${ev.to ?? '?'}`);
  else parts.push(ev.name + (ev.value !== undefined ? ` ${JSON.stringify(ev.value)}` : ''));
  if (ev.cause) parts.push(`(${ev.cause})`);
  return parts.join(' ');
}

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

export class Panel {
  constructor(root, { onToggle } = {}) {
    this.root = root;
    this.onToggle = onToggle;
    this.fieldsEl = root.querySelector('[data-panel-fields]');
    this.eventsEl = root.querySelector('[data-panel-events]');
    this.extraEl = root.querySelector('[data-panel-extra]');
    this.events = [];
    this.lastRender = 0;
    this.dirtyEvents = false;
  }

  get open() {
    return !this.root.hidden;
  }

  toggle(force) {
    const open = typeof force === 'boolean' ? force : !this.open;
    this.root.hidden = !open;
    this.lastRender = 0;
    this.dirtyEvents = true;
    this.onToggle?.(open);
    return open;
  }

  addEvent(ev) {
    this.events.push(ev);
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
    this.dirtyEvents = true;
  }

  /** Called on every animation frame; redraws at most every REFRESH_MS while open. */
  update(frame, extra, now) {
    if (!this.open || now - this.lastRender < REFRESH_MS) return;
    this.lastRender = now;
    const rows = describeFrame(frame);
    const fields = document.createDocumentFragment();
    for (const [k, v] of rows) {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = v;
      fields.append(dt, dd);
    }
    this.fieldsEl.replaceChildren(fields);
    if (this.extraEl) this.extraEl.textContent = extra || '';
    if (this.dirtyEvents) {
      this.dirtyEvents = false;
      const list = document.createDocumentFragment();
      for (let i = this.events.length - 1; i >= 0; i--) {
        const ev = this.events[i];
        const li = document.createElement('li');
        li.textContent = describeEvent(ev);
        if (ev.name === 'transition') li.dataset.to = ev.to ?? '';
        list.append(li);
      }
      this.eventsEl.replaceChildren(list);
    }
  }
}
