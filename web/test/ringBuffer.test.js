// The ring buffers (js/ringBuffer.js) the debug panel keeps its events and series in, and a live session its
// draw log (docs/PAGE.md, "The modules").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_COLUMNS, Ring, SeriesRing } from '../js/ringBuffer.js';

test('Ring keeps the newest items and evicts the oldest', () => {
  const r = new Ring(3);
  assert.equal(r.push(1), undefined);
  r.push(2);
  r.push(3);
  assert.deepEqual(r.toArray(), [1, 2, 3]);
  assert.equal(r.push(4), 1);
  assert.deepEqual(r.toArray(), [2, 3, 4]);
  assert.equal(r.at(0), 2);
  assert.equal(r.at(-1), 4);
  assert.equal(r.last, 4);
  assert.equal(r.at(3), undefined);
  assert.deepEqual(r.newest(2), [4, 3]);
  assert.deepEqual([...r], [2, 3, 4]);
  r.clear();
  assert.equal(r.length, 0);
  assert.deepEqual(r.newest(), []);
  assert.throws(() => new Ring(0));
});

test('SeriesRing stores columns without allocating, drops old samples and searches by time', () => {
  const s = new SeriesRing(4, ['t', 'v']);
  for (let i = 0; i < 6; i++) s.push(i * 10, i);
  assert.equal(s.length, 4);
  assert.deepEqual([0, 1, 2, 3].map((i) => s.get('t', i)), [20, 30, 40, 50]);
  assert.equal(s.lowerBound('t', 35), 2);
  assert.equal(s.lowerBound('t', 0), 0);
  assert.equal(s.lowerBound('t', 99), 4);
  s.dropBefore('t', 35);
  assert.equal(s.length, 2);
  assert.equal(s.get('v', 0), 4);
  s.push(60, 6);
  s.push(70, 7);
  s.push(80, 8); // wraps
  assert.deepEqual([0, 1, 2, 3].map((i) => s.get('t', i)), [50, 60, 70, 80]);
});

test('a series gives its samples back as rows, oldest first: a session\'s draw log', () => {
  const log = new SeriesRing(3, ['t', 'y']);
  assert.deepEqual(log.rows(), []);
  for (let i = 1; i <= 5; i++) log.push(i * 16, -i);
  assert.deepEqual(log.rows(), [{ t: 48, y: -3 }, { t: 64, y: -4 }, { t: 80, y: -5 }]);
  const plot = new SeriesRing(2, ['t', 'x', 'y', 'vx', 'vy', 'ax']);
  plot.push(1, 2, 3, 4, 5, 6);
  assert.deepEqual(plot.rows(), [{ t: 1, x: 2, y: 3, vx: 4, vy: 5, ax: 6 }]);
});

test('a series has 1 to MAX_COLUMNS columns and room for one sample at least', () => {
  assert.throws(() => new SeriesRing(0, ['t']), RangeError);
  assert.throws(() => new SeriesRing(4, []), RangeError);
  assert.throws(() => new SeriesRing(4, Array.from({ length: MAX_COLUMNS + 1 }, (_, i) => `c${i}`)), RangeError);
});
