// The event log: every server event, newest first, with the preset's library names alongside ours;
// a filter (words that must all appear), pause (nothing is appended; missed events are counted) and clear.
// `EventLogModel`, `matchesFilter` and `describeEvent` are pure (unit tested).
import { Ring } from '../ringBuffer.js';
import { el, setText } from './dom.js';
import { seedNames } from './seedNames.js';

const KEEP = 500;     // events kept for re-filtering
const SHOWN = 200;    // rows in the DOM

/** One line per event: edge, what, cause. Pure. */
export function describeEvent(ev) {
  const parts = [];
  if (ev.edge) parts.push(ev.edge);
  if (ev.name === 'transition') parts.push(`${ev.from ?? '?'} → ${ev.to ?? '?'}`);
  else parts.push(ev.name + (ev.value !== undefined ? ` ${JSON.stringify(ev.value)}` : ''));
  if (ev.cause) parts.push(`(${ev.cause})`);
  return parts.join(' ');
}

/** Whether an event matches a filter: every whitespace-separated word appears (case-insensitive) in its
 * name, edge, states, cause or library names. A word may be `edge:top`, `cause:drag` or `name:didStart`. */
export function matchesFilter(ev, query, seeds = []) {
  const words = String(query || '').toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const fields = {
    name: String(ev.name ?? '').toLowerCase(),
    edge: String(ev.edge ?? '').toLowerCase(),
    cause: String(ev.cause ?? '').toLowerCase(),
    from: String(ev.from ?? '').toLowerCase(),
    to: String(ev.to ?? '').toLowerCase(),
  };
  const hay = [...Object.values(fields), ...seeds.map((s) => s.toLowerCase())].join(' ');
  return words.every((w) => {
    const m = /^(name|edge|cause|from|to):(.*)$/.exec(w);
    if (m) return fields[m[1]] === m[2] || (m[2] === '' && fields[m[1]] === '');
    return hay.includes(w);
  });
}

/**
 * Server time (ms) as m:ss.mmm (h:mm:ss.mmm past an hour), within its day: the server's clock counts from the
 * Unix epoch (docs/PROTOCOL.md, "Clocks"), so this is the UTC time of day.
 */
export function clockText(t) {
  if (!Number.isFinite(t)) return '–';
  const ms = Math.max(0, Math.round(t));
  const h = Math.floor(ms / 3_600_000) % 24;
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const f = String(ms % 1000).padStart(3, '0');
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}.${f}`;
}

/** What the log holds: the events (a ring), paused or not, and what it missed while paused. */
export class EventLogModel {
  constructor(capacity = KEEP) {
    this.items = new Ring(capacity);
    this.paused = false;
    this.missed = 0;
    this.added = 0; // items appended, ever (to tell the view what is new)
  }

  /** Appends an event unless paused (then counts it as missed). Returns whether it was appended. */
  add(ev) {
    if (this.paused) {
      this.missed += 1;
      return false;
    }
    this.items.push({ ev });
    this.added += 1;
    return true;
  }

  /** Pauses or resumes; resuming after missed events appends one marker item saying how many. */
  setPaused(paused) {
    if (paused === this.paused) return;
    this.paused = paused;
    if (!paused && this.missed > 0) {
      this.items.push({ missed: this.missed });
      this.added += 1;
    }
    if (paused) this.missed = 0;
  }

  clear() {
    this.items.clear();
    this.missed = 0;
    this.added += 1;
    this.cleared = true;
  }
}

export class EventLog {
  constructor({ presetOf, roleOf }) {
    this.model = new EventLogModel();
    this.presetOf = presetOf;
    this.roleOf = roleOf;
    this.filter = '';
    this.renderedAdded = 0;
    this.needsFull = true;

    this.input = el('input', 'log-filter');
    this.input.type = 'search';
    this.input.placeholder = 'Filter: didStart, top, cause:drag…';
    this.input.setAttribute('aria-label', 'Filter events');
    this.input.spellcheck = false;
    this.input.autocomplete = 'off';
    this.input.addEventListener('input', () => {
      this.filter = this.input.value;
      this.needsFull = true;
    });
    this.pauseButton = el('button', 'chip', 'Pause');
    this.pauseButton.type = 'button';
    this.pauseButton.setAttribute('aria-pressed', 'false');
    this.pauseButton.dataset.logPause = '';
    this.pauseButton.addEventListener('click', () => this.setPaused(!this.model.paused));
    this.clearButton = el('button', 'chip', 'Clear');
    this.clearButton.type = 'button';
    this.clearButton.dataset.logClear = '';
    this.clearButton.addEventListener('click', () => {
      this.model.clear();
      this.needsFull = true;
    });
    this.missedEl = el('span', 'log-missed');
    this.missedEl.dataset.logMissed = '';
    this.countEl = el('span', 'log-count');
    this.list = el('ol', 'panel-events');
    this.list.dataset.panelEvents = '';
    this.list.setAttribute('aria-live', 'off');
    this.root = el('div', 'log', [
      el('div', 'log-bar', [this.input, this.pauseButton, this.clearButton]),
      el('div', 'log-status', [this.countEl, this.missedEl]),
      this.list,
    ]);
  }

  add(ev) {
    this.model.add(ev);
  }

  setPaused(paused) {
    this.model.setPaused(paused);
    this.pauseButton.textContent = paused ? 'Resume' : 'Pause';
    this.pauseButton.setAttribute('aria-pressed', String(paused));
    this.root.dataset.paused = String(paused);
  }

  row(item) {
    if (item.missed !== undefined) {
      const li = el('li', 'log-marker', `${item.missed} event${item.missed === 1 ? '' : 's'} missed while paused`);
      li.dataset.marker = '';
      return li;
    }
    const ev = item.ev;
    // A library's own event (a session naming its events as the library does) shows ours beside it.
    const seeds = ev.kit ? [`RefreshKit: ${ev.kit}`] : seedNames(this.presetOf(), ev, this.roleOf(ev.edge));
    if (!matchesFilter(ev, this.filter, seeds)) return null;
    const edge = ev.edge ? el('span', 'log-edge', ev.edge) : null;
    const what = ev.name === 'transition'
      ? el('span', 'log-what', [edge, el('span', 'tl-from', ev.from ?? '?'), el('span', 'tl-arrow', ' → '), el('span', 'tl-to', ev.to ?? '?')])
      : el('span', 'log-what', [edge, el('span', 'log-name', ev.name), ev.value !== undefined ? el('span', 'log-value', ` ${fmtValue(ev.value)}`) : null]);
    const li = el('li', 'log-row', [
      el('span', 'log-time', clockText(ev.t)),
      what,
      el('span', 'tl-cause', ev.cause ?? ''),
      seeds.length ? el('span', 'seed-name', seeds.join(', ')) : null,
    ]);
    li.dataset.name = ev.name;
    if (ev.to) li.dataset.to = ev.to;
    if (ev.edge) li.dataset.edge = ev.edge;
    return li;
  }

  /** At most ~10 times a second: new rows are prepended; a filter change or a clear rebuilds. */
  render() {
    const m = this.model;
    if (this.needsFull || m.cleared) {
      this.needsFull = false;
      m.cleared = false;
      const frag = document.createDocumentFragment();
      let n = 0;
      for (const item of m.items.newest()) {
        const li = this.row(item);
        if (!li) continue;
        frag.append(li);
        if (++n >= SHOWN) break;
      }
      this.list.replaceChildren(frag);
      this.renderedAdded = m.added;
    } else if (m.added !== this.renderedAdded) {
      const fresh = Math.min(m.added - this.renderedAdded, m.items.length);
      const frag = document.createDocumentFragment();
      for (const item of m.items.newest(fresh)) {
        const li = this.row(item);
        if (li) frag.append(li);
      }
      this.list.prepend(frag);
      while (this.list.childElementCount > SHOWN) this.list.lastElementChild.remove();
      this.renderedAdded = m.added;
    }
    setText(this.countEl, `${this.list.childElementCount} shown · ${m.items.length} kept`);
    setText(this.missedEl, m.paused ? `paused · ${m.missed} missed` : '');
  }
}

function fmtValue(v) {
  return typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : JSON.stringify(v);
}
