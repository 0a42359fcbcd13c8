// The preset's parameters, editable live: one form per edge in the config, the feed and the physics.
// A change sends `configure` with only that field; a refusal (`error` with ref "configure") is shown next to
// the field. The field table and the field → patch mapping are pure (unit tested in web/test/panel.test.js).
import { el, setText } from './dom.js';

const px = 'px', s = 's', ms = 'ms';

/** Every field `configure` accepts (docs/PROTOCOL.md), with the engine's ranges (SessionConfiguration+Patch). */
export const EDGE_FIELDS = Object.freeze([
  { key: 'enabled', label: 'Enabled', kind: 'bool', group: 'Behaviour' },
  { key: 'role', label: 'Role', kind: 'enum', options: ['refresh', 'loadMore'], group: 'Behaviour' },
  { key: 'trigger', label: 'Trigger', kind: 'enum', options: ['onRelease', 'whileDragging', 'onReachEdge', 'manual'], group: 'Behaviour' },
  { key: 'strictness', label: 'Strictness', kind: 'enum', options: ['strict', 'inclusive'], group: 'Behaviour' },
  { key: 'fling', label: 'Fling', kind: 'enum', options: ['ignore', 'trigger'], group: 'Behaviour' },
  { key: 'shortContent', label: 'Short content', kind: 'enum', options: ['enabled', 'disabled'], group: 'Behaviour' },
  { key: 'triggerDistance', label: 'Trigger distance', kind: 'number', min: 1, max: 10000, step: 1, unit: px, group: 'Distances' },
  { key: 'restingInset', label: 'Resting inset', kind: 'number', min: 0, max: 10000, step: 1, unit: px, group: 'Distances' },
  { key: 'promptingInset', label: 'Prompting inset', kind: 'number', min: 0, max: 10000, step: 1, unit: px, group: 'Distances' },
  { key: 'preload', label: 'Preload', kind: 'number', min: 0, max: 100000, step: 1, unit: px, group: 'Distances' },
  { key: 'height', label: 'Height', kind: 'number', min: 1, max: 10000, step: 1, unit: px, group: 'Distances' },
  { key: 'minimumVisibleDuration', label: 'Minimum visible', kind: 'number', min: 0, max: 60, step: 0.05, unit: s, group: 'Timing' },
  { key: 'startDuration', label: 'Start', kind: 'number', min: 0, max: 60, step: 0.05, unit: s, group: 'Timing' },
  { key: 'exitDuration', label: 'Exit', kind: 'number', min: 0, max: 60, step: 0.05, unit: s, group: 'Timing' },
  { key: 'cycleDuration', label: 'Cycle', kind: 'number', min: 0.05, max: 60, step: 0.05, unit: s, group: 'Timing' },
  { key: 'cycleDelay', label: 'Cycle delay', kind: 'number', min: 0, max: 60, step: 0.05, unit: s, group: 'Timing' },
  { key: 'cycleKind', label: 'Cycle kind', kind: 'enum', options: ['default', 'keyframe', 'spring'], group: 'Timing' },
  { key: 'presentation', label: 'Presentation', kind: 'enum', options: ['slideDown', 'background'], group: 'Look' },
  { key: 'anchor', label: 'Anchor', kind: 'enum', options: ['top', 'middle', 'bottom'], group: 'Look' },
  { key: 'viewBehaviour', label: 'View', kind: 'enum', options: ['stretches', 'fixedTop', 'fixedBottom'], group: 'Look' },
]);

export const FEED_FIELDS = Object.freeze([
  { key: 'latencyMs', label: 'Latency', kind: 'number', min: 0, max: 600000, step: 50, unit: ms },
  { key: 'failureRate', label: 'Failure rate', kind: 'number', min: 0, max: 1, step: 0.05 },
  { key: 'timeoutMs', label: 'Timeout', kind: 'number', min: 1, max: 600000, step: 100, unit: ms },
  { key: 'pageSize', label: 'Page size', kind: 'number', min: 1, max: 1000, step: 1, integer: true },
  { key: 'totalItems', label: 'Total items', kind: 'number', min: 0, max: 1000000, step: 1, integer: true },
  { key: 'newItemsPerRefresh', label: 'New per refresh', kind: 'number', min: 0, max: 1000, step: 1, integer: true },
  { key: 'rowHeight', label: 'Row height', kind: 'number', min: 8, max: 1000, step: 1, unit: px },
]);

export const PHYSICS_FIELDS = Object.freeze([
  { key: 'decelerationRate', label: 'Deceleration', kind: 'number', min: 0.5, max: 0.9999, step: 0.0001 },
  { key: 'spring', label: 'Spring', kind: 'enum', options: ['ios', 'pop', 'critical', 'fast'] },
  { key: 'rubberBand', label: 'Rubber band', kind: 'number', min: 0.05, max: 1, step: 0.01 },
]);

export const EDGES = ['top', 'bottom', 'left', 'right'];

export function fieldsOf(scope) {
  return scope === 'feed' ? FEED_FIELDS : scope === 'physics' ? PHYSICS_FIELDS : EDGE_FIELDS;
}

export function fieldSpec(scope, key) {
  return fieldsOf(scope).find((f) => f.key === key) || null;
}

/**
 * The value a control holds, checked only for its type (the server checks ranges and says why it refuses):
 * {ok: true, value} or {ok: false, message}. `input` is {value, checked}. Pure.
 */
export function readField(spec, input) {
  if (!spec) return { ok: false, message: 'unknown field' };
  switch (spec.kind) {
    case 'bool':
      return { ok: true, value: Boolean(input.checked) };
    case 'enum':
      return spec.options.includes(input.value)
        ? { ok: true, value: input.value }
        : { ok: false, message: `one of ${spec.options.join(', ')}` };
    default: {
      const text = String(input.value ?? '').trim();
      const value = text === '' ? NaN : Number(text);
      if (!Number.isFinite(value)) return { ok: false, message: 'a number, please' };
      return { ok: true, value };
    }
  }
}

/** The `configure` message that changes one field: `scope` is an edge name, "feed" or "physics". Pure. */
export function configurePatch(scope, key, value) {
  if (scope === 'feed' || scope === 'physics') return { type: 'configure', [scope]: { [key]: value } };
  if (!EDGES.includes(scope)) throw new RangeError(`not a scope: ${scope}`);
  return { type: 'configure', edges: { [scope]: { [key]: value } } };
}

/** A config with one field changed (what the page sent, when the server does not echo the config). Pure. */
export function withField(config, scope, key, value) {
  const c = structuredClone(config || {});
  if (scope === 'feed' || scope === 'physics') c[scope] = { ...(c[scope] || {}), [key]: value };
  else {
    c.edges = c.edges || {};
    c.edges[scope] = { ...(c.edges[scope] || {}), [key]: value };
  }
  return c;
}

/**
 * The field an error message names ("edges.top.triggerDistance must be between 1 and 10000, got 0.0",
 * "configure.feed.pageSize must be an integer"), as {scope, key}, or null. Pure.
 */
export function fieldOfError(message) {
  const m = /(?:^|[\s'"(])(?:configure\.)?(?:edges\.(top|bottom|left|right)|(feed|physics))\.([A-Za-z]+)/.exec(String(message || ''));
  if (!m) return null;
  return { scope: m[1] || m[2], key: m[3] };
}

function fieldId(scope, key) {
  return `param-${scope}-${key}`;
}

/** Shown value of a number: at most as many decimals as its step, no trailing float noise. */
function numberText(v, spec) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '';
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(spec.step || 1))));
  return String(Number(v.toFixed(Math.max(decimals, 4))));
}

export class Params {
  /** `send(msg)` returns whether it went out. */
  constructor({ send }) {
    this.send = send;
    this.config = null;
    this.source = null;        // 'welcome' | 'config'
    this.preset = null;        // the preset the config belongs to
    this.stalePreset = null;   // set when the preset changed and no config came back
    this.rows = new Map();     // "scope.key" → {control, status, error, spec, scope}
    this.pending = null;       // {scope, key, value, prev, at}
    this.note = el('p', 'params-note');
    this.note.dataset.paramsNote = '';
    this.body = el('div', 'params-body');
    this.lastError = el('p', 'params-error');
    this.lastError.dataset.paramsError = '';
    this.lastError.setAttribute('role', 'status');
    this.root = el('div', 'params', [this.note, this.lastError, this.body]);
    this.root.dataset.panelParams = '';
  }

  roleOf(edge) {
    return this.config?.edges?.[edge]?.role ?? null;
  }

  /** A full config from the server: welcome.config, or a `config` message after a configure. */
  setConfig(config, { source, preset } = {}) {
    if (!config || typeof config !== 'object') return;
    const shape = (c) => `${Object.keys(c.edges || {}).join(',')}|${c.feed ? 1 : 0}|${c.physics ? 1 : 0}`;
    const rebuild = !this.config || shape(this.config) !== shape(config);
    this.config = config;
    this.source = source;
    if (preset !== undefined) this.preset = preset;
    this.stalePreset = null;
    if (rebuild) this.build();
    else this.fill();
    if (this.pending && source === 'config') this.settle('ok');
    this.updateNote();
  }

  /** The page asked for another preset (the picker): the values shown are the old preset's until a config comes. */
  presetChanged(name) {
    if (name === this.preset) return;
    this.preset = name;
    this.stalePreset = name;
    this.updateNote();
  }

  updateNote() {
    let text = '';
    if (!this.config) text = 'Waiting for the session…';
    else if (this.stalePreset) {
      text = `Preset changed to ${this.stalePreset}: the server sent no new config, so these are the values before `
        + 'the change, and the ones you edit show what you sent (since preset change).';
    }
    setText(this.note, text);
    this.note.hidden = !text;
    this.root.dataset.stale = String(Boolean(this.stalePreset));
  }

  build() {
    this.rows.clear();
    const frag = document.createDocumentFragment();
    const edges = EDGES.filter((e) => this.config.edges && this.config.edges[e]);
    for (const edge of edges) {
      const c = this.config.edges[edge];
      frag.append(this.group(edge, `${edge}`, c.role === 'loadMore' ? 'load more' : 'refresh', EDGE_FIELDS, c));
    }
    if (this.config.feed) frag.append(this.group('feed', 'feed', 'simulated', FEED_FIELDS, this.config.feed));
    if (this.config.physics) frag.append(this.group('physics', 'physics', 'scroll', PHYSICS_FIELDS, this.config.physics));
    this.body.replaceChildren(frag);
  }

  group(scope, title, subtitle, fields, values) {
    const grid = el('div', 'param-grid');
    let lastGroup = null;
    for (const spec of fields) {
      if (spec.group && spec.group !== lastGroup) {
        lastGroup = spec.group;
        grid.append(el('div', 'param-group', spec.group));
      }
      grid.append(this.fieldRow(scope, spec, values[spec.key]));
    }
    const sub = el('span', 'param-scope-sub', subtitle);
    const summary = el('summary', 'param-scope', [el('span', 'param-scope-name', title), sub]);
    const details = el('details', 'param-fieldset', [summary, grid]);
    details.dataset.scope = scope;
    details.open = scope === 'top' || scope === 'feed';
    if (EDGES.includes(scope)) {
      this.rows.set(`${scope}.__sub`, { sub });
    }
    return details;
  }

  fieldRow(scope, spec, value) {
    const id = fieldId(scope, spec.key);
    let control;
    if (spec.kind === 'bool') {
      control = el('input', 'param-check');
      control.type = 'checkbox';
    } else if (spec.kind === 'enum') {
      control = el('select', 'param-select');
      for (const o of spec.options) {
        const opt = el('option', null, o);
        opt.value = o;
        control.append(opt);
      }
    } else {
      control = el('input', 'param-number');
      control.type = 'number';
      control.min = String(spec.min);
      control.max = String(spec.max);
      control.step = String(spec.step);
      control.inputMode = spec.integer ? 'numeric' : 'decimal';
    }
    control.id = id;
    control.name = `${scope}.${spec.key}`;
    control.dataset.scope = scope;
    control.dataset.field = spec.key;
    const label = el('label', 'param-label', spec.label);
    label.htmlFor = id;
    label.title = `${spec.key}${spec.kind === 'number' ? ` (${spec.min}…${spec.max}${spec.unit ? ` ${spec.unit}` : ''})` : ''}`;
    const status = el('span', 'param-status');
    const unit = el('span', 'param-unit', spec.unit || '');
    const error = el('span', 'param-error');
    error.setAttribute('role', 'alert');
    const row = el('div', 'param-row', [label, el('span', 'param-control', [control, unit]), status, error]);
    row.dataset.param = `${scope}.${spec.key}`;
    const entry = { control, status, error, spec, scope, row, value };
    this.rows.set(`${scope}.${spec.key}`, entry);
    this.show(entry, value);
    const commit = () => this.commit(entry);
    control.addEventListener('change', commit);
    if (spec.kind === 'number') {
      control.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        } else if (e.key === 'Escape') {
          this.show(entry, entry.value);
          control.blur();
        }
      });
    }
    return row;
  }

  show(entry, value, force = false) {
    entry.value = value;
    const c = entry.control;
    // not under the user's fingers (unless the server refused what they committed)
    if (!force && document.activeElement === c && entry.spec.kind === 'number') return;
    if (entry.spec.kind === 'bool') c.checked = Boolean(value);
    else if (entry.spec.kind === 'enum') c.value = value ?? '';
    else c.value = numberText(value, entry.spec);
  }

  /** Puts every value of the current config in its control (same shape as built). */
  fill() {
    for (const entry of this.rows.values()) {
      if (!entry.spec) continue;
      const src = entry.scope === 'feed' || entry.scope === 'physics' ? this.config[entry.scope] : this.config.edges?.[entry.scope];
      if (src && entry.spec.key in src) this.show(entry, src[entry.spec.key]);
    }
    for (const edge of EDGES) {
      const r = this.rows.get(`${edge}.__sub`);
      if (r) setText(r.sub, this.config.edges?.[edge]?.role === 'loadMore' ? 'load more' : 'refresh');
    }
  }

  commit(entry) {
    const read = readField(entry.spec, { value: entry.control.value, checked: entry.control.checked });
    if (!read.ok) {
      this.mark(entry, 'error', read.message);
      return;
    }
    if (read.value === entry.value) return; // what the server already has (a refusal stays shown until the next edit)
    const msg = configurePatch(entry.scope, entry.spec.key, read.value);
    if (!this.send(msg)) {
      this.mark(entry, 'error', 'not connected');
      return;
    }
    if (this.pending && this.pending.entry !== entry) this.settle('ok');
    this.pending = { entry, value: read.value, prev: entry.value, at: performance.now() };
    this.mark(entry, 'pending', '');
  }

  mark(entry, status, message) {
    entry.row.dataset.status = status;
    setText(entry.status, status === 'pending' ? '…' : status === 'ok' ? '✓' : status === 'error' ? '!' : '');
    setText(entry.error, message || '');
    entry.control.setAttribute('aria-invalid', String(status === 'error'));
  }

  /** The pending change is taken as accepted (no error came back) or confirmed by a config. */
  settle(status) {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    if (status === 'ok') {
      this.config = withField(this.config, p.entry.scope, p.entry.spec.key, p.value);
      p.entry.value = p.value;
      this.mark(p.entry, 'ok', this.stalePreset ? 'sent (since preset change)' : '');
      if (p.entry.spec.key === 'role') this.fill();
    }
  }

  /** An `error` reply with ref "configure". */
  onError(err) {
    const named = fieldOfError(err.message);
    let entry = named ? this.rows.get(`${named.scope}.${named.key}`) : null;
    if (!entry && this.pending) entry = this.pending.entry;
    setText(this.lastError, `${err.code}: ${err.message}`);
    this.lastError.hidden = false;
    if (!entry) return;
    if (this.pending && this.pending.entry === entry) {
      this.show(entry, this.pending.prev, true);
      this.pending = null;
    }
    this.mark(entry, 'error', err.message);
  }

  /** ~10 times a second: a change with no error after `graceMs` is taken as accepted. */
  tick(now, rtt) {
    const grace = 400 + 3 * (Number.isFinite(rtt) ? rtt : 100);
    if (this.pending && now - this.pending.at > grace) this.settle('ok');
    if (!this.lastError.textContent) this.lastError.hidden = true;
  }
}
