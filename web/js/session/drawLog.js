// The last draws of a session: when each happened (the requestAnimationFrame time, page ms) and the offset.y it
// drew. The lag bench (bench/lag_bench.py) and the browser tests read it through `window.refreshkit.drawLog()`.
// Two typed arrays used as a ring: recording a draw allocates nothing. Pure: unit tested with node.

export class DrawLog {
  /** @param {number} capacity  how many draws are kept (0 keeps none) */
  constructor(capacity) {
    this.capacity = Math.max(0, capacity | 0);
    this.t = new Float64Array(this.capacity);
    this.y = new Float64Array(this.capacity);
    this.start = 0;
    this.length = 0;
  }

  /** A draw at page time `t` of offset.y `y`; past the capacity, the oldest is dropped. */
  record(t, y) {
    if (this.capacity === 0) return;
    let slot;
    if (this.length < this.capacity) {
      slot = (this.start + this.length) % this.capacity;
      this.length += 1;
    } else {
      slot = this.start;
      this.start = (this.start + 1) % this.capacity;
    }
    this.t[slot] = t;
    this.y[slot] = y;
  }

  /** The kept draws, oldest first, as `{t, y}`. */
  list() {
    const out = new Array(this.length);
    for (let i = 0; i < this.length; i++) {
      const slot = (this.start + i) % this.capacity;
      out[i] = { t: this.t[slot], y: this.y[slot] };
    }
    return out;
  }
}
