// The heights of a list's rows and their running sums, after a Fenwick (binary indexed) tree: the top of row i
// (the sum of the heights above it), the row at a given y and a change of one row's height, each in O(log n),
// allocating nothing. The page's row layout (js/feed/rowLayout.js) keeps its rows' positions in one; the engine
// keeps the same sums in its own (docs/LAYOUT.md). Pure (web/test/rowLayout.test.js).

export class HeightTree {
  constructor() {
    this.n = 0;
    this.heights = new Float64Array(0); // row i's height
    this.tree = new Float64Array(1);    // 1-based partial sums
    this.total = 0;
  }

  /** Starts again with `n` rows, row i of height `heightOf(i)`: O(n). */
  reset(n, heightOf) {
    if (this.heights.length < n) {
      this.heights = new Float64Array(Math.max(n, this.heights.length * 2));
      this.tree = new Float64Array(this.heights.length + 1);
    }
    this.n = n;
    const t = this.tree;
    t.fill(0, 0, n + 1);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const h = heightOf(i);
      this.heights[i] = h;
      total += h;
      t[i + 1] += h;
      const parent = i + 1 + ((i + 1) & -(i + 1));
      if (parent <= n) t[parent] += t[i + 1];
    }
    this.total = total;
  }

  /** Row i's height (0 beyond the rows). */
  height(i) {
    return i >= 0 && i < this.n ? this.heights[i] : 0;
  }

  /** Sets row i's height to `h`. Returns whether it changed. */
  set(i, h) {
    if (i < 0 || i >= this.n) return false;
    const d = h - this.heights[i];
    if (d === 0) return false;
    this.heights[i] = h;
    this.total += d;
    for (let k = i + 1; k <= this.n; k += k & -k) this.tree[k] += d;
    return true;
  }

  /** The top of row i: the sum of the heights of rows 0…i−1 (the total for i ≥ n). */
  top(i) {
    if (i >= this.n) return this.total;
    let s = 0;
    for (let k = i; k > 0; k -= k & -k) s += this.tree[k];
    return s;
  }

  /**
   * The row that holds `y` (its top ≤ y < its bottom): 0 above the first row, n − 1 below the last, −1 with no
   * rows.
   */
  indexAt(y) {
    if (this.n === 0) return -1;
    if (!(y > 0)) return 0;
    let pos = 0;
    let rest = y;
    let step = 1;
    while (step * 2 <= this.n) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.n && this.tree[next] <= rest) {
        pos = next;
        rest -= this.tree[next];
      }
    }
    return Math.min(pos, this.n - 1);
  }
}
