// Closed-form motion segments (docs/PROTOCOL.md, "frame"): the page evaluates the server's segment
// chain at serverNow on every animation frame, so network jitter cannot judder the display.
// Pure module: no DOM, unit tested with node (web/test/motion.test.js).

/** UIScrollView's normal deceleration constant, 1/s: 1000·ln(0.998). */
export const DECAY_K_NORMAL = 1000 * Math.log(0.998);

/**
 * Closed-form damped spring. `y0`/`v0` are the displacement from the target and its velocity (px, px/s),
 * `tau` seconds since the start. Returns {y, v}.
 */
export function springDisplacement(mass, stiffness, damping, y0, v0, tau) {
  const m = mass, k = stiffness, c = damping;
  const disc = c * c - 4 * m * k;
  // Treat a discriminant within rounding of zero as critical (ζ = 1 computed as c = 2√(mk) in floating point).
  if (Math.abs(disc) <= 1e-9 * Math.max(c * c, 4 * m * k)) {
    const r = -c / (2 * m);
    const c1 = y0;
    const c2 = v0 - r * y0;
    const e = Math.exp(r * tau);
    return { y: (c1 + c2 * tau) * e, v: (c2 + r * (c1 + c2 * tau)) * e };
  }
  if (disc > 0) {
    const s = Math.sqrt(disc);
    const r1 = (-c - s) / (2 * m);
    const r2 = (-c + s) / (2 * m);
    const c2 = (v0 - r1 * y0) / (r2 - r1);
    const c1 = y0 - c2;
    const e1 = Math.exp(r1 * tau);
    const e2 = Math.exp(r2 * tau);
    return { y: c1 * e1 + c2 * e2, v: c1 * r1 * e1 + c2 * r2 * e2 };
  }
  const w = Math.sqrt(-disc) / (2 * m);
  const r = -c / (2 * m);
  const c1 = y0;
  const c2 = (v0 - r * y0) / w;
  const e = Math.exp(r * tau);
  const co = Math.cos(w * tau);
  const si = Math.sin(w * tau);
  return {
    y: e * (c1 * co + c2 * si),
    v: e * ((c1 * r + c2 * w) * co + (c2 * r - c1 * w) * si),
  };
}

/** Decay from x0 with v0 (px/s) and k (1/s, negative) after tau seconds. Returns {x, v}. */
export function decayAt(x0, v0, k, tau) {
  if (!k) return { x: x0 + v0 * tau, v: v0 };
  const e = Math.exp(k * tau);
  return { x: x0 + (v0 * (e - 1)) / k, v: v0 * e };
}

// Timing curves (docs/PHYSICS.md §11, docs/PROTOCOL.md "timed"): a cubic Bézier from (0,0) to (1,1) with the
// control points (x1,y1), (x2,y2), solved by the same fixed procedure, operation for operation, as the
// engine's TimingCurve.swift, so both compute the same numbers.

/** One coordinate of the unit Bézier with control values p1, p2 at parameter s: ((a·s + b)·s + c)·s. */
export function bezierCoordinate(s, p1, p2) {
  const c = 3 * p1;
  const b = 3 * (p2 - p1) - c;
  const a = 1 - c - b;
  return ((a * s + b) * s + c) * s;
}

/** d/ds of bezierCoordinate: (3a·s + 2b)·s + c. */
export function bezierDerivative(s, p1, p2) {
  const c = 3 * p1;
  const b = 3 * (p2 - p1) - c;
  const a = 1 - c - b;
  return (3 * a * s + 2 * b) * s + c;
}

/**
 * The parameter s in [0,1] with X(s) = x, 0 < x < 1: up to 8 Newton steps from s = x, stopping once
 * |X(s) − x| < 1e-12; when a step has |X'(s)| < 1e-9 or leaves [0,1], or 8 steps do not get there, up to 64
 * bisection steps on [0,1] from s = x with the same stopping rule.
 */
export function solveBezierX(x, x1, x2) {
  let s = x;
  for (let i = 0; i < 8; i++) {
    const error = bezierCoordinate(s, x1, x2) - x;
    if (Math.abs(error) < 1e-12) return s;
    const d = bezierDerivative(s, x1, x2);
    if (Math.abs(d) < 1e-9) break;
    const next = s - error / d;
    if (next < 0 || next > 1) break;
    s = next;
  }
  let low = 0;
  let high = 1;
  s = x;
  for (let i = 0; i < 64; i++) {
    const error = bezierCoordinate(s, x1, x2) - x;
    if (Math.abs(error) < 1e-12) return s;
    if (error > 0) high = s;
    else low = s;
    s = (low + high) / 2;
  }
  return s;
}

function unit(v) {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(Math.max(v, 0), 1) : 0;
}

/** A curve from the wire's [x1, y1, x2, y2]; x1 and x2 clamped into [0,1]; linear when absent or malformed. */
export function timingCurve(points) {
  if (!Array.isArray(points) || points.length !== 4) return { x1: 0, y1: 0, x2: 1, y2: 1 };
  return { x1: unit(points[0]), y1: num(points[1], 0), x2: unit(points[2]), y2: num(points[3], 1) };
}

/** The fraction of the way travelled after `fraction` of the duration: 0 at 0, 1 at 1. */
export function curveProgress(curve, fraction) {
  if (!(fraction > 0)) return 0;
  if (!(fraction < 1)) return 1;
  return bezierCoordinate(solveBezierX(fraction, curve.x1, curve.x2), curve.y1, curve.y2);
}

/** dy/dx at `fraction`: the speed relative to distance ÷ duration (an end's limit where X' vanishes). */
export function curveSlope(curve, fraction) {
  const s = fraction <= 0 ? 0 : fraction >= 1 ? 1 : solveBezierX(fraction, curve.x1, curve.x2);
  const dx = bezierDerivative(s, curve.x1, curve.x2);
  const dy = bezierDerivative(s, curve.y1, curve.y2);
  if (dx > 1e-9) return dy / dx;
  if (s < 0.5) {
    if (curve.x1 > 0) return curve.y1 / curve.x1;
    if (curve.x2 > 0) return curve.y2 / curve.x2;
  } else {
    if (curve.x2 < 1) return (1 - curve.y2) / (1 - curve.x2);
    if (curve.x1 < 1) return (1 - curve.y1) / (1 - curve.x1);
  }
  return dy === 0 ? 0 : 1;
}

function num(v, fallback = 0) {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/**
 * Evaluates one segment at server time `t` (ms). Before t0 the segment is evaluated at t0; after t1 a
 * spring or a timed segment is exactly its target, a decay its value at t1, a hold its x0. Returns {x, v, done}.
 */
export function evaluateSegment(seg, t) {
  const t0 = num(seg.t0);
  const hasEnd = typeof seg.t1 === 'number' && Number.isFinite(seg.t1);
  const x0 = num(seg.x0);
  const done = hasEnd && t >= seg.t1;
  const tc = Math.max(t0, hasEnd ? Math.min(t, seg.t1) : t);
  const tau = (tc - t0) / 1000;
  switch (seg.kind) {
    case 'decay': {
      const r = decayAt(x0, num(seg.v0), num(seg.k, DECAY_K_NORMAL), tau);
      return { x: r.x, v: done ? 0 : r.v, done };
    }
    case 'spring': {
      const target = num(seg.target, x0);
      if (done) return { x: target, v: 0, done };
      const mass = num(seg.mass, 1);
      const stiffness = num(seg.stiffness, 100);
      const damping = num(seg.damping, 2 * Math.sqrt(mass * stiffness));
      if (!(mass > 0) || !(stiffness > 0) || !(damping >= 0)) return { x: target, v: 0, done: true };
      const r = springDisplacement(mass, stiffness, damping, x0 - target, num(seg.v0), tau);
      return { x: target + r.y, v: r.v, done };
    }
    case 'timed': {
      // x0 → target in exactly t1 − t0, paced by the curve; exactly the target from t1 on.
      const target = num(seg.target, x0);
      if (!hasEnd || done || !(seg.t1 > t0)) return { x: target, v: 0, done: true };
      const duration = (seg.t1 - t0) / 1000;
      const fraction = tau / duration;
      const curve = timingCurve(seg.curve);
      return {
        x: x0 + (target - x0) * curveProgress(curve, fraction),
        v: ((target - x0) * curveSlope(curve, fraction)) / duration,
        done,
      };
    }
    case 'hold':
    default:
      return { x: x0, v: 0, done };
  }
}

/**
 * The segment of a chain that is valid at server time `t`: the last one whose t0 ≤ t (the first one
 * when t is before the whole chain). Returns the index, or -1 for an empty chain.
 */
export function segmentIndexAt(chain, t) {
  if (!Array.isArray(chain) || chain.length === 0) return -1;
  let i = 0;
  for (let j = 1; j < chain.length; j++) {
    if (num(chain[j].t0, Infinity) <= t) i = j;
    else break;
  }
  return i;
}

/** Evaluates a chain at server time `t` (ms). Returns {x, v, done, index} or null for an empty chain. */
export function evaluateChain(chain, t) {
  const i = segmentIndexAt(chain, t);
  if (i < 0) return null;
  const r = evaluateSegment(chain[i], t);
  return { x: r.x, v: r.v, done: r.done && i === chain.length - 1, index: i };
}

/**
 * The offset to display for a frame at server time `serverNow`: per axis, the frame's segment chain
 * evaluated at serverNow when the frame is `animating` and that axis has a chain; otherwise the frame's
 * offset. Returns {x, y, animating}.
 */
export function displayedOffset(frame, serverNow) {
  if (!frame || !frame.offset) return { x: 0, y: 0, animating: false };
  const out = { x: num(frame.offset.x), y: num(frame.offset.y), animating: false };
  if (frame.phase !== 'animating' || !frame.segment) return out;
  for (const axis of ['x', 'y']) {
    const chain = frame.segment[axis];
    if (!Array.isArray(chain) || chain.length === 0) continue;
    const r = evaluateChain(chain, serverNow);
    if (!r || !Number.isFinite(r.x)) continue;
    out[axis] = r.x;
    // a hold does not move: nothing to redraw for it, even when it is open-ended
    if (!r.done && chain[r.index].kind !== 'hold') out.animating = true;
  }
  return out;
}
