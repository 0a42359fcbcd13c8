import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  rubberBand, rubberBandInverse, rubberBandClamp, rubberBandUnclamp, scrollBounds, wheelPixels, looksLikeMomentum,
} from '../js/rubberBand.js';
import { Predictor, Blend, DrawnOffset, releaseVelocity, SUPPORT_TIMEOUT_MS } from '../js/prediction.js';
import { frameAt, edgeGeometry, layerOf, progressOf } from '../js/edgeFollow.js';
import { decayAt, DECAY_K_NORMAL } from '../js/motion.js';

const close = (a, b, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);
const C = 0.55;

// ---------------------------------------------------------------- the rubber band: the engine's vectors

test('the rubber band gives the engine test vectors (Tests/RefreshKitTests/Physics/RubberBandTests.swift, docs/PHYSICS.md §9)', () => {
  // row 1: squareb's published values, d = 960
  for (const [x, b] of [[5, 2.7421448974293128], [10, 5.468669083376341], [100, 52.01970443349758],
    [400, 178.9830508474577], [960, 340.6451612903226]]) close(rubberBand(x, C, 960), b);
  close(rubberBand(200, C, 844), 97.31656184486374); // row 2
  close(rubberBandInverse(100, C, 844), 206.2561094819159); // row 3
  close(rubberBandClamp(-150, 0, 1000, C, 800), -74.78753541076478); // row 4
  close(rubberBandClamp(1150, 0, 1000, C, 800), 1074.7875354107648);
  close(rubberBandInverse(100, 0.52, 844), 218.15550041356494); // row 35, Flutter's coefficient
  close(rubberBandInverse(54, C, 844), 104.89298043728422); // row 36
  // computed here from b(x) = (1 − 1/(x·c/d + 1))·d, checked against the same formula in Swift's tests
  close(rubberBand(150, C, 700), (1 - 1 / ((150 * C) / 700 + 1)) * 700);
});

test('the rubber band: odd, strictly inside the viewport, inverse and unclamp undo it, degenerate inputs give 0', () => {
  assert.equal(rubberBand(-37, C, 500), -rubberBand(37, C, 500));
  assert.ok(rubberBand(1e300, C, 500) < 500);
  assert.ok(Number.isFinite(rubberBandInverse(500, C, 500)));
  for (const x of [0.5, 10, 300, 4000]) close(rubberBandInverse(rubberBand(x, C, 700), C, 700), x, 1e-9);
  for (const v of [-400, -20, 0, 300, 760, 1400]) close(rubberBandUnclamp(rubberBandClamp(v, 0, 740, C, 700), 0, 740, C, 700), v, 1e-9);
  assert.equal(rubberBand(10, 0, 500), 0);
  assert.equal(rubberBand(10, C, 0), 0);
  assert.equal(rubberBand(NaN, C, 500), 0);
  assert.equal(rubberBandClamp(50, 10, 0, C, 500), 10 + rubberBand(40, C, 500), 'upper < lower means upper = lower');
});

test('scroll bounds from a frame: −leading inset … content + trailing − viewport, never below lower', () => {
  const f = { contentSize: { w: 390, h: 1440 }, viewport: { w: 390, h: 700 }, insets: { top: 60, left: 0, bottom: 10, right: 0 } };
  assert.deepEqual(scrollBounds(f, 'y'), { lower: -60, upper: 750, dimension: 700 });
  assert.deepEqual(scrollBounds({ ...f, insets: { left: 5, right: 0 } }, 'x'), { lower: -5, upper: 0, dimension: 390 });
  assert.deepEqual(scrollBounds({ ...f, contentSize: { w: 390, h: 100 } }, 'y'), { lower: -60, upper: -60, dimension: 700 });
});

test('wheel pixels and the momentum rule are the engine\'s', () => {
  assert.deepEqual(wheelPixels({ dx: 0, dy: 3, mode: 1 }, { w: 390, h: 700 }), { x: 0, y: 120 });
  assert.deepEqual(wheelPixels({ dx: 1, dy: -1, mode: 2 }, { w: 390, h: 700 }), { x: 390, y: -700 });
  assert.deepEqual(wheelPixels({ dx: 2, dy: 5, mode: 0 }, null), { x: 2, y: 5 });
  assert.ok(looksLikeMomentum([100, 90, 80, 70, 60, 50]));
  assert.ok(!looksLikeMomentum([100, 90, 80, 70, 60]), 'needs six');
  assert.ok(!looksLikeMomentum([100, 100, 100, 100, 100, 100]), 'a steady push is not momentum');
});

// ---------------------------------------------------------------- prediction

const CONFIG = {
  physics: { rubberBand: C, decelerationRate: 0.998 },
  edges: {
    top: { role: 'refresh', triggerDistance: 100, restingInset: 60, promptingInset: 0, presentation: 'background', anchor: 'middle', viewBehaviour: 'fixedBottom', height: 60 },
    bottom: { role: 'loadMore', triggerDistance: 60, restingInset: 60, promptingInset: 0, presentation: 'slideDown', anchor: 'middle', viewBehaviour: 'fixedBottom', height: 60 },
  },
};

function serverFrame(y, extra = {}) {
  return {
    type: 'frame', seq: 1, t: 1000, offset: { x: 0, y }, velocity: { x: 0, y: 0 }, phase: 'idle',
    contentSize: { w: 390, h: 1440 }, viewport: { w: 390, h: 700 }, insets: { top: 0, left: 0, bottom: 0, right: 0 },
    edges: [{ edge: 'top', state: 'idle', distance: -y, progress: 0, velocity: 0 }], ...extra,
  };
}

function predictor(ack = 0) {
  const p = new Predictor({ configOf: () => CONFIG });
  p.onWelcome({ type: 'welcome', member: 0, ack });
  return p;
}

const touch = (phase, dy, t) => ({ type: 'touch', phase, dx: 0, dy, t, id: 1 });
const drag = (y) => rubberBandClamp(y, 0, 740, C, 700);

test('inputs are numbered per page load, continued after a welcome\'s ack', () => {
  const p = predictor(0);
  const f = serverFrame(0);
  assert.equal(p.stamp(touch('start', 0, 0), f, 0, 0).seq, 1);
  assert.equal(p.stamp({ type: 'wheel', dx: 0, dy: 3, mode: 0, t: 1 }, f, 0, 1).seq, 2);
  p.onWelcome({ type: 'welcome', member: 0, ack: 41 });
  assert.equal(p.pending.length, 0, 'a new connection: the old one\'s inputs are settled or lost');
  assert.equal(p.stamp(touch('start', 0, 2), f, 0, 2).seq, 42);
  p.onWelcome({ type: 'welcome', member: 0, ack: 7 });
  assert.equal(p.stamp(touch('start', 0, 3), f, 0, 3).seq, 43, 'never backwards');
});

test('a drag is predicted at once with the rubber band, and re-applied on the server\'s frame after each ack', () => {
  const p = predictor();
  let f = serverFrame(0);
  p.stamp(touch('start', 0, 0), f, 0, 0);
  p.stamp(touch('move', 100, 16), f, 0, 16);
  p.stamp(touch('move', 50, 32), f, 0, 32);
  p.stamp(touch('move', 50, 48), f, 0, 48);
  let t = p.target(f, 0, 50);
  assert.ok(t.predicted);
  close(t.y, drag(-200));
  close(t.y, -rubberBand(200, C, 700));
  // the server took the start and the first move (its offset is written with 3 decimals)
  f = serverFrame(Math.round(drag(-100) * 1000) / 1000, { phase: 'dragging', ack: { 0: 2 } });
  p.onFrame(f, 60);
  assert.equal(p.lastAck, 2);
  assert.equal(p.pending.length, 2);
  t = p.target(f, 0, 60);
  close(t.y, drag(-200), 1e-5, 'the same finger position gives the same offset (path independent)');
  assert.ok(p.errors.list()[0] < 0.001, 'the reconciliation error of a plain drag is the wire\'s rounding');
  // everything acknowledged: the server's frame itself
  f = serverFrame(Math.round(drag(-200) * 1000) / 1000, { phase: 'dragging', ack: { 0: 4 } });
  p.onFrame(f, 70);
  t = p.target(f, 0, 70);
  assert.equal(t.predicted, false);
  assert.equal(t.y, f.offset.y);
});

test('stalls: a frame that comes over 100 ms after both the previous one and a pending input', () => {
  const p = predictor();
  const f = serverFrame(0, { ack: { 0: 0 } });
  p.onFrame(f, 0);
  p.stamp(touch('start', 0, 5000), f, 0, 5000); // long after the last frame: an idle page, not a stall
  p.onFrame(f, 5050);
  assert.equal(p.stalls, 0);
  p.onFrame(f, 5200);
  assert.equal(p.stalls, 1, '150 ms without a frame while the start waited');
  p.onFrame({ ...f, ack: { 0: 1 } }, 5400);
  p.onFrame(f, 5600);
  assert.equal(p.stalls, 2, 'the gap before the ack counts; after it nothing is pending');
});

test('another member\'s ack is not ours; a refused input (error with seq) leaves the pending list', () => {
  const p = predictor();
  const f = serverFrame(0, { phase: 'idle' });
  p.stamp(touch('start', 0, 0), f, 0, 0);
  p.stamp(touch('move', 30, 8), f, 0, 8);
  p.onFrame({ ...f, ack: { 1: 99 } }, 10);
  assert.equal(p.pending.length, 2);
  assert.ok(p.onError({ type: 'error', code: 'bad_field', seq: 2 }));
  assert.equal(p.pending.length, 1);
  assert.equal(p.target(f, 0, 10).y, 0, 'the refused move is not drawn');
  assert.equal(p.onError({ type: 'error', code: 'bad_field' }), false);
});

test('without acks (an old server) the page draws the server\'s frames and keeps no pending list', () => {
  const p = new Predictor({ configOf: () => CONFIG });
  p.onWelcome({ type: 'welcome', member: 0 });
  const f = serverFrame(0);
  p.stamp(touch('start', 0, 0), f, 0, 0);
  p.stamp(touch('move', 40, 10), f, 0, 10);
  assert.equal(p.active, false, 'unknown until a frame says ack');
  assert.equal(p.target(f, 0, 10).y, 0);
  p.onFrame(serverFrame(-20, { phase: 'dragging' }), 100);
  assert.equal(p.pending.length, 2, 'a frame may be older than the input');
  p.onFrame(serverFrame(-20, { phase: 'dragging' }), 10 + SUPPORT_TIMEOUT_MS + 1);
  assert.equal(p.support, 'no');
  assert.equal(p.pending.length, 0);
  p.stamp(touch('move', 40, 2000), f, 0, 2000);
  assert.equal(p.pending.length, 0, 'nothing is kept any more');
  assert.equal(p.stamp(touch('move', 1, 2001), f, 0, 2001).seq, 4, 'still numbered: the server ignores what it does not know');
});

test('prediction switched off (?predict=0): the server\'s frame, while inputs are still tracked', () => {
  const p = predictor();
  p.enabled = false;
  const f = serverFrame(0);
  p.stamp(touch('start', 0, 0), f, 0, 0);
  p.stamp(touch('move', 40, 10), f, 0, 10);
  assert.equal(p.target(f, 0, 10).y, 0);
  assert.equal(p.pending.length, 2);
  assert.ok(p.predict(f, 0, 10).y < 0);
});

test('a touch that starts while another member drags is not predicted (the server ignores it)', () => {
  const p = predictor();
  const f = serverFrame(-30, { phase: 'dragging', ack: { 0: 0, 1: 12 } });
  p.onFrame(f, 0);
  p.stamp(touch('start', 0, 0), f, 0, 0);
  p.stamp(touch('move', 80, 10), f, 0, 10);
  const t = p.target(f, 0, 10);
  assert.equal(t.predicted, false);
  assert.equal(t.y, -30);
});

test('a drag catches a moving list where it is shown, and a wheel adds its pixels to the raw offset', () => {
  const p = predictor();
  const seg = { kind: 'decay', t0: 1000, t1: 3000, x0: 100, v0: 1000, k: DECAY_K_NORMAL };
  const f = serverFrame(100, { phase: 'animating', segment: { y: [seg] } });
  const at = decayAt(100, 1000, DECAY_K_NORMAL, 0.2).x;
  p.stamp(touch('start', 0, 0), f, 1200, 0);
  p.stamp(touch('move', -10, 8), f, 1200, 8);
  let t = p.target(f, 1200, 8);
  close(t.y, at + 10);
  assert.equal(t.moving, false, 'held by the finger');
  close(p.target(f, 1500, 8).y, decayAt(100, 1000, DECAY_K_NORMAL, 0.5).x + 10, 1e-9, 'caught where the list is at the draw');
  const q = predictor();
  const g = serverFrame(0);
  q.stamp({ type: 'wheel', dx: 0, dy: -50, mode: 0, t: 0 }, g, 0, 0);
  q.stamp({ type: 'wheel', dx: 0, dy: 2, mode: 1, t: 16 }, g, 0, 16);
  t = q.target(g, 0, 16);
  close(t.y, rubberBandClamp(30, 0, 740, C, 700));
});

test('a wheel in its momentum phase stops at the edge, and an overscrolled one is swallowed', () => {
  const p = predictor();
  const f = serverFrame(20);
  let y = 20;
  for (const [i, d] of [-10, -9, -8, -7, -6, -5].entries()) {
    p.stamp({ type: 'wheel', dx: 0, dy: d, mode: 0, t: i * 16 }, f, 0, i * 16);
    y += d;
  }
  // the first five push (rubber band past 0), the sixth is momentum: the content is overscrolled, so swallowed
  const t = p.target(f, 0, 100);
  close(t.y, rubberBandClamp(20 - 10 - 9 - 8 - 7 - 6, 0, 740, C, 700));
  const q = predictor();
  const g = serverFrame(300);
  for (const [i, d] of [-10, -9, -8, -7, -6, -5].entries()) q.stamp({ type: 'wheel', dx: 0, dy: d, mode: 0, t: i * 16 }, g, 0, i * 16);
  close(q.target(g, 0, 100).y, 300 - 45, 1e-9, 'inside the bounds momentum moves as the raw offset');
});

test('after a release the list keeps going with the page\'s velocity and the decay until the server answers', () => {
  const p = predictor();
  const f = serverFrame(300, { phase: 'idle' });
  p.stamp(touch('start', 0, 0), f, 0, 0);
  for (let i = 1; i <= 6; i++) p.stamp(touch('move', -16, i * 16), f, 0, i * 16); // finger up 1 px/ms
  p.stamp(touch('end', 0, 90), f, 0, 100); // the event says 90 ms, the page handles it at 100
  const v = releaseVelocity([...Array(7).keys()].map((i) => ({ t: i * 16, x: 0, y: -16 * i })), 96);
  close(v.y, 1000, 1e-9, 'content velocity: the finger\'s, reversed');
  const atRelease = 300 + 96;
  assert.equal(p.pending.at(-1).sentAt, 100);
  let t = p.target(f, 0, 100);
  close(t.y, atRelease);
  assert.ok(t.moving);
  t = p.target(f, 0, 250);
  close(t.y, decayAt(atRelease, 1000, DECAY_K_NORMAL, 0.15).x, 1e-9);
  assert.ok(t.y > atRelease + 100, 'a stall at the release does not freeze the list');
  // the server's answer: a decay segment from its own release; the target is the segment from then on
  const seg = { kind: 'decay', t0: 1100, t1: 4000, x0: atRelease, v0: 980, k: DECAY_K_NORMAL };
  const g = serverFrame(atRelease, { phase: 'animating', segment: { y: [seg] }, ack: { 0: 8 } });
  p.onFrame(g, 260);
  t = p.target(g, 1250, 260);
  assert.equal(t.predicted, false);
  close(t.y, decayAt(atRelease, 980, DECAY_K_NORMAL, 0.15).x);
  assert.ok(t.moving);
  // a finger that rested before lifting releases with no velocity
  assert.deepEqual(releaseVelocity([{ t: 0, x: 0, y: 0 }, { t: 10, x: 0, y: 50 }], 200), { x: 0, y: 0 });
});

// ---------------------------------------------------------------- blending

test('the blend fades a disagreement within about 100 ms, a few px per frame at most', () => {
  const b = new Blend();
  b.absorb({ x: 0, y: -20 }, { x: 0, y: 0 });
  let prev = b.y;
  let elapsed = 0;
  while (!b.idle && elapsed < 1000) {
    const c = b.step(1000 / 60);
    elapsed += 1000 / 60;
    assert.ok(Math.abs(c.y - prev) <= 6 + 1e-9, `a step of ${Math.abs(c.y - prev)} px`);
    prev = c.y;
  }
  assert.ok(elapsed <= 120, `20 px took ${elapsed} ms`);
  const big = new Blend();
  big.absorb({ x: 0, y: 200 }, { x: 0, y: 0 });
  big.step(1000 / 60);
  assert.ok(Math.abs(big.y - 194) < 1e-9, 'a big one slides at the step limit');
  big.step(0);
  assert.ok(Math.abs(big.y - 194) < 1e-9, 'no time, no change');
});

test('an input the server ignored blends back to the server\'s position, without a jump', () => {
  const p = predictor();
  const b = new Blend();
  const f = serverFrame(0);
  p.stamp(touch('start', 0, 0), f, 0, 0);
  p.stamp(touch('move', 60, 10), f, 0, 10);
  const before = p.target(f, 0, 20);
  assert.ok(before.y < -20);
  // the server acknowledges both and did not move (say another device's finger took the list first)
  const g = serverFrame(0, { phase: 'dragging', ack: { 0: 2 } });
  p.onFrame(g, 20);
  const after = p.target(g, 0, 20);
  assert.equal(after.y, 0);
  b.absorb(before, after);
  let shown = after.y + b.y;
  assert.equal(shown, before.y, 'nothing moves when the frame comes');
  for (let i = 0; i < 30; i++) {
    const next = after.y + b.step(1000 / 60).y;
    assert.ok(Math.abs(next - shown) <= 6 + 1e-9);
    shown = next;
  }
  assert.equal(shown, 0);
});

// ---------------------------------------------------------------- indicators follow the prediction

test('edges follow the predicted offset like the server\'s (distance, progress, rectangles), states stay', () => {
  // the server's frames for a 100 px finger pull at rest (ios preset, 390×700; captured from the server)
  const f = serverFrame(0);
  f.edges = [{ edge: 'top', state: 'idle', distance: 0, progress: 0, velocity: 0, control: { x: 0, y: 0, w: 390, h: 60 }, view: { x: 0, y: -60, w: 390, h: 60 }, scale: 1 },
    { edge: 'bottom', state: 'idle', distance: -740, progress: 0, velocity: 0, control: { x: 0, y: 700, w: 390, h: 60 }, view: { x: 0, y: 700, w: 390, h: 60 }, scale: 1 }];
  const shown = frameAt(f, { x: 0, y: -50.993 }, CONFIG);
  const [top, bottom] = shown.edges;
  assert.equal(top.state, 'idle', 'the state is the server\'s');
  close(top.distance, 50.993);
  close(top.progress, 0.50993);
  assert.deepEqual(top.control, { x: 0, y: 0, w: 390, h: 60 });
  close(top.view.y, -9.007, 1e-9);
  close(bottom.distance, -790.993);
  assert.equal(frameAt(f, { x: 0, y: 0 }, CONFIG), f, 'the frame itself when nothing moved');
  assert.equal(frameAt(f, { x: 0, y: -10 }, null).edges[0].distance, 10, 'no config: the distance only');
});

test('edge geometry and layers are EdgeGeometry\'s and EdgeControl\'s', () => {
  const conf = { height: 60, presentation: 'slideDown', anchor: 'middle', viewBehaviour: 'stretches' };
  const g = edgeGeometry('top', conf, 30, { w: 390, h: 700 }, 0);
  assert.deepEqual(g.control, { x: 0, y: -30, w: 390, h: 60 });
  assert.equal(g.scale, 0.5, 'the pull over the height');
  const s = edgeGeometry('bottom', conf, 90, { w: 390, h: 700 }, 10);
  assert.deepEqual(s.control, { x: 0, y: 600, w: 390, h: 90 }, 'stretched over the whole gap');
  assert.equal(s.scale, 1.5, 'unclamped past the height (GVRefreshControl)');
  const fixedTop = edgeGeometry('top', { ...conf, viewBehaviour: 'fixedTop' }, 90, { w: 390, h: 700 }, 20);
  assert.deepEqual([fixedTop.scale, fixedTop.view.y], [1, 20], 'fully revealed: pinned to the base line');
  const anchored = (anchor) => edgeGeometry('top', { ...conf, height: 70, anchor, viewBehaviour: 'anchored' }, 100, { w: 390, h: 700 }, 0);
  assert.deepEqual(['top', 'middle', 'bottom'].map((a) => [anchored(a).view.y, anchored(a).scale]), [[0, 1], [15, 1], [30, 1]],
    'JHPullToRefreshKit\'s anchors: placed in the gap, never scaled');
  const topStretches = edgeGeometry('top', { ...conf, anchor: 'top' }, 90, { w: 390, h: 700 }, 0);
  assert.deepEqual([topStretches.view.y, topStretches.scale], [15, 1.5], 'stretches ignores the anchor: centred');
  assert.equal(layerOf({ role: 'refresh', restingInset: 60 }, 'refreshing'), 60);
  assert.equal(layerOf({ role: 'refresh', restingInset: 60 }, 'finishing'), 0);
  assert.equal(layerOf({ role: 'loadMore', restingInset: 60, promptingInset: 44 }, 'idle'), 44);
  assert.equal(layerOf({ role: 'loadMore', restingInset: 60, promptingInset: 44 }, 'noMoreData'), 60);
  assert.equal(progressOf(150, { triggerDistance: 100 }), 1);
  assert.equal(progressOf(40, { triggerDistance: 100 }), 0.4);
  assert.equal(progressOf(5, { triggerDistance: 0 }), 1);
  assert.equal(progressOf(-5, { triggerDistance: 0 }), 0);
  // a load-more footer counts past its prompting inset, preload early (EdgeControl.thresholdPull)
  assert.equal(progressOf(90, { role: 'loadMore', trigger: 'onRelease', triggerDistance: 60, promptingInset: 60, preload: 0 }), 0.5);
  assert.equal(progressOf(20, { role: 'refresh', trigger: 'onRelease', triggerDistance: 80, preload: 20 }), 0.5);
  // an onReachEdge footer counts the last triggerDistance before its start, preload before the edge
  assert.equal(progressOf(-90, { role: 'loadMore', trigger: 'onReachEdge', triggerDistance: 60, preload: 0 }), 0);
  assert.equal(progressOf(-30, { role: 'loadMore', trigger: 'onReachEdge', triggerDistance: 60, preload: 0 }), 0.5);
  assert.equal(progressOf(-30, { role: 'loadMore', trigger: 'onReachEdge', triggerDistance: 60, preload: 30 }), 1);
});

// ---------------------------------------------------------------- a whole fling through a stall, simulated

test('a fling through a 250 ms stall: the list keeps moving, then blends into the server\'s late motion without a jump', () => {
  const p = predictor();
  const shown = new DrawnOffset(p);
  const ONE_WAY = 40, STALL_FROM = 190, STALL_TO = 440, FRAME = 1000 / 60;
  let frame = { ...serverFrame(0), ack: { 0: 0 } };
  const inbox = []; // {at, frame}: what the server sends, when it arrives
  const deliver = (at) => (at >= STALL_FROM && at < STALL_TO ? STALL_TO : at);
  const inputs = [touch('start', 0, 0)];
  for (let i = 1; i <= 12; i++) inputs.push(touch('move', -20, i * 16));
  inputs.push(touch('end', 0, 200));
  let serverOffset = 0;
  const draws = [];
  let next = 0;
  for (let t = 0; t <= 1500; t += FRAME) {
    // the page's inputs of this frame: sent now, applied by the server one way later (after the stall)
    while (next < inputs.length && inputs[next].t <= t) {
      const msg = { ...inputs[next] };
      p.stamp(msg, frame, t, t);
      const applied = deliver(t + ONE_WAY);
      if (msg.phase === 'move') serverOffset += 20;
      const f = msg.phase === 'end'
        ? { ...serverFrame(serverOffset), phase: 'animating', t: applied, ack: { 0: msg.seq },
          segment: { y: [{ kind: 'decay', t0: applied, t1: applied + 4000, x0: serverOffset, v0: 1250, k: DECAY_K_NORMAL }] } }
        : { ...serverFrame(serverOffset), phase: 'dragging', t: applied, ack: { 0: msg.seq } };
      inbox.push({ at: deliver(applied + ONE_WAY), frame: f });
      next += 1;
    }
    while (inbox.length && inbox[0].at <= t) {
      const { frame: f } = inbox.shift();
      const before = frame;
      shown.rebase(before, () => f, t, t, () => {
        frame = f;
        p.onFrame(f, t);
      });
    }
    draws.push({ t, y: shown.at(frame, t, t).y });
  }
  const steps = draws.slice(1).map((d, i) => d.y - draws[i].y);
  // the finger moves 20 px per 16 ms and the fling starts at 1250 px/s (≈ 21 px per frame)
  assert.ok(Math.max(...steps) <= 21 + 6 + 1e-6, `a step of ${Math.max(...steps)} px`);
  assert.ok(Math.min(...steps) >= -6 - 1e-6, `a step back of ${Math.min(...steps)} px`);
  const stalled = draws.filter((d) => d.t > 200 && d.t < STALL_TO);
  assert.ok(new Set(stalled.map((d) => d.y.toFixed(1))).size >= 10, 'the list moves during the stall');
  // and it ends where the server's motion ends
  const rest = decayAt(240, 1250, DECAY_K_NORMAL, Infinity).x;
  const last = draws.at(-1);
  assert.ok(Math.abs(last.y - decayAt(240, 1250, DECAY_K_NORMAL, (last.t - STALL_TO) / 1000).x) < 0.5, `${last.t}: ${last.y}`);
  assert.ok(rest > 240);
  assert.equal(p.pending.length, 0);
});
