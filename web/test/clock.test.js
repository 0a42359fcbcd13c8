import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClockSync, backoffDelay, socketUrl } from '../js/clock.js';

test('offset comes from the minimum-RTT sample of the last 8', () => {
  const c = new ClockSync();
  assert.equal(c.offset, 0);
  assert.equal(c.rtt, null);
  c.roughFromWelcome(10000, 100);
  assert.equal(c.offset, 9900);
  // server clock = page + 5000; a symmetric 10 ms trip gives exactly 5000
  c.addSample(1000, 1010, 6005);
  assert.equal(c.offset, 5000);
  // an asymmetric slow sample (40 ms, all on the way back) must not win
  c.addSample(2000, 2040, 7005);
  assert.equal(c.offset, 5000);
  assert.equal(c.rtt, 40);
  assert.equal(c.minRtt, 10);
  // a faster one wins
  c.addSample(3000, 3004, 8001);
  assert.equal(c.offset, 4999);
  assert.equal(c.serverNow(100), 5099);
});

test('old samples fall out of the window', () => {
  const c = new ClockSync(8);
  c.addSample(0, 1, 1000.5); // rtt 1, offset 1000
  for (let i = 1; i <= 8; i++) c.addSample(i * 100, i * 100 + 20, i * 100 + 10 + 2000); // rtt 20, offset 2000
  assert.equal(c.samples.length, 8);
  assert.equal(c.offset, 2000);
});

test('bad samples are ignored', () => {
  const c = new ClockSync();
  assert.equal(c.addSample(10, 5, 100), false);
  assert.equal(c.addSample(NaN, 5, 100), false);
  assert.equal(c.synced, false);
});

test('backoff grows from 250 ms to 5 s with jitter', () => {
  assert.equal(backoffDelay(0, () => 1), 250);
  assert.equal(backoffDelay(0, () => 0), 125);
  assert.equal(backoffDelay(1, () => 1), 500);
  assert.equal(backoffDelay(4, () => 1), 4000);
  assert.equal(backoffDelay(5, () => 1), 5000);
  assert.equal(backoffDelay(50, () => 1), 5000);
  assert.equal(backoffDelay(50, () => 0), 2500);
  for (let i = 0; i < 100; i++) {
    const d = backoffDelay(3);
    assert.ok(d >= 1000 && d <= 2000);
  }
});

test('socket URL follows the page', () => {
  assert.equal(socketUrl({ protocol: 'http:', host: '127.0.0.1:8080' }), 'ws://127.0.0.1:8080/');
  assert.equal(socketUrl({ protocol: 'https:', host: 'demo.example' }), 'wss://demo.example/');
});

test('the display offset slews towards a new estimate instead of jumping', () => {
  const c = new ClockSync();
  c.addSample(0, 10, 1005); // offset 1000
  assert.equal(c.displayOffset(100), 1000);
  c.addSample(200, 202, 1202); // offset 1001, a better sample
  assert.equal(c.offset, 1001);
  const a = c.displayOffset(110); // 10 ms later: at most 0.5 ms of change
  assert.ok(Math.abs(a - 1000.5) < 1e-9, String(a));
  assert.equal(c.displayOffset(200), 1001);
  c.addSample(300, 301, 1400.5); // offset 1100: a jump beyond 25 ms is taken at once
  assert.equal(c.displayOffset(201), 1100);
});

test('a server clock in wall-clock time (ms since 1970) keeps its microsecond through the offset', () => {
  // serverT is the wall clock's time (docs/PROTOCOL.md, "Clocks"), about 1.8·10¹² ms; the page's clock starts
  // near 0. A symmetric 10 ms trip: serverNow at any later page time is the server's time to within 1 µs.
  const c = new ClockSync();
  const server = 1_795_478_700_123.456;
  c.addSample(2500.25, 2510.25, server + 5);
  assert.ok(Math.abs(c.serverNow(2505.25) - (server + 5)) < 1e-3);
  assert.ok(Math.abs(c.serverNow(62_505.251) - (server + 60_005.001)) < 1e-3);
  // the display offset, slewed or snapped, is the same offset
  assert.ok(Math.abs(2505.25 + c.displayOffset(2505.25) - (server + 5)) < 1e-3);
});
