import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DECAY_K_NORMAL, springDisplacement, decayAt, evaluateSegment, segmentIndexAt, evaluateChain, displayedOffset,
} from '../js/motion.js';

function close(actual, expected, rel = 1e-6, label = '') {
  const tol = Math.max(Math.abs(expected) * rel, 1e-9);
  assert.ok(Math.abs(actual - expected) <= tol, `${label} expected ${expected}, got ${actual}`);
}
// docs/PHYSICS.md §9 prints its vectors rounded (3 or 4 decimals): the value must round to the printed one.
function close4(actual, expected, label = '') {
  const decimals = (String(expected).split('.')[1] || '').length;
  const scale = 10 ** decimals;
  assert.ok(Math.abs(actual - expected) <= 0.5 / scale + 1e-9, `${label} expected ${expected}, got ${actual}`);
}
const spring = (extra) => ({ kind: 'spring', t0: 1000, t1: 5000, v0: 0, target: 0, ...extra });
const ratio = (m, k, z) => z * 2 * Math.sqrt(m * k);

test('critical spring m1 k100 from −100 (docs/PHYSICS.md §9 row 27)', () => {
  const seg = spring({ x0: -100, mass: 1, stiffness: 100, damping: 20 });
  close4(evaluateSegment(seg, 1100).x, -73.5759, 'x(0.1)');
  close4(evaluateSegment(seg, 1300).x, -19.9148, 'x(0.3)');
  close4(evaluateSegment(seg, 1600).x, -1.7351, 'x(0.6)');
  // and the closed form x = (−100 − 1000 τ)·e^{−10 τ} to 1e-6 relative
  for (const tau of [0.1, 0.3, 0.6]) {
    close(evaluateSegment(seg, 1000 + tau * 1000).x, (-100 - 1000 * tau) * Math.exp(-10 * tau), 1e-6, `τ ${tau}`);
  }
});

test('critical spring 0 → 500 with positions and velocities (row 28)', () => {
  const seg = spring({ x0: 0, target: 500, mass: 1, stiffness: 100, damping: ratio(1, 100, 1) });
  close4(evaluateSegment(seg, 1250).x, 356.3513, 'x(0.25)');
  close4(evaluateSegment(seg, 1500).x, 479.7862, 'x(0.5)');
  close4(evaluateSegment(seg, 1250).v, 1026.0625, 'v(0.25)');
  close4(evaluateSegment(seg, 1500).v, 168.4487, 'v(0.5)');
});

test('overdamped m0.5 k100 ζ1.1 released from −100 (row 26)', () => {
  const seg = spring({ x0: -100, mass: 0.5, stiffness: 100, damping: ratio(0.5, 100, 1.1) });
  close4(evaluateSegment(seg, 1100).x, -60.875, 'x(0.1)');
  close4(evaluateSegment(seg, 1200).x, -26.829, 'x(0.2)');
  close4(evaluateSegment(seg, 1300).x, -11.076, 'x(0.3)');
  close4(evaluateSegment(seg, 1500).x, -1.818, 'x(0.5)');
});

test('overdamped ζ1.25 and underdamped ζ0.25 (row 29)', () => {
  const over = spring({ x0: 0, target: 500, mass: 1, stiffness: 100, damping: ratio(1, 100, 1.25) });
  close4(evaluateSegment(over, 1500).x, 445.2842, 'over x(0.5)');
  close4(evaluateSegment(over, 2000).x, 495.5080, 'over x(1)');
  close4(evaluateSegment(over, 1500).v, 273.4653, 'over v(0.5)');
  close4(evaluateSegment(over, 2000).v, 22.4598, 'over v(1)');
  const under = spring({ x0: 0, target: 300, mass: 1, stiffness: 100, damping: ratio(1, 100, 0.25) });
  close4(evaluateSegment(under, 2000).x, 325.4328, 'under x(1)');
  close4(evaluateSegment(under, 2000).v, -64.8133, 'under v(1)');
});

test('spring velocity is the derivative of its position (all three regimes)', () => {
  for (const z of [0.3, 1, 1.7]) {
    const c = ratio(0.7, 150, z);
    for (const tau of [0.05, 0.2, 0.45]) {
      const h = 1e-6;
      const a = springDisplacement(0.7, 150, c, -80, 900, tau - h).y;
      const b = springDisplacement(0.7, 150, c, -80, 900, tau + h).y;
      close(springDisplacement(0.7, 150, c, -80, 900, tau).v, (b - a) / (2 * h), 1e-5, `ζ${z} τ${tau}`);
    }
    // starts where it should
    close(springDisplacement(0.7, 150, c, -80, 900, 0).y, -80, 1e-12);
    close(springDisplacement(0.7, 150, c, -80, 900, 0).v, 900, 1e-12);
  }
});

test('decay v0=1000 from 0 with k = 1000·ln 0.998 (row 13, 14)', () => {
  const seg = { kind: 'decay', t0: 2000, t1: 9000, x0: 0, v0: 1000, k: DECAY_K_NORMAL };
  const r = evaluateSegment(seg, 2250);
  close(r.x, 196.6895, 1e-6, 'x(0.25)');
  close(r.v, 606.2271, 1e-6, 'v(0.25)');
  close4(decayAt(0, 2500, DECAY_K_NORMAL, 1).x, 1080.0878, 'x(1) v0 2500');
  close4(decayAt(0, 2500, DECAY_K_NORMAL, 1).v, 337.6613, 'v(1) v0 2500');
  close4(decayAt(0, 1000, DECAY_K_NORMAL, 1e4).x, 499.4998, 'x∞ v0 1000 (row 11)');
  // after t1 a decay keeps its value at t1
  const end = evaluateSegment(seg, 9000).x;
  assert.equal(evaluateSegment(seg, 20000).x, end);
  assert.equal(evaluateSegment(seg, 20000).done, true);
  assert.equal(evaluateSegment(seg, 20000).v, 0);
});

test('after t1 a spring is exactly its target; before t0 it is x0', () => {
  const seg = spring({ x0: -60, target: -60.5, mass: 0.5, stiffness: 100, damping: 15.556, v0: 300 });
  assert.equal(evaluateSegment(seg, 5000).x, -60.5);
  assert.equal(evaluateSegment(seg, 123456).x, -60.5);
  assert.equal(evaluateSegment(seg, 0).x, -60);
});

test('hold returns x0, with or without t1', () => {
  assert.equal(evaluateSegment({ kind: 'hold', t0: 10, x0: 42 }, 5).x, 42);
  assert.equal(evaluateSegment({ kind: 'hold', t0: 10, x0: 42 }, 1e9).x, 42);
  assert.equal(evaluateSegment({ kind: 'hold', t0: 10, t1: 20, x0: 42 }, 30).done, true);
});

test('chain selection by time', () => {
  const chain = [
    { kind: 'decay', t0: 1000, t1: 1200, x0: 500, v0: -3000, k: DECAY_K_NORMAL },
    { kind: 'spring', t0: 1200, t1: 2000, x0: 0, v0: -1000, target: 0, mass: 0.5, stiffness: 100, damping: ratio(0.5, 100, 1.1) },
    { kind: 'hold', t0: 2000, x0: 0 },
  ];
  assert.equal(segmentIndexAt(chain, 900), 0);
  assert.equal(segmentIndexAt(chain, 1000), 0);
  assert.equal(segmentIndexAt(chain, 1199.9), 0);
  assert.equal(segmentIndexAt(chain, 1200), 1);
  assert.equal(segmentIndexAt(chain, 1999), 1);
  assert.equal(segmentIndexAt(chain, 2000), 2);
  assert.equal(segmentIndexAt(chain, 99999), 2);
  assert.equal(segmentIndexAt([], 5), -1);
  close(evaluateChain(chain, 1100).x, decayAt(500, -3000, DECAY_K_NORMAL, 0.1).x, 1e-12);
  const mid = evaluateChain(chain, 1300);
  assert.equal(mid.index, 1);
  assert.ok(mid.x < 0, 'the spring overshoots past 0 while carrying the velocity');
  assert.equal(evaluateChain(chain, 5000).x, 0);
  assert.equal(evaluateChain(chain, 5000).done, false, 'an open hold never finishes');
  // a chain whose last segment ended is done
  assert.equal(evaluateChain(chain.slice(0, 2), 5000).done, true);
  assert.equal(evaluateChain(null, 5), null);
});

test('displayedOffset uses the chain only while animating, per axis', () => {
  const frame = {
    offset: { x: 3, y: -100 }, phase: 'animating',
    segment: { y: [spring({ x0: -100, mass: 1, stiffness: 100, damping: 20 })] },
  };
  const d = displayedOffset(frame, 1100);
  assert.equal(d.x, 3);
  close(d.y, -73.5759, 1e-6);
  assert.equal(d.animating, true);
  assert.deepEqual(displayedOffset({ ...frame, phase: 'dragging' }, 1100), { x: 3, y: -100, animating: false });
  assert.deepEqual(displayedOffset({ ...frame, segment: undefined }, 1100), { x: 3, y: -100, animating: false });
  assert.equal(displayedOffset(frame, 99999).animating, false);
  assert.deepEqual(displayedOffset(null, 0), { x: 0, y: 0, animating: false });
  const holding = { offset: { x: 0, y: 5 }, phase: 'animating', segment: { y: [{ kind: 'hold', t0: 0, x0: -60 }] } };
  assert.deepEqual(displayedOffset(holding, 10), { x: 0, y: -60, animating: false });
});

// web/test/fixtures/segments.json: timed segments inside frames as the engine's encoder writes them, with the
// engine's own position and velocity at fixed times (Tests/RefreshWireTests/TimedSegmentFixtureTests.swift).
test('timed segments: motion.js computes what the engine computes, to 1e-9', async () => {
  const { readFile } = await import('node:fs/promises');
  const fixture = JSON.parse(await readFile(new URL('./fixtures/segments.json', import.meta.url), 'utf8'));
  assert.ok(fixture.vectors.length >= 14);
  let samples = 0;
  for (const [i, vector] of fixture.vectors.entries()) {
    const frame = JSON.parse(vector.frame);
    const chain = frame.segment.y;
    assert.equal(chain[0].kind, 'timed');
    for (const [t, x, v] of vector.samples) {
      const r = evaluateChain(chain, t);
      assert.ok(Math.abs(r.x - x) <= 1e-9, `vector ${i} at ${t}: x ${r.x} vs ${x}`);
      assert.ok(Math.abs(r.v - v) <= 1e-9 * Math.max(1, Math.abs(v)), `vector ${i} at ${t}: v ${r.v} vs ${v}`);
      assert.equal(r.done, t >= chain[0].t1);
      samples += 1;
    }
  }
  assert.ok(samples >= 14 * 21);
});

test('a timed segment is exactly its target from t1 on, and its start at t0', () => {
  const seg = { kind: 'timed', t0: 1000, t1: 1250, x0: -60, target: 0, curve: [0, 0, 0.58, 1] };
  assert.deepEqual(evaluateSegment(seg, 1250), { x: 0, v: 0, done: true });
  assert.equal(evaluateSegment(seg, 900).x, -60);
  // Ease-out leaves at 1/0.58 of the average speed (60 px in 0.25 s).
  close(evaluateSegment(seg, 1000).v, 240 / 0.58, 1e-12);
  // Malformed: no t1 is a jump to the target; a bad curve is linear.
  assert.deepEqual(evaluateSegment({ ...seg, t1: undefined }, 1100), { x: 0, v: 0, done: true });
  close(evaluateSegment({ ...seg, curve: 'x' }, 1125).x, -30, 1e-12);
});

test('at wall-clock times (ms since 1970, the server clock) a segment evaluates as at small ones', () => {
  // serverT is the wall clock's time (docs/PROTOCOL.md, "Clocks"): about 1.8·10¹² ms, where a double still
  // resolves 0.25 µs. The same spring and decay, shifted there, land within 1/1000 px of the unshifted ones.
  const epoch = 1_795_478_700_123.456;
  const shift = (seg) => ({ ...seg, t0: seg.t0 + epoch, t1: seg.t1 + epoch });
  const segments = [
    spring({ x0: -100, mass: 1, stiffness: 100, damping: 20 }),
    { kind: 'decay', t0: 1000, t1: 3000, x0: 0, v0: 2000, k: DECAY_K_NORMAL },
  ];
  for (const seg of segments) {
    for (const t of [1000, 1016.667, 1100.001, 1600, 2999.999]) {
      const near = evaluateSegment(seg, t);
      const far = evaluateSegment(shift(seg), t + epoch);
      assert.ok(Math.abs(near.x - far.x) < 1e-3, `${seg.kind} at ${t}: ${near.x} vs ${far.x}`);
      assert.ok(Math.abs(near.v - far.v) < 1e-2, `${seg.kind} at ${t}: ${near.v} vs ${far.v}`);
    }
  }
});
