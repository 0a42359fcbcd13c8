// The debug panel's pure parts: seq-gap counting, rates, transition spans,
// the event filter and log model, form field → configure patch, segment description.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SeqGapCounter, CounterRate, formatBytes, clockSkew } from '../js/panel/figures.js';
import { TransitionLog, relativeTime } from '../js/panel/timeline.js';
import { EventLogModel, matchesFilter, clockText, describeEvent } from '../js/panel/eventLog.js';
import {
  configurePatch, readField, fieldSpec, fieldOfError, withField, fieldsFromSchema, fieldsOf, fieldTitle,
} from '../js/panel/params.js';
import { describeSegments, describeFrame } from '../js/panel/framePane.js';
import { sampleMotion, easeRange } from '../js/panel/plot.js';

test('seq gaps count the frames the server coalesced', () => {
  const c = new SeqGapCounter();
  assert.equal(c.add(1, 0), 0);
  assert.equal(c.add(2, 10), 0);
  assert.equal(c.add(5, 20), 2); // 3 and 4 were merged into 5
  assert.equal(c.add(6, 30), 0);
  assert.equal(c.add(10, 6000), 3);
  assert.equal(c.total, 5);
  assert.equal(c.frames, 5);
  assert.equal(c.recent(6000, 5000), 3); // the gap at t=20 is older than 5 s
  assert.equal(c.recent(6000, 10000), 5);
  // a new session (seq starts over) is not a gap
  assert.equal(c.add(1, 6100), 0);
  assert.equal(c.restarts, 1);
  assert.equal(c.total, 5);
  // a resume: rebase, and the frames missed while away do not count
  c.rebase();
  assert.equal(c.add(400, 7000), 0);
  assert.equal(c.add(402, 7010), 1);
  assert.equal(c.total, 6);
  assert.equal(c.add(undefined, 7020), 0);
  assert.equal(c.add(Number.NaN, 7030), 0);
  assert.equal(c.frames, 8); // invalid seqs are not frames
});

test('rates from a growing counter over a sliding window', () => {
  const r = new CounterRate(1000);
  assert.equal(r.rate(), 0);
  r.sample(0, 0);
  r.sample(100, 600);
  assert.equal(r.rate(), 6000);
  for (let t = 200; t <= 3000; t += 100) r.sample(t, t * 6);
  assert.equal(r.rate(), 6000);
  r.sample(3000, 99999); // not newer: ignored
  r.sample(3100, 3000 * 6); // nothing arrived in the last 100 ms
  assert.ok(r.rate() < 6000 && r.rate() > 5000);
  assert.equal(formatBytes(812), '812 B');
  assert.equal(formatBytes(2410), '2.41 kB');
  assert.equal(formatBytes(24100), '24.1 kB');
  assert.equal(formatBytes(1.2e6), '1.20 MB');
  assert.equal(formatBytes(-1), '–');
});

test('transition log: newest rows per edge and the state spans of a window', () => {
  const log = new TransitionLog(8);
  assert.equal(log.add({ name: 'armed', edge: 'top', t: 1 }), false);
  assert.equal(log.add({ name: 'transition', from: 'idle', to: 'pulling', t: 1 }), false); // no edge
  log.add({ name: 'transition', edge: 'top', from: 'idle', to: 'pulling', cause: 'drag', t: 1000 });
  log.add({ name: 'transition', edge: 'top', from: 'pulling', to: 'armed', cause: 'drag', t: 1500 });
  log.add({ name: 'transition', edge: 'top', from: 'armed', to: 'refreshing', cause: 'release', t: 2000 });
  assert.deepEqual(log.recent('top', 2).map((r) => r.to), ['refreshing', 'armed']);
  assert.deepEqual(log.recent('bottom'), []);
  assert.deepEqual(log.spans('top', 0, 3000, 'refreshing'), [
    { state: 'idle', t0: 0, t1: 1000 },
    { state: 'pulling', t0: 1000, t1: 1500 },
    { state: 'armed', t0: 1500, t1: 2000 },
    { state: 'refreshing', t0: 2000, t1: 3000 },
  ]);
  assert.deepEqual(log.spans('top', 1200, 1800, 'x'), [
    { state: 'pulling', t0: 1200, t1: 1500 },
    { state: 'armed', t0: 1500, t1: 1800 },
  ]);
  assert.deepEqual(log.spans('bottom', 0, 10, 'idle'), [{ state: 'idle', t0: 0, t1: 10 }]);
  assert.equal(relativeTime(1234), '−1.2 s');
  assert.equal(relativeTime(45_000), '−45 s');
  assert.equal(relativeTime(600_000), '−10 min');
});

test('event filter: words must all appear; field:value words match one field', () => {
  const ev = { name: 'transition', edge: 'top', from: 'pulling', to: 'armed', cause: 'drag' };
  assert.ok(matchesFilter(ev, ''));
  assert.ok(matchesFilter(ev, 'top'));
  assert.ok(matchesFilter(ev, 'TOP armed'));
  assert.ok(!matchesFilter(ev, 'top bottom'));
  assert.ok(matchesFilter(ev, 'cause:drag'));
  assert.ok(!matchesFilter(ev, 'cause:wheel'));
  assert.ok(matchesFilter(ev, 'edge:top to:armed'));
  assert.ok(matchesFilter({ name: 'didStart', edge: 'top', cause: 'release' }, 'engage', ['didEngage']));
  assert.ok(matchesFilter({ name: 'gestureBegan', cause: 'drag' }, 'edge:'));
  assert.equal(clockText(81315.2), '1:21.315');
  assert.equal(clockText(3_723_004), '1:02:03.004');
  // The server's clock counts from 1970: the UTC time of day (2026-11-24T00:45:00.123Z).
  assert.equal(clockText(Date.UTC(2026, 10, 24, 0, 45, 0, 123)), '45:00.123');
  assert.equal(clockText(Date.UTC(2026, 10, 24, 13, 5, 9, 7)), '13:05:09.007');
  assert.equal(describeEvent(ev), 'top pulling → armed (drag)');
});

test('event log model: pause counts what it missed, resume marks it, clear empties', () => {
  const m = new EventLogModel(4);
  m.add({ name: 'a' });
  m.setPaused(true);
  assert.equal(m.add({ name: 'b' }), false);
  m.add({ name: 'c' });
  assert.equal(m.missed, 2);
  assert.equal(m.items.length, 1);
  m.setPaused(false);
  assert.deepEqual(m.items.toArray().map((i) => i.ev?.name ?? `missed ${i.missed}`), ['a', 'missed 2']);
  m.add({ name: 'd' });
  assert.equal(m.added, 3);
  m.clear();
  assert.equal(m.items.length, 0);
  assert.equal(m.missed, 0);
  m.setPaused(true);
  m.setPaused(false); // nothing missed: no marker
  assert.equal(m.items.length, 0);
});

test('form fields become configure patches with only that field', () => {
  assert.deepEqual(configurePatch('top', 'triggerDistance', 80),
    { type: 'configure', edges: { top: { triggerDistance: 80 } } });
  assert.deepEqual(configurePatch('feed', 'latencyMs', 1500), { type: 'configure', feed: { latencyMs: 1500 } });
  assert.deepEqual(configurePatch('physics', 'spring', 'pop'), { type: 'configure', physics: { spring: 'pop' } });
  assert.deepEqual(configurePatch('events', 'events', 'library'), { type: 'configure', events: 'library' });
  assert.throws(() => configurePatch('middle', 'x', 1));
  const fields = fieldsFromSchema(SCHEMA);
  const td = fieldSpec(fields, 'top', 'triggerDistance');
  assert.deepEqual([td.min, td.max, td.step, td.unit], [1, 10000, 1, 'px']);
  assert.deepEqual(readField(td, { value: '80' }), { ok: true, value: 80 });
  assert.deepEqual(readField(td, { value: ' 0.5 ' }), { ok: true, value: 0.5 }); // the server judges the range
  assert.equal(readField(td, { value: '' }).ok, false);
  assert.equal(readField(td, { value: 'abc' }).ok, false);
  assert.deepEqual(readField(fieldSpec(fields, 'left', 'enabled'), { checked: false }), { ok: true, value: false });
  assert.deepEqual(readField(fieldSpec(fields, 'top', 'trigger'), { value: 'manual' }), { ok: true, value: 'manual' });
  assert.equal(readField(fieldSpec(fields, 'top', 'trigger'), { value: 'sometimes' }).ok, false);
  assert.equal(readField(null, {}).ok, false);
});

// web/test/fixtures/schema.json is `welcome.schema` as the engine's encoder writes it (a Swift golden test,
// ConfigurationSchemaDocumentTests, keeps it current): the page builds its editors from it, ranges included.
const SCHEMA = JSON.parse(readFileSync(new URL('./fixtures/schema.json', import.meta.url), 'utf8'));

test('the editors come from the schema the server sends: every field, its kind, range, unit and section', () => {
  const fields = fieldsFromSchema(SCHEMA);
  // a name field (an edge's `control`) has no editor here: the panel's control picker sets it
  const edited = SCHEMA.edges.filter((f) => f.kind !== 'name');
  assert.deepEqual(fields.edges.map((f) => f.key).sort(), edited.map((f) => f.name).sort());
  assert.ok(fields.edges.some((f) => f.key === 'endsOnCycleBoundary' && f.kind === 'bool'));
  // an edge's editors are gathered by section, in the order the sections first appear
  const groups = fields.edges.map((f) => f.group);
  assert.deepEqual([...new Set(groups)], ['Behaviour', 'Distances', 'Timing', 'Look']);
  assert.deepEqual(groups, [...groups].sort((a, b) => groups.indexOf(a) - groups.indexOf(b)));
  assert.deepEqual(fields.edges.filter((f) => f.group === 'Behaviour').map((f) => f.key),
    ['role', 'enabled', 'trigger', 'strictness', 'fling', 'shortContent']);
  assert.deepEqual(fields.feed.map((f) => f.key),
    ['latencyMs', 'failureRate', 'pageSize', 'totalItems', 'newItemsPerRefresh', 'rowHeight', 'timeoutMs',
      'sectionHeaderHeight']);
  assert.deepEqual(fields.physics.map((f) => f.key), ['decelerationRate', 'spring', 'rubberBand', 'flingPrefetch']);
  // the ranges are the schema's, not a copy
  for (const scope of ['top', 'feed', 'physics']) {
    const list = scope === 'top' ? edited : SCHEMA[scope];
    for (const f of list) {
      const spec = fieldSpec(fields, scope, f.name);
      assert.equal(spec.label, f.label);
      if (f.kind === 'number' || f.kind === 'integer') {
        assert.deepEqual([spec.kind, spec.min, spec.max, spec.step, spec.unit, Boolean(spec.integer)],
          ['number', f.min, f.max, f.step, f.unit, f.kind === 'integer'], f.name);
      } else if (f.kind === 'enum') assert.deepEqual(spec.options, f.names);
      else assert.equal(spec.kind, 'bool');
    }
  }
  assert.deepEqual(fieldSpec(fields, 'physics', 'spring').options, ['ios', 'pop', 'critical', 'fast']);
  assert.equal(fieldSpec(fields, 'feed', 'pageSize').integer, true);
  assert.equal(fieldSpec(fields, 'feed', 'latencyMs').step, 50);
  assert.match(fieldTitle(td()), /^triggerDistance \(1…10000 px\): The pull that arms/);
  assert.ok(!fieldTitle(td()).includes('`'));
  function td() { return fieldSpec(fields, 'top', 'triggerDistance'); }
  // a field of a kind this page does not know gets no editor; no schema, no editors
  const odd = fieldsFromSchema({ edges: [{ name: 'x', kind: 'colour' }, SCHEMA.edges[0]], feed: null });
  assert.deepEqual(odd.edges.map((f) => f.key), [SCHEMA.edges[0].name]);
  assert.deepEqual(odd.feed, []);
  assert.deepEqual(fieldsOf(null, 'top'), []);
  assert.deepEqual(fieldsFromSchema(undefined).edges, []);
});

test('errors name their field; a config with one field changed', () => {
  assert.deepEqual(fieldOfError('edges.top.triggerDistance must be between 1 and 10000, got 0.0'),
    { scope: 'top', key: 'triggerDistance' });
  assert.deepEqual(fieldOfError('configure.feed.pageSize must be an integer'), { scope: 'feed', key: 'pageSize' });
  assert.deepEqual(fieldOfError('physics.rubberBand must be between 0.05 and 1'), { scope: 'physics', key: 'rubberBand' });
  assert.equal(fieldOfError('no preset named x'), null);
  const config = { edges: { top: { triggerDistance: 100 } }, feed: { latencyMs: 1 } };
  const next = withField(config, 'top', 'triggerDistance', 80);
  assert.equal(next.edges.top.triggerDistance, 80);
  assert.equal(config.edges.top.triggerDistance, 100, 'the original is not changed');
  assert.equal(withField(config, 'feed', 'latencyMs', 5).feed.latencyMs, 5);
  assert.equal(withField(null, 'bottom', 'height', 44).edges.bottom.height, 44);
});

test('the frame pane describes fields and the active segment', () => {
  const frame = {
    seq: 7, t: 1000, phase: 'animating', offset: { x: 0, y: -40 }, velocity: { x: 0, y: 200 },
    segment: { y: [
      { kind: 'decay', t0: 1000, t1: 1200, x0: -40, v0: 200, k: -2 },
      { kind: 'spring', t0: 1200, t1: 1800, x0: -10, v0: 50, target: 0, mass: 1, stiffness: 100, damping: 20 },
    ] },
    edges: [{ edge: 'top', state: 'pulling', distance: 40, progress: 0.4 }],
  };
  const segs = describeSegments(frame, 1300);
  assert.equal(segs.length, 2);
  assert.deepEqual(segs.map((s) => [s.kind, s.active, s.time]), [['decay', false, 'done'], ['spring', true, '0.10 / 0.60 s']]);
  assert.match(segs[1].params, /→ 0\.0 · m 1\.00 k 100\.0 c 20\.00/);
  assert.deepEqual(describeSegments({ ...frame, phase: 'idle' }, 1300), []);
  const rows = Object.fromEntries(describeFrame(frame));
  assert.equal(rows.seq, '7');
  assert.equal(rows.offset, '0.0, −40.0');
  assert.equal(rows.top, 'pulling d 40.0 p 0.40');
});

test('the plot samples the displayed motion and its ranges do not twitch', () => {
  const frame = {
    phase: 'animating', offset: { x: 0, y: 0 }, velocity: { x: 0, y: 0 },
    segment: { y: [{ kind: 'spring', t0: 0, t1: 1000, x0: -60, v0: 0, target: 0, mass: 1, stiffness: 100, damping: 20 }] },
  };
  const s = sampleMotion(frame, 100);
  assert.ok(s.y > -60 && s.y < 0);
  assert.ok(s.vy > 0);
  assert.deepEqual(sampleMotion(null, 0), { x: 0, y: 0, vx: 0, vy: 0 });
  assert.deepEqual(sampleMotion({ phase: 'idle', offset: { x: 1, y: 2 }, velocity: { x: 3, y: 4 } }, 0), { x: 1, y: 2, vx: 3, vy: 4 });
  const a = easeRange(null, -100, 0, 40);
  assert.ok(a.lo < -100 && a.hi > 0);
  const b = easeRange(a, -10, 0, 40); // shrinks slowly
  assert.ok(b.lo < -90);
  const c = easeRange(b, -300, 0, 40); // grows at once
  assert.ok(c.lo <= -300);
  const d = easeRange(null, 0, 0, 40); // a minimum span
  assert.ok(d.hi - d.lo >= 40);
});

test('prediction pane figures: round-trip jitter and quantiles', async () => {
  const { rttJitter, quantile } = await import('../js/panel/predictionPane.js');
  assert.equal(rttJitter([]), null);
  assert.equal(rttJitter([10]), null);
  assert.equal(rttJitter([10, 14, 12, 12]), 2);
  assert.equal(quantile([], 0.5), null);
  assert.equal(quantile([5, 1, 3], 0.5), 3);
  assert.equal(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 100], 0.99), 100);
  assert.equal(quantile([1, 2, 3, 4], 0), 1);
});

test('the frame pane shows a timed segment with its target and curve', () => {
  const frame = {
    seq: 9, t: 2000, phase: 'animating', offset: { x: 0, y: -30 }, velocity: { x: 0, y: 0 },
    segment: { y: [{ kind: 'timed', t0: 2000, t1: 2200, x0: -30, target: 0, curve: [0.42, 0, 0.58, 1] }] },
    edges: [],
  };
  const segs = describeSegments(frame, 2100);
  assert.deepEqual(segs.map((s) => [s.kind, s.active, s.time]), [['timed', true, '0.10 / 0.20 s']]);
  assert.equal(segs[0].params, 'x0 −30.0 → 0.0 · curve (0.42, 0.00, 0.58, 1.00)');
});

test('the panel shows the server clock against this device\'s wall clock, not against the page\'s load', () => {
  // a page loaded at 2026-11-24T00:45:00Z whose server runs 12.5 ms ahead of this device
  const origin = Date.UTC(2026, 10, 24, 0, 45);
  assert.equal(clockSkew(origin + 12.5, origin), 12.5);
  assert.equal(clockSkew(origin - 3, origin), -3);
});
