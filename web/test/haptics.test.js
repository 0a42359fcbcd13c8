import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hapticFor, Haptics, HAPTIC_MS, LOCAL_GESTURE_MS } from '../js/haptics.js';

const ev = (name, cause = 'drag') => ({ type: 'event', name, edge: 'top', cause, t: 0 });
const pulling = { sinceLocalInputMs: 16 };

test('a tick when a pull arms or disarms, an impact when the refresh starts', () => {
  assert.equal(hapticFor(ev('armed'), pulling), HAPTIC_MS.armed);
  assert.equal(hapticFor(ev('disarmed'), pulling), HAPTIC_MS.disarmed);
  assert.equal(hapticFor(ev('didStart', 'release'), pulling), HAPTIC_MS.didStart);
  assert.equal(hapticFor(ev('transition'), pulling), 0);
  assert.equal(hapticFor(ev('feedLoaded'), pulling), 0);
});

test('only on the device that pulls, without reduced motion, when switched on', () => {
  assert.equal(hapticFor(ev('armed'), { sinceLocalInputMs: LOCAL_GESTURE_MS + 1 }), 0);
  assert.equal(hapticFor(ev('armed'), {}), 0);
  assert.equal(hapticFor(ev('armed'), { ...pulling, reducedMotion: true }), 0);
  assert.equal(hapticFor(ev('armed'), { ...pulling, enabled: false }), 0);
  assert.equal(hapticFor(ev('didStart', 'command'), pulling), 0);
});

test('vibrates through navigator.vibrate, remembers the switch, and does nothing without one', () => {
  const calls = [];
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const haptics = new Haptics({ nav: { vibrate: (ms) => calls.push(ms) }, storage });
  haptics.onEvent(ev('armed'), pulling);
  haptics.setEnabled(false);
  haptics.onEvent(ev('armed'), pulling);
  assert.deepEqual(calls, [HAPTIC_MS.armed]);
  assert.equal(new Haptics({ nav: { vibrate() {} }, storage }).enabled, false);
  assert.equal(new Haptics({ nav: {}, storage: null }).onEvent(ev('armed'), pulling), 0);
});

test("a library's own event vibrates as the event of ours it stands for (its `kit`)", () => {
  assert.equal(hapticFor({ type: 'event', name: 'DidEngageRefresh', kit: 'didStart', cause: 'release' }, pulling), HAPTIC_MS.didStart);
  assert.equal(hapticFor({ type: 'event', name: 'canEngage', kit: 'armed', cause: 'drag' }, pulling), HAPTIC_MS.armed);
  assert.equal(hapticFor({ type: 'event', name: 'WillEndRefresh', kit: 'endRequested', cause: 'feedCompleted' }, pulling), 0);
});
