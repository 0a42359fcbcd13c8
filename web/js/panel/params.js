// The preset's parameters, editable live: one form per edge in the config, the feed and the physics, with an
// editor per field of the schema the server sends in `welcome.schema` (its names, kinds, ranges and units live
// only in the engine's ConfigurationSchema). A change sends `configure` with only that field; a refusal (`error`
// with ref "configure") is shown next to the field. The schema → fields and field → patch mappings are pure
// (unit tested in web/test/panel.test.js).
import { el, setText } from './dom.js';

export const EDGES = ['top', 'bottom', 'left', 'right'];

/**
 * The editors' fields from `welcome.schema` (the engine's ConfigurationSchema, docs/PROTOCOL.md "configure"):
 * {edges, feed, physics}, each a list of {key, label, kind: 'number'|'bool'|'enum', options?, min?, max?, step?,
 * unit?, integer?, group?, meaning}. An edge's fields are gathered by section (in the order the sections first
 * appear), keeping the schema's order within one. Pure.
 */
export function fieldsFromSchema(schema) {
  const specs = (list) => (Array.isArray(list) ? list : []).map(fieldOfSchema).filter(Boolean);
  return Object.freeze({
    edges: Object.freeze(bySection(specs(schema?.edges))),
    feed: Object.freeze(specs(schema?.feed)),
    physics: Object.freeze(specs(schema?.physics)),
  });
}

function fieldOfSchema(f) {
  if (!f || typeof f.name !== 'string') return null;
  const base = { key: f.name, label: f.label || f.name, meaning: f.meaning || '' };
  if (f.section) base.group = f.section;
  switch (f.kind) {
    case 'bool':
      return Object.freeze({ ...base, kind: 'bool' });
    case 'enum':
      return Object.freeze({ ...base, kind: 'enum', options: Object.freeze([...(f.names || [])]) });
    case 'number':
    case 'integer': {
      const spec = { ...base, kind: 'number', min: f.min, max: f.max, step: f.step || 1 };
      if (f.unit) spec.unit = f.unit;
      if (f.kind === 'integer') spec.integer = true;
      return Object.freeze(spec);
    }
    default:
      return null; // a kind this page does not know: no editor
  }
}

function bySection(specs) {
  const sections = [];
  for (const spec of specs) if (!sections.includes(spec.group)) sections.push(spec.group);
  return sections.flatMap((section) => specs.filter((spec) => spec.group === section));
}

/** The fields of `scope` (an edge name, "feed" or "physics") among `fields` (fieldsFromSchema). */
export function fieldsOf(fields, scope) {
  if (!fields) return [];
  return scope === 'feed' ? fields.feed : scope === 'physics' ? fields.physics : fields.edges;
}

export function fieldSpec(fields, scope, key) {
  return fieldsOf(fields, scope).find((f) => f.key === key) || null;
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

/**
 * `config.events`, the one field outside the schema's parts (docs/PROTOCOL.md, "configure"): whose names the
 * session's events carry, RefreshKit's or its preset's library's.
 */
export const EVENTS_FIELD = Object.freeze({
  key: 'events', kind: 'enum', options: ['refreshkit', 'library'], label: 'Event names',
  meaning: "Whose names the events carry: RefreshKit's (one start, one end) or the preset's library's own sequence",
});

/** The `configure` message that changes one field: `scope` is an edge name, "feed", "physics" or "events". Pure. */
export function configurePatch(scope, key, value) {
  if (scope === 'events') return { type: 'configure', events: value };
  if (scope === 'feed' || scope === 'physics') return { type: 'configure', [scope]: { [key]: value } };
  if (!EDGES.includes(scope)) throw new RangeError(`not a scope: ${scope}`);
  return { type: 'configure', edges: { [scope]: { [key]: value } } };
}

/** A config with one field changed (what the page sent, when the server does not echo the config). Pure. */
export function withField(config, scope, key, value) {
  const c = structuredClone(config || {});
  if (scope === 'events') c.events = value;
  else if (scope === 'feed' || scope === 'physics') c[scope] = { ...(c[scope] || {}), [key]: value };
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

/** A label's tooltip: the wire name, a number's range and unit, and the schema's meaning. Pure. */
export function fieldTitle(spec) {
  const range = spec.kind === 'number' ? ` (${spec.min}…${spec.max}${spec.unit ? ` ${spec.unit}` : ''})` : '';
  const meaning = spec.meaning ? `: ${spec.meaning.replaceAll('`', '')}` : '';
  return `${spec.key}${range}${meaning}`;
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
    this.fields = null;        // fieldsFromSchema(welcome.schema)
    this.schemaText = null;    // that schema as JSON, to see whether a later welcome brings another
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
    // what a member that may not configure reads (docs/PROTOCOL.md, "Roles"): each field points to it
    this.lockNote = el('p', 'params-note params-locked');
    this.lockNote.id = 'params-locked';
    this.lockNote.dataset.paramsLocked = '';
    this.lockNote.hidden = true;
    this.enabled = true;       // false: this member may not send configure (setEnabled)
    this.root = el('div', 'params', [this.lockNote, this.note, this.lastError, this.body]);
    this.root.dataset.panelParams = '';
  }

  roleOf(edge) {
    return this.config?.edges?.[edge]?.role ?? null;
  }

  /**
   * Whether this member may change the configuration (only the owner may: docs/PROTOCOL.md, "Roles"). Disabled,
   * every field is `disabled` (the values still shown) and described by a note that says why.
   */
  setEnabled(enabled, note = '') {
    this.enabled = Boolean(enabled);
    setText(this.lockNote, this.enabled ? '' : note);
    this.lockNote.hidden = this.enabled || !note;
    this.root.dataset.locked = String(!this.enabled);
    for (const entry of this.rows.values()) if (entry.control) this.lock(entry.control);
  }

  lock(control) {
    control.disabled = !this.enabled;
    if (this.enabled) control.removeAttribute('aria-describedby');
    else control.setAttribute('aria-describedby', this.lockNote.id);
  }

  /** The fields the server's configuration has (welcome.schema); a different one rebuilds the editors. */
  setSchema(schema) {
    const text = JSON.stringify(schema ?? null);
    if (this.fields && text === this.schemaText) return; // a reconnect: the same server's schema
    this.schemaText = text;
    this.fields = fieldsFromSchema(schema);
    if (this.config) this.build();
  }

  /** A full config from the server: welcome.config, or a `config` message after a configure. */
  setConfig(config, { source, preset } = {}) {
    if (!config || typeof config !== 'object') return;
    const shape = (c) => `${Object.keys(c.edges || {}).join(',')}|${c.feed ? 1 : 0}|${c.physics ? 1 : 0}|${c.events ? 1 : 0}`;
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
    else if (!this.fields?.edges.length) text = 'The server sent no schema of its configuration, so there is nothing to edit.';
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
      frag.append(this.group(edge, `${edge}`, c.role === 'loadMore' ? 'load more' : 'refresh', fieldsOf(this.fields, edge), c));
    }
    if (this.config.feed) frag.append(this.group('feed', 'feed', 'simulated', fieldsOf(this.fields, 'feed'), this.config.feed));
    if (this.config.physics) frag.append(this.group('physics', 'physics', 'scroll', fieldsOf(this.fields, 'physics'), this.config.physics));
    if (this.config.events) frag.append(this.group('events', 'events', 'names', [EVENTS_FIELD], { events: this.config.events }));
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
    label.title = fieldTitle(spec);
    const status = el('span', 'param-status');
    const unit = el('span', 'param-unit', spec.unit || '');
    const error = el('span', 'param-error');
    error.setAttribute('role', 'alert');
    const row = el('div', 'param-row', [label, el('span', 'param-control', [control, unit]), status, error]);
    row.dataset.param = `${scope}.${spec.key}`;
    const entry = { control, status, error, spec, scope, row, value };
    this.rows.set(`${scope}.${spec.key}`, entry);
    this.show(entry, value);
    this.lock(control);
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
      const src = entry.scope === 'events' ? { events: this.config.events }
        : entry.scope === 'feed' || entry.scope === 'physics' ? this.config[entry.scope] : this.config.edges?.[entry.scope];
      if (src && entry.spec.key in src) this.show(entry, src[entry.spec.key]);
    }
    for (const edge of EDGES) {
      const r = this.rows.get(`${edge}.__sub`);
      if (r) setText(r.sub, this.config.edges?.[edge]?.role === 'loadMore' ? 'load more' : 'refresh');
    }
  }

  commit(entry) {
    if (!this.enabled) return;
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
