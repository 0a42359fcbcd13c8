// The engine's scroll geometry, for the page's prediction (js/prediction.js): the rubber band and the scroll
// bounds, the same formulas as Sources/RefreshKit/Physics/RubberBand.swift and Scroll/ScrollBounds.swift
// (docs/PHYSICS.md §1.1), so that a predicted drag lands where the server's will. Pure: unit tested with node.

/** UIKit's rubber-band coefficient (docs/PHYSICS.md §1.1); the session's own is `config.physics.rubberBand`. */
export const DEFAULT_RUBBER_BAND = 0.55;

const validC = (c) => (Number.isFinite(c) && c > 0 ? c : null);
const validD = (d) => Number.isFinite(d) && d > 0;
const finite = (v) => (Number.isNaN(v) ? 0 : Math.min(Math.max(v, -Number.MAX_VALUE), Number.MAX_VALUE));
/** The largest double below d (Swift's `d.nextDown` for a positive normal d). */
function below(d) {
  const buf = new Float64Array([d]);
  new BigInt64Array(buf.buffer)[0] -= 1n;
  return buf[0];
}

/** The displayed overscroll for a raw pull `x` past the edge: b(x) = (1 − 1/(x·c/d + 1))·d, odd in x. */
export function rubberBand(x, c, d) {
  if (!validC(c) || !validD(d) || Number.isNaN(x)) return 0;
  const b = Math.min((1 - 1 / ((Math.abs(x) * c) / d + 1)) * d, below(d));
  return x < 0 ? -b : b;
}

/** Its inverse: the raw pull that displays `b`, x(b) = b·d / (c·(d − b)). */
export function rubberBandInverse(b, c, d) {
  if (!validC(c) || !validD(d) || Number.isNaN(b)) return 0;
  const m = Math.min(Math.abs(b), below(d));
  const x = Math.min((m * d) / (c * (d - m)), Number.MAX_VALUE);
  return b < 0 ? -x : x;
}

function ordered(lower, upper) {
  const low = finite(Number.isNaN(lower) ? -Infinity : lower);
  const high = finite(Number.isNaN(upper) ? Infinity : upper);
  return [low, Math.max(low, high)];
}

/** `value` inside [lower, upper], rubber-banded outside it (RubberBand.clamp). */
export function rubberBandClamp(value, lower, upper, c, d) {
  const [low, high] = ordered(lower, upper);
  const raw = finite(value);
  if (raw < low) return finite(low - rubberBand(low - raw, c, d));
  if (raw > high) return finite(high + rubberBand(raw - high, c, d));
  return raw;
}

/** The raw offset that `rubberBandClamp` maps to `shown` (RubberBand.unclamp). */
export function rubberBandUnclamp(shown, lower, upper, c, d) {
  const [low, high] = ordered(lower, upper);
  const v = finite(shown);
  if (v < low) return finite(low - rubberBandInverse(low - v, c, d));
  if (v > high) return finite(high + rubberBandInverse(v - high, c, d));
  return v;
}

const num = (v, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/**
 * The resting range of the offset along `axis` ('x' or 'y') for a frame (ScrollBounds.swift: lower =
 * −leading inset, upper = content + trailing inset − viewport, never below lower; the frame's `insets`
 * are the combined layers, InsetLayers.combined), with the viewport dimension the rubber band uses.
 */
export function scrollBounds(frame, axis) {
  const vertical = axis === 'y';
  const insets = frame?.insets || {};
  const leading = num(vertical ? insets.top : insets.left);
  const trailing = num(vertical ? insets.bottom : insets.right);
  const content = num(vertical ? frame?.contentSize?.h : frame?.contentSize?.w);
  const dimension = num(vertical ? frame?.viewport?.h : frame?.viewport?.w);
  const lower = 0 - leading; // never −0
  return { lower, upper: Math.max(lower, content + trailing - dimension), dimension };
}

/** The axis' displayed offset for a raw one, against `frame`'s bounds. */
export function displayedFor(raw, frame, axis, c) {
  const b = scrollBounds(frame, axis);
  return rubberBandClamp(raw, b.lower, b.upper, c, b.dimension);
}

/** The axis' raw offset for a displayed one, against `frame`'s bounds. */
export function rawFor(shown, frame, axis, c) {
  const b = scrollBounds(frame, axis);
  return rubberBandUnclamp(shown, b.lower, b.upper, c, b.dimension);
}

/** Pixels per line for DOM_DELTA_LINE (ScrollModel.wheelLineHeight, Facebook normalize-wheel's LINE_HEIGHT). */
export const WHEEL_LINE_HEIGHT = 40;

/** A wheel message's deltas in px, offset direction (ScrollModel.pixels): lines × 40, pages × the viewport. */
export function wheelPixels(msg, viewport) {
  const dx = num(msg.dx), dy = num(msg.dy);
  switch (msg.mode | 0) {
    case 1: return { x: dx * WHEEL_LINE_HEIGHT, y: dy * WHEEL_LINE_HEIGHT };
    case 2: return { x: dx * num(viewport?.w), y: dy * num(viewport?.h) };
    default: return { x: dx, y: dy };
  }
}

/** WheelGesture's momentum rule (xiel/wheel-gestures constants, docs/PHYSICS.md §6.2): 6 magnitudes, each 0.60–0.96× the one before. */
export const MOMENTUM_FACTORS = [0.6, 0.96];
export const MOMENTUM_RUN = 5;

export function looksLikeMomentum(magnitudes) {
  if (magnitudes.length !== MOMENTUM_RUN + 1) return false;
  for (let i = 1; i < magnitudes.length; i++) {
    if (!(magnitudes[i - 1] > 0)) return false;
    const f = magnitudes[i] / magnitudes[i - 1];
    if (f < MOMENTUM_FACTORS[0] || f > MOMENTUM_FACTORS[1]) return false;
  }
  return true;
}
