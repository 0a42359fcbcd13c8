// Input: Pointer Events (touch, mouse, pen) and wheel on the canvas, turned into touch/wheel messages.
// The browser is kept out: touch-action: none on the canvas (css), non-passive listeners, pointer capture,
// no pinch (gesturestart), no context menu, no selection, no ctrl+wheel zoom.

const TAP_SLOP_PX = 10;
const TAP_MAX_MS = 600;

/** Samples of a pointermove: the coalesced ones when the browser has them, else the event itself. */
export function pointerSamples(e) {
  let list = null;
  if (typeof e.getCoalescedEvents === 'function') {
    try {
      list = e.getCoalescedEvents();
    } catch {
      list = null;
    }
  }
  if (!list || list.length === 0) return [e];
  return list;
}

/**
 * Turns pointer positions into per-sample deltas with monotonic page timestamps.
 * Pure state machine (unit tested): feed it samples, get messages.
 */
export class TouchTracker {
  constructor() {
    this.active = null; // {id, x, y, t, startX, startY, startT, moved}
  }

  get busy() {
    return this.active !== null;
  }

  start(id, x, y, t) {
    if (this.active) return null;
    this.active = { id, x, y, t, startX: x, startY: y, startT: t, moved: 0 };
    return { type: 'touch', phase: 'start', dx: 0, dy: 0, t, id };
  }

  /** Returns the move messages for these samples (zero-length moves are dropped). */
  move(id, samples, fallbackT) {
    const a = this.active;
    if (!a || a.id !== id) return [];
    const out = [];
    for (const s of samples) {
      let t = Number.isFinite(s.t) && s.t > 0 ? s.t : fallbackT;
      if (t < a.t) t = a.t;
      const dx = s.x - a.x;
      const dy = s.y - a.y;
      if (dx === 0 && dy === 0) continue;
      a.x = s.x;
      a.y = s.y;
      a.t = t;
      a.moved = Math.max(a.moved, Math.hypot(s.x - a.startX, s.y - a.startY));
      out.push({ type: 'touch', phase: 'move', dx, dy, t, id });
    }
    return out;
  }

  /** Ends (phase 'end') or cancels the active pointer. Returns {message, tap}. */
  finish(id, x, y, t, phase = 'end') {
    const a = this.active;
    if (!a || a.id !== id) return null;
    this.active = null;
    const hasPos = Number.isFinite(x) && Number.isFinite(y);
    const dx = hasPos ? x - a.x : 0;
    const dy = hasPos ? y - a.y : 0;
    const tt = Number.isFinite(t) && t >= a.t ? t : a.t;
    const moved = hasPos ? Math.max(a.moved, Math.hypot(x - a.startX, y - a.startY)) : a.moved;
    const tap = phase === 'end' && moved <= TAP_SLOP_PX && tt - a.startT <= TAP_MAX_MS
      ? { x: hasPos ? x : a.x, y: hasPos ? y : a.y } : null;
    return { message: { type: 'touch', phase, dx, dy, t: tt, id }, tap };
  }
}

/** Wheel message from a DOM WheelEvent: deltaMode is read BEFORE the deltas (Firefox). */
export function wheelMessage(e) {
  const mode = e.deltaMode;
  const dx = e.deltaX;
  const dy = e.deltaY;
  return { type: 'wheel', dx: Number.isFinite(dx) ? dx : 0, dy: Number.isFinite(dy) ? dy : 0, mode: mode | 0, t: e.timeStamp };
}

/**
 * Wires the canvas. `send(msg)` gets touch and wheel messages; `onTap({x, y})` gets canvas-relative taps;
 * `onInput()` is called on every input (to wake the renderer). Aborting `signal` removes every listener.
 */
export function attachInput(canvas, { send, onTap, onInput, onPointerCancel, signal } = {}) {
  const tracker = new TouchTracker();
  const local = (e) => {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const opts = { passive: false, signal };
  const plain = { signal };

  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    if (tracker.busy) return; // one pointer at a time
    e.preventDefault();
    try {
      canvas.setPointerCapture(e.pointerId);
    } catch {
      // the pointer may already be gone
    }
    const msg = tracker.start(e.pointerId, e.clientX, e.clientY, e.timeStamp);
    if (msg) send(msg);
    onInput?.();
  }, opts);

  canvas.addEventListener('pointermove', (e) => {
    if (!tracker.busy || tracker.active.id !== e.pointerId) return;
    e.preventDefault();
    const samples = pointerSamples(e).map((s) => ({ x: s.clientX, y: s.clientY, t: s.timeStamp }));
    for (const msg of tracker.move(e.pointerId, samples, e.timeStamp)) send(msg);
    onInput?.();
  }, opts);

  const finish = (phase) => (e) => {
    if (!tracker.busy || tracker.active.id !== e.pointerId) return;
    if (phase === 'cancel') onPointerCancel?.(e);
    const r = tracker.finish(e.pointerId, e.clientX, e.clientY, e.timeStamp, phase);
    if (!r) return;
    send(r.message);
    try {
      if (canvas.hasPointerCapture(e.pointerId)) canvas.releasePointerCapture(e.pointerId);
    } catch {
      // already released
    }
    if (r.tap && onTap) onTap(local({ clientX: r.tap.x, clientY: r.tap.y }));
    onInput?.();
  };
  canvas.addEventListener('pointerup', finish('end'), opts);
  canvas.addEventListener('pointercancel', finish('cancel'), opts);
  canvas.addEventListener('lostpointercapture', (e) => {
    // capture lost without pointerup/pointercancel (e.g. the element was hidden): treat as cancel
    if (tracker.busy && tracker.active.id === e.pointerId) {
      const r = tracker.finish(e.pointerId, NaN, NaN, e.timeStamp, 'cancel');
      if (r) send(r.message);
    }
  }, plain);

  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (e.ctrlKey) return; // pinch-zoom gesture on a trackpad / ctrl+wheel zoom: blocked, not scrolled
    send(wheelMessage(e));
    onInput?.();
  }, opts);

  // Older iOS Safari: touchmove must be cancelled on the element itself.
  canvas.addEventListener('touchmove', (e) => e.preventDefault(), opts);
  canvas.addEventListener('contextmenu', (e) => e.preventDefault(), plain);
  canvas.addEventListener('selectstart', (e) => e.preventDefault(), plain);
  canvas.addEventListener('dragstart', (e) => e.preventDefault(), plain);

  // Page-wide: no ctrl+wheel zoom, no Safari pinch (gesture* events).
  window.addEventListener('wheel', (e) => {
    if (e.ctrlKey) e.preventDefault();
  }, opts);
  for (const type of ['gesturestart', 'gesturechange', 'gestureend']) {
    document.addEventListener(type, (e) => e.preventDefault(), opts);
  }
  return tracker;
}
