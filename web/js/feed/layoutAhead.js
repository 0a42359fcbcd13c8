// Which rows a frame lays out (js/feed/rowLayout.js), and when: the rows drawn first, then the rows a screen's
// worth around them (their heights go to the engine before they scroll in), nearest first and on the side the list
// is moving towards first, within a time budget per frame. A row not laid out when the budget is spent is drawn
// as a placeholder at its height (the engine's, else the estimate) and laid out in the next frame; what the budget
// left of the rows around is laid out in idle time (`requestIdleCallback`, else a timer), so a frame after a
// stall, or one that a fling moved by many rows, does not lay out every row it reached at once
// (docs/PERFORMANCE.md, "Page JS on rows of measured heights, and at rest").
//
// The clock and the idle scheduling are the caller's (`now`, `idle`): web/test/layoutAhead.test.js drives them.

/** The time a frame spends laying rows out (ms), the first row drawn aside: the page's JS per frame is ≤ 4 ms. */
export const FRAME_BUDGET_MS = 1.5;
/** The time an idle callback spends at most when the browser gives no deadline (a timer stands in for it). */
export const IDLE_FALLBACK_MS = 4;
/** How long idle work may wait for an idle period before it runs anyway (ms). */
export const IDLE_TIMEOUT_MS = 250;

/** `requestIdleCallback` where the browser has it, else a timer with a deadline of IDLE_FALLBACK_MS. */
export function scheduleIdle(run) {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return;
  }
  setTimeout(() => {
    const end = performance.now() + IDLE_FALLBACK_MS;
    run({ timeRemaining: () => Math.max(0, end - performance.now()), didTimeout: false });
  }, 16);
}

export class LayoutAhead {
  /**
   * @param {object} [o]
   * @param {() => number} [o.now]   the clock the budget is kept by (ms)
   * @param {number} [o.budgetMs=FRAME_BUDGET_MS]
   * @param {(run: (deadline: {timeRemaining(): number}) => void) => void} [o.idle=scheduleIdle]
   */
  constructor({ now = () => performance.now(), budgetMs = FRAME_BUDGET_MS, idle = scheduleIdle } = {}) {
    this.now = now;
    this.budgetMs = budgetMs;
    this.idle = idle;
    this.direction = 1;     // the side the list moved towards last: 1 down (later rows), -1 up
    this.lastFirst = -1;
    this.idleQueued = false;
    // what the last frame asked for, for its idle work (kept in place: a frame allocates nothing)
    this.job = { layout: null, first: 0, last: -1, margin: 0, font: null, measureTitle: null, measureText: null };
    this.deferred = 0;      // rows of the last frame left to idle time or the next frame
    this.laidInFrames = 0;  // rows laid out by frames, and in idle time (tests, the bench)
    this.laidIdle = 0;
    this.runIdle = (deadline) => this.idleWork(deadline);
  }

  /**
   * Lays out, for a frame drawing rows `range` ({first, last}) of `layout`, the rows it draws and `margin` rows
   * on each side, within the budget; the rows drawn already laid out, or the first of them, go beyond it. The
   * rows it could not lay out are `layout.laidRow(i)` null, and are left to idle time.
   */
  frame(layout, range, margin, font, measureTitle, measureText) {
    if (range.first !== this.lastFirst) {
      if (this.lastFirst >= 0) this.direction = range.first > this.lastFirst ? 1 : -1;
      this.lastFirst = range.first;
    }
    const job = this.job;
    job.layout = layout;
    job.first = range.first;
    job.last = range.last;
    job.margin = margin;
    job.font = font;
    job.measureTitle = measureTitle;
    job.measureText = measureText;
    const end = this.now() + this.budgetMs;
    let laid = 0;
    let deferred = 0;
    for (let i = range.first; i <= range.last; i++) {
      const ready = layout.isLaid(i, font);
      if (ready || laid === 0 || this.now() < end) {
        if (!ready) laid += 1;
        layout.layOutRow(i, font, measureTitle, measureText);
      } else deferred += 1;
    }
    deferred += this.around(layout, range.first, range.last, margin, end, 1);
    this.laidInFrames += laid;
    this.deferred = deferred;
    if (deferred > 0) this.queueIdle();
  }

  /**
   * Rows `first − margin … first − 1` and `last + 1 … last + margin`, nearest first and the moving side first, while
   * the clock is before `end`; returns how many were left. `counted`: 1 in a frame, 0 in idle time.
   */
  around(layout, first, last, margin, end, counted) {
    const { font, measureTitle, measureText } = this.job;
    const n = layout.count;
    let left = 0;
    for (let d = 1; d <= margin; d++) {
      for (let side = 0; side < 2; side++) {
        const i = (side === 0) === (this.direction > 0) ? last + d : first - d;
        if (i < 0 || i >= n) continue;
        if (layout.isLaid(i, font)) {
          layout.layOutRow(i, font, measureTitle, measureText); // only a measurement still to send
          continue;
        }
        if (left > 0 || this.now() >= end) {
          left += 1;
          continue;
        }
        layout.layOutRow(i, font, measureTitle, measureText);
        if (counted) this.laidInFrames += 1;
        else this.laidIdle += 1;
      }
    }
    return left;
  }

  queueIdle() {
    if (this.idleQueued) return;
    this.idleQueued = true;
    this.idle(this.runIdle);
  }

  /** Idle time: the rows the last frame left, while the deadline has time; then the layout's `onAhead` (draw). */
  idleWork(deadline) {
    this.idleQueued = false;
    const { layout, first, last, margin, font, measureTitle, measureText } = this.job;
    if (!layout || last < first) return;
    const end = this.now() + Math.max(0, deadline.timeRemaining() - 0.5);
    const before = this.laidIdle;
    for (let i = first; i <= last && this.now() < end; i++) {
      if (layout.isLaid(i, font)) continue;
      layout.layOutRow(i, font, measureTitle, measureText);
      this.laidIdle += 1;
    }
    this.deferred = this.around(layout, first, last, margin, end, 0);
    for (let i = first; i <= last; i++) if (!layout.isLaid(i, font)) this.deferred += 1;
    if (this.laidIdle !== before) layout.onAhead?.();
    if (this.deferred > 0) this.queueIdle();
  }
}
