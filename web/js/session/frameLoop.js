// When a live session draws (docs/PAGE.md, "At rest"): on every animation frame while anything moves, animates or
// waits for a frame; at rest, a tick every REST_TICK_MS instead, for what changes with time alone (a status line,
// the rows' ages), until something that changes the drawing wakes it (`dirty`). The session says what a frame
// does (`draw`) and whether the next one is needed (`busy`); the loop owns the timers.
//
//   dirty = true ──▶ wake(): the next animation frame ──▶ draw(now) ──▶ busy(now)? the next frame : a rest tick
//                                                                       (REST_TICK_MS) ──▶ draw(now) ──▶ …

/**
 * A list at rest asks for no animation frames: it ticks this often (ms) for what changes with time alone, and
 * anything that changes what it draws wakes it for the next frame.
 */
export const REST_TICK_MS = 250;

export class FrameLoop {
  #dirty = false;
  #raf = 0;        // the animation frame asked for, if any
  #restTimer = 0;  // the rest tick's timeout, if any
  #awake = false;  // keepAwake(): every frame even at rest

  /**
   * @param {object} o
   * @param {(now: number) => void} o.draw     one frame at page time `now`
   * @param {(now: number) => boolean} o.busy  after a frame: whether the next animation frame is needed
   * @param {() => boolean} o.running          whether the loop may ask for frames (the session is live and draws
   *   on its own animation frames)
   */
  constructor({ draw, busy, running }) {
    this.busy = busy;
    this.running = running;
    this.frame = (ts) => {
      this.#raf = 0;
      const now = Number.isFinite(ts) ? ts : performance.now();
      draw(now);
      this.#schedule(now);
    };
    this.restTick = () => {
      this.#restTimer = 0;
      this.frame(performance.now());
    };
  }

  /** Something the list draws changed: it is drawn on the next animation frame, which wakes a list at rest. */
  get dirty() {
    return this.#dirty;
  }

  set dirty(on) {
    this.#dirty = on;
    if (on) this.wake();
  }

  /** Whether the loop rests: no animation frame asked for, the rest tick armed. */
  get resting() {
    return this.#raf === 0 && this.#restTimer !== 0;
  }

  /** Asks for the next animation frame, unless one is asked for already (or the loop is not running). */
  wake() {
    if (!this.running() || this.#raf) return;
    clearTimeout(this.#restTimer);
    this.#restTimer = 0;
    this.#raf = requestAnimationFrame(this.frame);
  }

  /** Whether the loop runs on every animation frame even at rest (the debug panel's live plot). */
  keepAwake(on) {
    this.#awake = on;
    if (on) this.wake();
  }

  /** Stops asking for frames and ticks. */
  stop() {
    cancelAnimationFrame(this.#raf);
    clearTimeout(this.#restTimer);
    this.#raf = 0;
    this.#restTimer = 0;
  }

  /** After a frame: the next animation frame while anything is busy; else a rest tick. */
  #schedule(now) {
    if (!this.running() || this.#raf || this.#restTimer) return;
    if (this.#awake || this.busy(now)) this.#raf = requestAnimationFrame(this.frame);
    else this.#restTimer = setTimeout(this.restTick, REST_TICK_MS);
  }
}
