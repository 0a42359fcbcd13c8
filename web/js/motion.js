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

function num(v, fallback = 0) {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/**
 * Evaluates one segment at server time `t` (ms). Before t0 the segment is evaluated at t0; after t1 a
 * spring is exactly its target, a decay its value at t1, a hold its x0. Returns {x, v, done}.
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
