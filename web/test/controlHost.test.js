// The control host (js/controls/controlHost.js): the life cycle's order, the cycle phase as a function of server
// time, and bad controls (a throwing hook, a set-up that never finishes, a module that fails to load or lacks a
// hook) reported by name and hook while the edge falls back to its preset's default control.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControlHost } from '../js/controls/controlHost.js';
import { registerControl } from '../js/controls/api.js';

/** A 2D context that records nothing: the host only needs its calls to exist. */
const g = new Proxy({}, { get: (target, key) => (key in target ? target[key] : () => ({ width: 0 })), set: () => true });
const vp = { w: 390, h: 763 };
const frameOf = (state, extra = {}) => ({
  offset: { x: 0, y: -100 }, contentSize: { w: 390, h: 7200 }, viewport: vp,
  edges: [{ edge: 'top', state, distance: 100, progress: 0.8, control: { x: 0, y: 0, w: 390, h: 100 }, view: { x: 0, y: 20, w: 390, h: 60 }, scale: 1, ...extra }],
});
const env = (over = {}) => ({
  config: { edges: { top: { control: over.control ?? 'test-life' } } }, preset: 'ios', clock: 0, serverNow: 0,
  reducedMotion: false, theme: {}, dpr: 1, viewport: vp, slotFor: () => 60, stateClock: null, ...over,
});
const settle = () => new Promise((r) => setTimeout(r, 0));
const quiet = (fn) => async () => {
  const error = console.error;
  console.error = () => {};
  try {
    await fn();
  } finally {
    console.error = error;
  }
};

test('hooks run in the order of a life: setup, progress, stateChanged, cycle, exit, teardown', () => {
  const calls = [];
  registerControl({
    name: 'test-life',
    setup: (ctx) => calls.push(`setup ${ctx.edge}`),
    progress: (ctx) => calls.push(`progress ${ctx.state} ${ctx.progress}`),
    stateChanged: (ctx, previous) => calls.push(`state ${previous}→${ctx.state}`),
    cycle: (ctx) => calls.push(`cycle ${ctx.cycle.index}`),
    exit: (ctx) => calls.push(`exit ${ctx.exit.t}`),
    teardown: () => calls.push('teardown'),
  });
  const host = new ControlHost();
  host.draw(g, frameOf('pulling'), { x: 0, y: -100 }, env());
  host.draw(g, frameOf('refreshing', { cycle: { index: 2, t0: 0, duration: 1, delay: 0 } }), { x: 0, y: -100 }, env({ serverNow: 500 }));
  host.draw(g, frameOf('finishing', { exit: { t0: 1000, duration: 0.5 } }), { x: 0, y: -100 }, env({ serverNow: 1250 }));
  host.draw(g, frameOf('idle'), { x: 0, y: -100 }, env({ control: 'spinner' }));
  assert.deepEqual(calls, [
    'setup top', 'progress pulling 0.8', 'state pulling→refreshing', 'cycle 2', 'state refreshing→finishing', 'exit 0.5', 'teardown',
  ]);
  assert.deepEqual(host.drawing(), { top: 'spinner' });
});

test('the cycle phase is the server\'s: two devices with different page clocks draw the same phase', () => {
  const seen = [];
  registerControl({ name: 'test-phase', progress() {}, cycle: (ctx) => seen.push({ ...ctx.cycle }) });
  const frame = frameOf('refreshing', { cycle: { index: 5, t0: 10_000, duration: 0.8, delay: 0 } });
  new ControlHost().draw(g, frame, { x: 0, y: -100 }, env({ control: 'test-phase', clock: 123, serverNow: 10_600 }));
  new ControlHost().draw(g, frame, { x: 0, y: -100 }, env({ control: 'test-phase', clock: 98_765, serverNow: 10_600 }));
  assert.deepEqual(seen[0], seen[1]);
  assert.equal(seen[0].index, 5);
  assert.equal(seen[0].t, 0.75);
});

test('a control that throws in a hook is reported with its hook, and the edge falls back', quiet(() => {
  registerControl({ name: 'test-throws', progress() { throw new Error('boom'); }, cycle() {} });
  const host = new ControlHost();
  const problems = [];
  host.listen((p) => problems.push(p));
  host.draw(g, frameOf('pulling'), { x: 0, y: -100 }, env({ control: 'test-throws' }));
  assert.deepEqual(problems.map((p) => [p.control, p.hook, p.message]), [['test-throws', 'progress', 'boom']]);
  assert.deepEqual(host.drawing(), { top: 'spinner' });
  assert.deepEqual(host.status(), { top: 'failed' });
  host.draw(g, frameOf('pulling'), { x: 0, y: -100 }, env({ control: 'test-throws' }));
  assert.equal(problems.length, 1, 'reported once');
}));

test('a set-up that never finishes is timed out; the default draws meanwhile', quiet(async () => {
  registerControl({ name: 'test-hangs', setup: () => new Promise(() => {}), progress() {}, cycle() {} });
  const host = new ControlHost({ setupTimeoutMs: 20 });
  host.draw(g, frameOf('pulling'), { x: 0, y: -100 }, env({ control: 'test-hangs' }));
  assert.deepEqual(host.drawing(), { top: 'spinner' });
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(host.problems[0].hook, 'setup');
  assert.match(host.problems[0].message, /within 20 ms/);
}));

test('a module that fails to load, or lacks a hook, is named; a good one replaces the default once loaded', quiet(async () => {
  const modules = {
    '/controls/missing.js': () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    '/controls/hookless.js': () => Promise.resolve({ default: { name: 'hookless', progress() {} } }),
    '/controls/good.js': () => Promise.resolve({ default: { name: 'good', progress() {}, cycle() {} } }),
  };
  const host = new ControlHost({ importer: (url) => modules[url]() });
  let changes = 0;
  host.attach({ onChange: () => changes++ });
  for (const name of ['missing', 'hookless', 'good']) {
    host.draw(g, frameOf('pulling'), { x: 0, y: -100 }, env({ control: name }));
    assert.deepEqual(host.drawing(), { top: 'spinner' }, 'the default draws while the module loads');
    await settle();
    host.draw(g, frameOf('pulling'), { x: 0, y: -100 }, env({ control: name }));
  }
  assert.deepEqual(host.problems.map((p) => [p.control, p.hook]), [['missing', 'load'], ['hookless', 'cycle']]);
  assert.match(host.problems[0].message, /\/controls\/missing\.js failed to load/);
  assert.deepEqual(host.drawing(), { top: 'good' });
  assert.ok(changes >= 3);
}));

test('the page\'s own choice holds until the session\'s configuration changes the edge', () => {
  const host = new ControlHost();
  host.attach({ search: '?control=ring,bottom:side' });
  const config = { edges: { top: {} } };
  assert.deepEqual(host.controlNames(config, 'ios'), { top: 'ring', bottom: 'side', left: 'side', right: 'side' });
  // an edge the configuration left out, then turned on: its first control is what the choice was made over
  assert.equal(host.controlNames({ edges: { top: { control: 'arrow' } } }, 'ios').top, 'ring', 'the edge appears');
  assert.equal(host.controlNames({ edges: { top: { control: 'spinner' } } }, 'ios').top, 'spinner', 'a newer choice from the session');
});

test('a choice made before the configuration is known holds over the first one, whose edges name controls', () => {
  const host = new ControlHost();
  host.attach({ search: '?control=bubbles' });
  assert.equal(host.controlNames(null, 'jh').top, 'bubbles', 'no configuration yet (a skeleton)');
  const seed = { edges: { top: { control: 'colorCycle' }, bottom: { control: 'footer' } } };
  assert.equal(host.controlNames(seed, 'jh').top, 'bubbles', 'the seed names its own control: the page\'s choice holds');
  assert.equal(host.controlNames(seed, 'jh').bottom, 'footer');
  assert.equal(host.controlNames({ edges: { top: { control: 'ring' } } }, 'jh').top, 'ring', 'a newer choice from the session');
});

test('a tap target offered by a control comes back from draw', () => {
  registerControl({ name: 'test-tap', progress: (ctx) => ctx.tap(ctx.view, 'retry', 'Retry'), cycle() {} });
  const taps = new ControlHost().draw(g, frameOf('failed'), { x: 0, y: -100 }, env({ control: 'test-tap' }));
  assert.deepEqual(taps, [{ edge: 'top', rect: { x: 0, y: 20, w: 390, h: 60 }, message: { type: 'command', name: 'retry', edge: 'top' }, label: 'Retry' }]);
});
