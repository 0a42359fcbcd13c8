import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mergePatch, applyDelta, followScroll } from '../js/delta.js';

// RFC 7386, Appendix A: every example.
const rfcExamples = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

test('mergePatch is RFC 7386 (its appendix A)', () => {
  for (const [target, patch, result] of rfcExamples) {
    assert.deepEqual(mergePatch(target, patch), result, JSON.stringify([target, patch]));
  }
});

test('mergePatch never modifies its target, and ignores __proto__', () => {
  const target = { offset: { x: 0, y: 5 }, edges: [{ edge: 'top' }] };
  const copy = structuredClone(target);
  const merged = mergePatch(target, JSON.parse('{"offset":{"y":7},"__proto__":{"polluted":true}}'));
  assert.deepEqual(target, copy);
  assert.deepEqual(merged, { offset: { x: 0, y: 7 }, edges: [{ edge: 'top' }] });
  assert.equal({}.polluted, undefined);
  assert.equal(merged.polluted, undefined);
});

const edge = (name, extra = {}) => ({
  edge: name, state: 'idle', distance: 0, progress: 0, velocity: 0,
  control: { x: 0, y: 0, w: 390, h: 60 }, view: { x: 0, y: -60, w: 390, h: 60 }, scale: 1, ...extra,
});
const baseFrame = () => ({
  type: 'frame', seq: 7, t: 1000, offset: { x: 0, y: 0.3 }, velocity: { x: 0, y: 0 }, phase: 'dragging',
  contentSize: { w: 390, h: 1440 }, viewport: { w: 390, h: 844 }, insets: { top: 0, left: 0, bottom: 0, right: 0 },
  edges: [edge('top', { distance: -0.3 }), edge('bottom', { distance: -595.7 })],
  feed: { count: 20, hasMore: true, loading: false, newest: 200, rowHeight: 72 },
});

test('a delta is merged, and its type becomes frame', () => {
  const next = applyDelta(baseFrame(), { type: 'delta', seq: 8, t: 1016.667, phase: 'animating',
    segment: { y: [{ kind: 'hold', t0: 1016.667, x0: 0.3 }] } });
  assert.equal(next.type, 'frame');
  assert.equal(next.seq, 8);
  assert.equal(next.t, 1016.667);
  assert.equal(next.phase, 'animating');
  assert.deepEqual(next.segment, { y: [{ kind: 'hold', t0: 1016.667, x0: 0.3 }] });
  const rest = applyDelta(next, { type: 'delta', seq: 9, t: 1033.334, phase: 'idle', segment: null });
  assert.equal('segment' in rest, false);
  assert.equal(rest.phase, 'idle');
});

test('edges follow the scroll exactly, in thousandths', () => {
  // 0.3 + 0.1 is not 0.4 in doubles; the follow rule must still give the number the server writes
  const next = applyDelta(baseFrame(), { type: 'delta', seq: 8, t: 1016.667, offset: { y: 0.4 },
    velocity: { y: 6 } });
  assert.equal(next.edges[0].distance, -0.4);
  assert.equal(next.edges[1].distance, -595.6);
  assert.equal(next.edges[0].velocity, -6);
  assert.equal(next.edges[1].velocity, 6);
  // back to 0: +0, never −0 (deepStrictEqual tells them apart)
  const back = applyDelta(next, { type: 'delta', seq: 9, t: 1033.334, offset: { y: 0 }, velocity: { y: 0 } });
  assert.ok(Object.is(back.edges[0].distance, 0));
  assert.ok(Object.is(back.edges[0].velocity, 0));
  // an explicit value wins over the rule
  const pulled = applyDelta(back, { type: 'delta', seq: 10, t: 1050, offset: { y: -10 },
    edges: { top: { state: 'pulling', distance: 12.5, progress: 0.125, view: { y: -47.5 } } } });
  assert.deepEqual(pulled.edges[0], edge('top', { state: 'pulling', distance: 12.5, progress: 0.125,
    velocity: 0, view: { x: 0, y: -47.5, w: 390, h: 60 } }));
  assert.equal(pulled.edges[1].distance, -606);
});

test('followScroll uses the axis of the edge and its side', () => {
  const base = { offset: { x: 10, y: 0 } };
  const next = { offset: { x: 25, y: 3 }, velocity: { x: 900, y: 1 } };
  assert.deepEqual(followScroll({ edge: 'left', distance: -10, velocity: 0 }, base, next),
    { edge: 'left', distance: -25, velocity: -900 });
  assert.deepEqual(followScroll({ edge: 'right', distance: -100, velocity: 0 }, base, next),
    { edge: 'right', distance: -85, velocity: 900 });
});

test('an array of edges replaces them whole, with no rule applied', () => {
  const edges = [edge('top'), edge('left', { distance: 3 })];
  const next = applyDelta(baseFrame(), { type: 'delta', seq: 8, t: 1016, offset: { y: 50 }, edges });
  assert.deepEqual(next.edges, edges);
});

test('cycles and exits are patched member by member, and null ends them', () => {
  let frame = applyDelta(baseFrame(), { type: 'delta', seq: 8, t: 1016, edges: { top: { state: 'refreshing',
    cycle: { index: 0, t0: 1016, duration: 0.8, delay: 0, kind: 'default' } } } });
  frame = applyDelta(frame, { type: 'delta', seq: 9, t: 1816, edges: { top: { cycle: { index: 1, t0: 1816 } } } });
  assert.deepEqual(frame.edges[0].cycle, { index: 1, t0: 1816, duration: 0.8, delay: 0, kind: 'default' });
  frame = applyDelta(frame, { type: 'delta', seq: 10, t: 1900, edges: { top: { state: 'finishing', cycle: null,
    exit: { t0: 1900, duration: 0.25 } } } });
  assert.equal('cycle' in frame.edges[0], false);
  assert.deepEqual(frame.edges[0].exit, { t0: 1900, duration: 0.25 });
});

// Written by the Swift encoder from a real engine session (FrameDeltaFixture in Tests/RefreshWireTests):
// a whole frame, then for every later frame its delta and the whole frame it must make.
test('the Swift encoder\'s deltas rebuild its frames exactly', () => {
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/deltas.json', import.meta.url), 'utf8'));
  let page = JSON.parse(fixture.first);
  assert.ok(fixture.steps.length > 50);
  const kinds = new Set();
  for (const [i, step] of fixture.steps.entries()) {
    const delta = JSON.parse(step.delta);
    for (const key of Object.keys(delta)) kinds.add(key);
    if (Array.isArray(delta.edges)) kinds.add('edges[]');
    page = applyDelta(page, delta);
    assert.deepStrictEqual(page, JSON.parse(step.frame), `step ${i}: ${step.delta}`);
  }
  // the fixture exercises every kind of member
  for (const key of ['offset', 'velocity', 'phase', 'segment', 'edges', 'edges[]', 'feed', 'insets', 'ack']) {
    assert.ok(kinds.has(key), `the fixture has no ${key}`);
  }
});
