// Client-side prediction with server reconciliation (README, "Prediction"; docs/PHYSICS.md §7.3: the drag mapping
// is path independent, so the page can apply it itself and agree with the server exactly), as games do it (G. Gambetta,
// "Fast-Paced Multiplayer", parts II–III; Valve, "Source Multiplayer Networking": the client applies its own
// input at once, remembers what the server has not acknowledged, and on every server state re-applies it).
//
// The server stays authoritative. The page only predicts where its OWN drag puts the content:
// - every touch and wheel message gets `seq` (1, 2, 3… per page load, continued across reconnects);
// - every frame says, in `ack`, the last seq of each member it includes (docs/PROTOCOL.md);
// - the target offset is the server's (its motion segment evaluated, when animating) with the inputs the
//   frame does not include re-applied on top, with the engine's own formulas: a drag is
//   rubberBandClamp(unclamp(server offset) − pending translation) (DragGesture.swift: the offset is a
//   function of the total translation, never a sum of rubber-banded steps), a wheel adds its pixels to the
//   raw offset (WheelGesture.swift), hard-clamped once the OS's momentum is detected;
// - after a release that the server has not acknowledged, the content keeps going with the page's own
//   release velocity and the engine's decay (Decay.swift, docs/PHYSICS.md §2.1) until the server's motion
//   segment arrives, so a stall at the release does not freeze the list.
// Edge states, triggers and all motion after a release are the server's (js/edgeFollow.js keeps the states).
//
// Support: an old server sends no `ack`. Inputs are kept as pending only until that is known; the first
// frame (or welcome) carrying `ack` turns prediction on; if none has come SUPPORT_TIMEOUT_MS after the oldest
// pending input was sent, the page stops keeping them and draws the server's frames as it always did.
// Pure: no DOM, unit tested with node (web/test/prediction.test.js).
import { displayedOffset, decayAt, DECAY_K_NORMAL } from './motion.js';
import { DEFAULT_RUBBER_BAND, displayedFor, rawFor, scrollBounds, wheelPixels, looksLikeMomentum, MOMENTUM_RUN } from './rubberBand.js';

/** No frame with `ack` this long after an input was sent: the server does not acknowledge inputs. */
export const SUPPORT_TIMEOUT_MS = 1000;
/** At most this many inputs are kept unacknowledged (a server that stopped answering). */
export const MAX_PENDING = 512;
/** The release velocity is measured over the finger's last samples within this window (ms). */
export const VELOCITY_WINDOW_MS = 60;
/** A release continues with the decay for at most this long without the server's answer (ms). */
export const MAX_CONTINUATION_MS = 1500;
/** WheelGesture.idleGap: a wheel event after this much quiet starts a new gesture (ms). */
export const WHEEL_IDLE_MS = 120;
/** Waiting this long (ms) for a frame while an input is pending counts as a stall. */
export const STALL_MS = 100;

const num = (v, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** A fixed-size list of the newest values (for the measurement hooks). */
class Recent {
  constructor(size) {
    this.size = size;
    this.items = [];
  }

  push(v) {
    this.items.push(v);
    if (this.items.length > this.size * 2) this.items.splice(0, this.items.length - this.size);
  }

  list() {
    return this.items.slice(-this.size);
  }
}

/**
 * The content's velocity (px/s, offset direction) at a lift at `tLift`: a least-squares line through the
 * finger's samples `{t, x, y}` (cumulative translation, page ms) within VELOCITY_WINDOW_MS, reversed
 * because the content follows the finger. 0 when the finger rested before lifting. Pure.
 */
export function releaseVelocity(samples, tLift) {
  const recent = samples.filter((s) => s.t >= tLift - VELOCITY_WINDOW_MS && s.t <= tLift);
  if (recent.length < 2) return { x: 0, y: 0 };
  const n = recent.length;
  const mt = recent.reduce((a, s) => a + s.t, 0) / n;
  let stt = 0;
  for (const s of recent) stt += (s.t - mt) ** 2;
  if (!(stt > 0)) return { x: 0, y: 0 };
  const slope = (key) => {
    const m = recent.reduce((a, s) => a + s[key], 0) / n;
    let st = 0;
    for (const s of recent) st += (s.t - mt) * (s[key] - m);
    return (st / stt) * 1000; // px/ms → px/s
  };
  return { x: -slope('x'), y: -slope('y') };
}

export class Predictor {
  /**
   * @param {{enabled?: boolean, configOf?: () => object|null}} o  enabled: whether the display uses the prediction
   *   (?predict=0 and the panel switch); configOf: the session's config (welcome.config, config messages), read
   *   from the page's store (js/store.js) for the rubber band and the deceleration
   */
  constructor({ enabled = true, configOf = () => null } = {}) {
    this.enabled = enabled;
    this.configOf = configOf;
    this.support = 'unknown'; // 'unknown' | 'yes' | 'no': does the server acknowledge inputs?
    this.ackSeen = false;     // a frame or welcome with `ack` came since the last welcome
    this.member = null;
    this.nextSeq = 1;
    this.lastAck = 0;
    this.pending = [];        // {seq, kind: start|move|end|wheel, dx, dy (offset px), t, sentAt, gesture, v?, momentum?}
    this.gesture = null;      // the touch gesture being recorded
    this.wheel = { lastT: -Infinity, magnitudes: [] };
    this.predictions = new Map(); // seq → the offset predicted after it, when it was sent
    this.errors = new Recent(1000); // |predicted − server| px at each acknowledgement
    this.ackLatency = new Recent(64); // page ms from sending an input to the frame that acknowledges it
    this.stalls = 0;
    this.lastFrameAt = null;
  }

  /** Whether the display follows the prediction right now. */
  get active() {
    return this.enabled && this.support === 'yes';
  }

  get rubberBand() {
    const c = this.configOf()?.physics?.rubberBand;
    return typeof c === 'number' && c > 0 ? c : DEFAULT_RUBBER_BAND;
  }

  get decayK() {
    const r = this.configOf()?.physics?.decelerationRate;
    return typeof r === 'number' && r > 0 && r < 1 ? 1000 * Math.log(Math.min(Math.max(r, 0.5), 0.9999)) : DECAY_K_NORMAL;
  }

  /** Whether inputs are kept until acknowledged (not once the server is known not to acknowledge them). */
  get recording() {
    return this.support !== 'no';
  }

  // ---------------------------------------------------------------- the server's side

  /**
   * A welcome: the connection is new, so every input sent on the old one is settled or lost, except those in
   * `resent` (seqs), which the page sends again now (js/inputs.js) and so stay pending.
   */
  onWelcome(msg, resent = new Set()) {
    this.member = Number.isInteger(msg.member) ? msg.member : null;
    this.pending = this.pending.filter((p) => resent.has(p.seq));
    for (const k of this.predictions.keys()) if (!resent.has(k)) this.predictions.delete(k);
    this.ackSeen = false;
    this.lastFrameAt = null;
    if (this.support === 'no') this.support = 'unknown'; // perhaps another server now
    if (Number.isInteger(msg.ack) && msg.ack >= 0) {
      this.support = 'yes';
      this.ackSeen = true;
      this.lastAck = msg.ack;
      this.nextSeq = Math.max(this.nextSeq, msg.ack + 1);
    }
  }

  /**
   * A whole frame (deltas applied) arrived at page time `pageNow`: settles what its `ack` includes.
   * Returns the reconciliation error for the newest input it acknowledged (px), or null.
   */
  onFrame(frame, pageNow) {
    // a stall: the page waited that long for a frame while an input was pending (not an idle gap before it)
    if (this.lastFrameAt !== null && this.pending.length
      && pageNow - Math.max(this.lastFrameAt, this.pending[0].sentAt) > STALL_MS) this.stalls += 1;
    this.lastFrameAt = pageNow;
    let error = null;
    const ack = frame?.ack;
    if (ack && typeof ack === 'object' && !Array.isArray(ack)) {
      this.support = 'yes';
      this.ackSeen = true;
      const mine = this.member === null ? undefined : ack[String(this.member)];
      if (Number.isInteger(mine) && mine > this.lastAck) error = this.settle(mine, frame, pageNow);
    } else {
      this.checkSupport(pageNow);
    }
    return error;
  }

  /** No `ack` since the welcome, and the oldest input was sent long ago: the server does not acknowledge. */
  checkSupport(pageNow) {
    if (this.ackSeen || !this.pending.length || pageNow - this.pending[0].sentAt <= SUPPORT_TIMEOUT_MS) return;
    this.support = 'no';
    this.pending = [];
    this.predictions.clear();
  }

  settle(seq, frame, pageNow) {
    this.lastAck = seq;
    let error = null;
    const predicted = this.predictions.get(seq);
    const acked = this.pending.find((p) => p.seq === seq);
    if (predicted && acked && frame?.offset && !acked.gesture?.foreign) {
      error = Math.max(Math.abs(predicted.x - num(frame.offset.x)), Math.abs(predicted.y - num(frame.offset.y)));
      this.errors.push(error);
    }
    if (acked) this.ackLatency.push(pageNow - acked.sentAt);
    this.pending = this.pending.filter((p) => p.seq > seq);
    for (const k of this.predictions.keys()) if (k <= seq) this.predictions.delete(k);
    return error;
  }

  /** An `error` answering a refused input carries its seq: it will never be applied. */
  onError(msg) {
    if (!Number.isInteger(msg.seq)) return false;
    const before = this.pending.length;
    this.pending = this.pending.filter((p) => p.seq !== msg.seq);
    this.predictions.delete(msg.seq);
    return this.pending.length !== before;
  }

  // ---------------------------------------------------------------- the page's side

  /**
   * Numbers a touch or wheel message (sets `msg.seq`) and remembers it until a frame acknowledges it.
   * `frame` is the latest server frame, `serverNow` the server time the page draws at.
   */
  stamp(msg, frame, serverNow, pageNow) {
    msg.seq = this.nextSeq++;
    this.checkSupport(pageNow);
    if (!this.recording) return msg;
    const entry = this.entryFor(msg, frame, pageNow);
    if (!entry) return msg;
    this.pending.push(entry);
    if (this.pending.length > MAX_PENDING) {
      const dropped = this.pending.splice(0, this.pending.length - MAX_PENDING);
      for (const p of dropped) this.predictions.delete(p.seq);
    }
    if (entry.kind === 'move' || entry.kind === 'wheel') {
      const p = this.predict(frame, serverNow, pageNow);
      this.predictions.set(msg.seq, { x: p.x, y: p.y });
    }
    return msg;
  }

  entryFor(msg, frame, pageNow) {
    const t = Number.isFinite(msg.t) ? msg.t : pageNow;
    const base = { seq: msg.seq, t, sentAt: pageNow };
    if (msg.type === 'wheel') {
      const px = wheelPixels(msg, frame?.viewport);
      const w = this.wheel;
      if (t - w.lastT > WHEEL_IDLE_MS) w.magnitudes = [];
      w.lastT = t;
      w.magnitudes.push(Math.max(Math.abs(px.x), Math.abs(px.y)));
      if (w.magnitudes.length > MOMENTUM_RUN + 1) w.magnitudes.shift();
      return { ...base, kind: 'wheel', dx: px.x, dy: px.y, momentum: looksLikeMomentum(w.magnitudes) };
    }
    if (msg.type !== 'touch') return null;
    const dx = num(msg.dx), dy = num(msg.dy);
    if (msg.phase === 'start' || !this.gesture || this.gesture.ended) {
      // Another member's finger holds the list (the server says dragging and none of it is ours): the server
      // ignores this whole gesture, so it is not predicted.
      const foreign = msg.phase === 'start' && frame?.phase === 'dragging' && this.pending.length === 0;
      this.gesture = { foreign, ended: false, x: 0, y: 0, samples: [{ t, x: 0, y: 0 }] };
    }
    const g = this.gesture;
    g.x += dx;
    g.y += dy;
    if (dx || dy) g.samples.push({ t, x: g.x, y: g.y });
    while (g.samples.length > 2 && g.samples[0].t < t - 4 * VELOCITY_WINDOW_MS) g.samples.shift();
    // offset direction: the content follows the finger, so the offset moves against it
    const entry = { ...base, kind: msg.phase === 'start' ? 'start' : 'move', dx: -dx, dy: -dy, gesture: g };
    if (msg.phase === 'end' || msg.phase === 'cancel') {
      g.ended = true;
      entry.kind = 'end';
      entry.v = msg.phase === 'end' ? releaseVelocity(g.samples, t) : { x: 0, y: 0 };
    }
    return entry;
  }

  // ---------------------------------------------------------------- the offset

  /**
   * The offset the page's inputs put the content at: the server's frame (evaluated at `serverNow` when it
   * animates) with every pending input re-applied. `predicted` says whether any input changed it, `moving`
   * whether it changes with time (an animation or a release's continuation).
   */
  predict(frame, serverNow, pageNow) {
    const server = displayedOffset(frame, serverNow);
    const out = { x: server.x, y: server.y, moving: server.animating, predicted: false };
    if (!frame || !frame.offset || this.pending.length === 0) return out;
    const c = this.rubberBand;
    let x = out.x, y = out.y;
    let rawX = rawFor(x, frame, 'x', c), rawY = rawFor(y, frame, 'y', c);
    let dragging = frame.phase === 'dragging';
    let release = null;
    for (const p of this.pending) {
      if (p.gesture?.foreign) continue;
      if (p.kind === 'wheel') {
        if (dragging) continue; // ScrollModel.wheel: ignored while a finger drags
        if (p.momentum) {
          // the OS is coasting: stop at the edge, and nothing more once overscrolled (ScrollModel.wheel)
          const bx = scrollBounds(frame, 'x'), by = scrollBounds(frame, 'y');
          if (x < bx.lower || x > bx.upper || y < by.lower || y > by.upper) continue;
          rawX = Math.min(Math.max(x + p.dx, bx.lower), bx.upper);
          rawY = Math.min(Math.max(y + p.dy, by.lower), by.upper);
        } else {
          rawX += p.dx;
          rawY += p.dy;
        }
      } else {
        if (p.kind === 'start' || !dragging) {
          // a drag begins where the content is shown, catching a moving list (ScrollModel.beginDrag)
          rawX = rawFor(x, frame, 'x', c);
          rawY = rawFor(y, frame, 'y', c);
          dragging = true;
        }
        rawX += p.dx;
        rawY += p.dy;
      }
      x = displayedFor(rawX, frame, 'x', c);
      y = displayedFor(rawY, frame, 'y', c);
      out.predicted = true;
      release = null;
      if (p.kind === 'end') {
        dragging = false;
        release = p;
      }
    }
    out.moving = out.moving && !out.predicted;
    if (release) {
      // the server has not answered the release yet: keep going with the page's velocity and the decay
      // from when the page handled the release (the event's own timeStamp may lag behind the clock: it says
      // when the finger moved, and velocity is measured on it, but the list was drawn at the release then)
      const tau = Math.min(Math.max(0, pageNow - release.sentAt), MAX_CONTINUATION_MS) / 1000;
      const k = this.decayK;
      x = displayedFor(decayAt(rawFor(x, frame, 'x', c), release.v.x, k, tau).x, frame, 'x', c);
      y = displayedFor(decayAt(rawFor(y, frame, 'y', c), release.v.y, k, tau).x, frame, 'y', c);
      out.moving = tau * 1000 < MAX_CONTINUATION_MS && (release.v.x !== 0 || release.v.y !== 0);
    }
    out.x = x;
    out.y = y;
    return out;
  }

  /** The offset to draw before blending: the prediction when active, else the server's frame. */
  target(frame, serverNow, pageNow) {
    if (this.active) return this.predict(frame, serverNow, pageNow);
    const s = displayedOffset(frame, serverNow);
    return { x: s.x, y: s.y, moving: s.animating, predicted: false };
  }

  /** For the panel and the tests. */
  summary() {
    return { enabled: this.enabled, supported: this.support, pending: this.pending.length, lastAck: this.lastAck, nextSeq: this.nextSeq };
  }
}

/**
 * Blends the drawn offset to the target after a disagreement: the difference a change of base made
 * (a frame, a refused input, a new connection) is kept as a correction that decays with time constant
 * `tauMs`, by at least `minStepPx` and at most `maxStepPx` per 60 Hz frame: a disagreement of up to ~20 px
 * is gone within ~100 ms, a larger one slides at `maxStepPx` per frame (360 px/s), so the content never
 * jumps more than a few px beyond the finger's own motion. Pure.
 */
export class Blend {
  constructor({ tauMs = 25, minStepPx = 1, maxStepPx = 6 } = {}) {
    this.tauMs = tauMs;
    this.minStepPx = minStepPx;
    this.maxStepPx = maxStepPx;
    this.x = 0;
    this.y = 0;
  }

  /** The target jumped from `before` to `after` without anything moving on screen: keep showing `before`. */
  absorb(before, after) {
    this.x += before.x - after.x;
    this.y += before.y - after.y;
  }

  get idle() {
    return this.x === 0 && this.y === 0;
  }

  /** Advances by `dtMs` of page time; returns the correction to add to the target. */
  step(dtMs) {
    const dt = Math.min(Math.max(0, dtMs), 100);
    const keep = Math.exp(-dt / this.tauMs);
    const frames = dt / (1000 / 60);
    for (const axis of ['x', 'y']) {
      const v = this[axis];
      if (v === 0 || dt === 0) continue;
      const step = Math.min(Math.max(Math.abs(v) * (1 - keep), this.minStepPx * frames), this.maxStepPx * frames);
      this[axis] = Math.abs(v) <= step ? 0 : v - Math.sign(v) * step;
    }
    return { x: this.x, y: this.y };
  }

  reset() {
    this.x = 0;
    this.y = 0;
  }
}

/**
 * What the page draws: the predictor's target plus the blend's correction. `rebase` wraps every change of
 * what the prediction stands on (a frame, a welcome, a refused input, the switch), so that it never makes
 * the content jump: when the page was or is predicting, the difference goes into the blend. Pure.
 */
export class DrawnOffset {
  constructor(predictor, blend = new Blend()) {
    this.predictor = predictor;
    this.blend = blend;
    this.lastAt = null;
  }

  /** Runs `change()` (which may change the frame from `before` to `after` and the predictor's state). */
  rebase(before, after, serverNow, pageNow, change) {
    const from = this.predictor.target(before, serverNow, pageNow);
    const result = change();
    const to = this.predictor.target(after(), serverNow, pageNow);
    if (from.predicted || to.predicted) this.blend.absorb(from, to);
    return result;
  }

  /** The offset to draw at page time `pageNow` (one call per display frame). */
  at(frame, serverNow, pageNow) {
    const target = this.predictor.target(frame, serverNow, pageNow);
    const correction = this.blend.step(this.lastAt === null ? 0 : pageNow - this.lastAt);
    this.lastAt = pageNow;
    const blending = correction.x !== 0 || correction.y !== 0;
    return {
      x: target.x + correction.x, y: target.y + correction.y,
      moving: target.moving || blending, predicted: target.predicted, blending,
    };
  }
}
