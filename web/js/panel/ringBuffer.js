// Fixed-size ring buffers for the debug panel: nothing grows, nothing is reallocated per frame.
// Pure module (no DOM): unit tested in web/test/panel.test.js.

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

/**
 * A ring of numeric samples in columns (Float64Array each), e.g. t, x, y, vx, vy for the live plot:
 * one push per animation frame and no allocation.
 */
export class SeriesRing {
  constructor(capacity, columns) {
    if (!(capacity > 0)) throw new RangeError('capacity must be positive');
    this.capacity = capacity | 0;
    this.columns = columns.slice();
    this.data = Object.fromEntries(columns.map((c) => [c, new Float64Array(this.capacity)]));
    this.start = 0;
    this.length = 0;
  }

  /** Adds one sample: values in column order. */
  push(...values) {
    let slot;
    if (this.length < this.capacity) {
      slot = (this.start + this.length) % this.capacity;
      this.length += 1;
    } else {
      slot = this.start;
      this.start = (this.start + 1) % this.capacity;
    }
    for (let c = 0; c < this.columns.length; c++) this.data[this.columns[c]][slot] = values[c];
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
