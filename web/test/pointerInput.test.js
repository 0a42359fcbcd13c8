import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TouchTracker, wheelMessage, pointerSamples } from '../js/pointerInput.js';
import { keyAction, isEditable } from '../js/keys.js';
import { announcementFor, statusText } from '../js/ui.js';
import { describeEvent } from '../js/panel/eventLog.js';
import { describeFrame } from '../js/panel/framePane.js';

test('touch: deltas since the previous sample, page timestamps, one pointer at a time', () => {
  const tr = new TouchTracker();
  assert.deepEqual(tr.start(7, 100, 200, 1000), { type: 'touch', phase: 'start', dx: 0, dy: 0, t: 1000, id: 7 });
  assert.equal(tr.start(8, 0, 0, 1001), null, 'a second finger is ignored');
  const moves = tr.move(7, [{ x: 100, y: 210, t: 1008 }, { x: 101, y: 225, t: 1016 }, { x: 101, y: 225, t: 1020 }], 1020);
  assert.deepEqual(moves, [
    { type: 'touch', phase: 'move', dx: 0, dy: 10, t: 1008, id: 7 },
    { type: 'touch', phase: 'move', dx: 1, dy: 15, t: 1016, id: 7 },
  ]);
  assert.deepEqual(tr.move(8, [{ x: 0, y: 50, t: 1030 }], 1030), [], 'other pointers are ignored');
  // a coalesced sample without a usable timestamp takes the event's; time never goes backwards
  const m2 = tr.move(7, [{ x: 101, y: 230, t: 0 }, { x: 101, y: 240, t: 900 }], 1040);
  assert.deepEqual(m2.map((m) => m.t), [1040, 1040]);
  const end = tr.finish(7, 101, 250, 1050);
  assert.deepEqual(end.message, { type: 'touch', phase: 'end', dx: 0, dy: 10, t: 1050, id: 7 });
  assert.equal(end.tap, null, 'a drag is not a tap');
  assert.equal(tr.busy, false);
});

test('touch: a short still press is a tap; cancel is never a tap', () => {
  const tr = new TouchTracker();
  tr.start(1, 50, 50, 0);
  tr.move(1, [{ x: 52, y: 53, t: 40 }], 40);
  const r = tr.finish(1, 52, 53, 120);
  assert.deepEqual(r.tap, { x: 52, y: 53 });
  tr.start(2, 50, 50, 200);
  const c = tr.finish(2, NaN, NaN, 250, 'cancel');
  assert.equal(c.message.phase, 'cancel');
  assert.equal(c.message.dx, 0);
  assert.equal(c.tap, null);
});

test('wheel: deltaMode is read before the deltas', () => {
  const order = [];
  const ev = {
    get deltaMode() { order.push('mode'); return 1; },
    get deltaX() { order.push('x'); return 0; },
    get deltaY() { order.push('y'); return 3; },
    timeStamp: 1234.5,
  };
  assert.deepEqual(wheelMessage(ev), { type: 'wheel', dx: 0, dy: 3, mode: 1, t: 1234.5 });
  assert.equal(order[0], 'mode');
});

test('coalesced samples are used when present', () => {
  const e = { clientX: 1, clientY: 2, getCoalescedEvents: () => [{ clientX: 0, clientY: 1 }, { clientX: 1, clientY: 2 }] };
  assert.equal(pointerSamples(e).length, 2);
  const lone = { clientX: 1, getCoalescedEvents: () => [] };
  assert.deepEqual(pointerSamples(lone), [lone], 'an empty coalesced list falls back to the event');
  const throwing = { clientX: 2, getCoalescedEvents: () => { throw new Error('untrusted'); } };
  assert.deepEqual(pointerSamples(throwing), [throwing]);
  assert.equal(pointerSamples({ clientX: 5 })[0].clientX, 5);
});

test('keys', () => {
  assert.deepEqual(keyAction({ key: 'r' }).message, { type: 'command', name: 'refresh', edge: 'top' });
  assert.deepEqual(keyAction({ key: 'l' }).message, { type: 'command', name: 'loadMore', edge: 'bottom' });
  assert.deepEqual(keyAction({ key: 'ArrowUp' }).message, { type: 'command', name: 'scrollBy', amount: -60 });
  assert.deepEqual(keyAction({ key: 'ArrowDown' }).message, { type: 'command', name: 'scrollBy', amount: 60 });
  assert.deepEqual(keyAction({ key: 'PageUp' }).message, { type: 'command', name: 'scrollByPage', amount: -1 });
  assert.deepEqual(keyAction({ key: 'PageDown' }).message, { type: 'command', name: 'scrollByPage', amount: 1 });
  assert.deepEqual(keyAction({ key: 'Home' }).message, { type: 'command', name: 'scrollToEdge', edge: 'top' });
  assert.deepEqual(keyAction({ key: 'End' }).message, { type: 'command', name: 'scrollToEdge', edge: 'bottom' });
  assert.deepEqual(keyAction({ key: 'd' }), { action: 'togglePanel' });
  assert.equal(keyAction({ key: 'r', ctrlKey: true }), null, 'ctrl+r stays the browser reload');
  assert.equal(keyAction({ key: 'x' }), null);
  assert.equal(isEditable({ tagName: 'select' }), true);
  assert.equal(isEditable({ tagName: 'CANVAS' }), false);
});

test('announcements and status text', () => {
  assert.equal(announcementFor({ type: 'event', name: 'transition', edge: 'top', from: 'armed', to: 'refreshing' }), 'Refreshing');
  assert.equal(announcementFor({ type: 'event', name: 'feedLoaded', edge: 'top', value: 5 }), '5 new items');
  assert.equal(announcementFor({ type: 'event', name: 'feedLoaded', value: 1 }), '1 new item');
  assert.equal(announcementFor({ type: 'event', name: 'transition', edge: 'bottom', to: 'noMoreData' }), 'No more items');
  assert.equal(announcementFor({ type: 'event', name: 'transition', edge: 'bottom', to: 'failed' }), "Couldn't load more — retry");
  assert.equal(announcementFor({ type: 'event', name: 'transition', edge: 'top', to: 'pulling' }), null);
  assert.equal(statusText({ state: 'connected', rtt: 3.25, framesPerSecond: 60 }), 'Connected · 3.3 ms · 60 frames/s');
  assert.equal(statusText({ state: 'connected', rtt: 42.4, framesPerSecond: 0 }), 'Connected · 42 ms · 0 frames/s');
  assert.equal(statusText({ state: 'reconnecting', retryInMs: 2100 }), 'Reconnecting in 3 s…');
  assert.equal(statusText({ state: 'connecting' }), 'Connecting…');
});

test('panel lines', () => {
  assert.equal(describeEvent({ name: 'transition', edge: 'top', from: 'armed', to: 'refreshing', cause: 'release' }),
    'top armed → refreshing (release)');
  assert.equal(describeEvent({ name: 'feedLoaded', edge: 'top', value: 5, cause: 'feedCompleted' }), 'top feedLoaded 5 (feedCompleted)');
  const rows = describeFrame({ seq: 3, t: 1, phase: 'idle', offset: { x: 0, y: -60 }, edges: [{ edge: 'top', state: 'refreshing', distance: 0, progress: 1 }] });
  assert.ok(rows.some(([k, v]) => k === 'top' && v.startsWith('refreshing')));
  assert.deepEqual(describeFrame(null), [['frame', 'none yet']]);
});
