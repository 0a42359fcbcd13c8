// Fixed-size ring buffers: nothing grows, nothing is reallocated per push. The debug panel keeps its events and
// series in them (js/panel/), a live session its draw log (js/session/liveSession.js), so the module sits beside
// both and imports nothing (docs/PAGE.md, "The modules"). Pure (no DOM): unit tested in web/test/ringBuffer.test.js.

/** A ring of arbitrary items; pushing past the capacity drops the oldest. */
export class Ring {
  constructor(capacity) {
    if (!(capacity > 0)) throw new RangeError('capacity must be positive');
    this.capacity = capacity | 0;
    this.items = new Array(this.capacity);
    this.start = 0;
    this.length = 0;
  }

  /** Adds an item; returns the item it evicted (undefined when there was room). */
  push(item) {
    let evicted;
    if (this.length < this.capacity) {
      this.items[(this.start + this.length) % this.capacity] = item;
      this.length += 1;
    } else {
      evicted = this.items[this.start];
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
    return evicted;
  }

  /** The i-th item, 0 = the oldest; negative counts from the newest (-1 = the newest). */
  at(i) {
    const n = this.length;
    const k = i < 0 ? n + i : i;
    if (k < 0 || k >= n) return undefined;
    return this.items[(this.start + k) % this.capacity];
  }

  get last() {
    return this.at(-1);
  }

  clear() {
    this.items = new Array(this.capacity);
    this.start = 0;
    this.length = 0;
  }

  /** Oldest first. */
  toArray() {
    const out = new Array(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.items[(this.start + i) % this.capacity];
    return out;
  }

  /** The newest `n` items, newest first. */
  newest(n = this.length) {
    const out = [];
    for (let i = this.length - 1; i >= 0 && out.length < n; i--) out.push(this.items[(this.start + i) % this.capacity]);
    return out;
  }

  [Symbol.iterator]() {
    return this.toArray()[Symbol.iterator]();
  }
}

/** The most columns a SeriesRing has: `push` takes one parameter per column, as an array would be allocated on
 * every animation frame (docs/PAGE.md, "Life cycle": a frame allocates nothing of its own). */
export const MAX_COLUMNS = 6;

/**
 * A ring of numeric samples in columns (Float64Array each), e.g. t, x, y, vx, vy for the live plot, or t, y for a
 * session's draws: one push per animation frame and no allocation.
 */
export class SeriesRing {
  constructor(capacity, columns) {
    if (!(capacity > 0)) throw new RangeError('capacity must be positive');
    if (!(columns.length >= 1 && columns.length <= MAX_COLUMNS)) {
      throw new RangeError(`a series has 1 to ${MAX_COLUMNS} columns`);
    }
    this.capacity = capacity | 0;
    this.columns = columns.slice();
    this.data = Object.fromEntries(columns.map((c) => [c, new Float64Array(this.capacity)]));
    this.arrays = columns.map((c) => this.data[c]); // in column order, for push
    this.start = 0;
    this.length = 0;
  }

  /** Adds one sample: its values in column order; past the capacity, the oldest is dropped. */
  push(v0, v1, v2, v3, v4, v5) {
    let slot;
    if (this.length < this.capacity) {
      slot = (this.start + this.length) % this.capacity;
      this.length += 1;
    } else {
      slot = this.start;
      this.start = (this.start + 1) % this.capacity;
    }
    const a = this.arrays;
    switch (a.length) {
      case 6: a[5][slot] = v5; // falls through: every column up to the first is written
      case 5: a[4][slot] = v4; // falls through
      case 4: a[3][slot] = v3; // falls through
      case 3: a[2][slot] = v2; // falls through
      case 2: a[1][slot] = v1; // falls through
      default: a[0][slot] = v0;
    }
  }

  /** The samples, oldest first, each an object of its columns (`{t, y}` for the columns t and y). */
  rows() {
    const out = new Array(this.length);
    for (let i = 0; i < this.length; i++) {
      const row = {};
      for (const col of this.columns) row[col] = this.get(col, i);
      out[i] = row;
    }
    return out;
  }

  /** Column `col` of the i-th sample, 0 = the oldest. */
  get(col, i) {
    return this.data[col][(this.start + i) % this.capacity];
  }

  /** Index of the first sample whose column `col` (ascending, e.g. time) is ≥ value; `length` if none. */
  lowerBound(col, value) {
    let lo = 0, hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.get(col, mid) < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Drops samples whose column `col` is below `value` (keeps the ring sorted on that column). */
  dropBefore(col, value) {
    const k = this.lowerBound(col, value);
    this.start = (this.start + k) % this.capacity;
    this.length -= k;
  }

  clear() {
    this.start = 0;
    this.length = 0;
  }
}
