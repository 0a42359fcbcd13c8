// Text fitted to the room it has on the canvas: an item's text wrapped greedily into the lines its row has room
// for (js/feed/rowLayout.js), the last line ending in "…" when the text goes on, and one line cut with "…"
// (`ellipsize`: the built-in footer's message too, js/controls/builtin/footer.js); a word wider than a line is
// broken between characters (as text with no spaces, Chinese for one, always is). Measuring is the caller's
// (`measure(s)` → width in CSS px: the canvas's measureText with the row's font), so this runs in node too
// (web/test/feedWrap.test.js). The drawing keeps the result per item and width (`WrapCache`): nothing is
// measured on a frame that shows the same rows again.

export const ELLIPSIS = '…';

/**
 * `text` in at most `widths.length` lines, line k at most `widths[k]` px wide. Whitespace runs (new lines
 * included) read as one space. Each word is measured once, a line being its words and the spaces between them
 * (the few words a row shows, however long the text). Returns the lines (none for an empty text).
 */
export function wrapText(text, widths, measure) {
  const words = String(text ?? '').split(/\s+/).filter(Boolean);
  const lines = [];
  const space = measure(' ');
  let w = 0; // the next word
  let wordW = words.length ? measure(words[0]) : 0;
  while (w < words.length && lines.length < widths.length) {
    const width = widths[lines.length];
    let line = '';
    let lineW = 0;
    let broken = false; // the line ends inside a word
    while (w < words.length) {
      const next = line ? lineW + space + wordW : wordW;
      if (next <= width) {
        line = line ? `${line} ${words[w]}` : words[w];
        lineW = next;
        w += 1;
        if (w < words.length) wordW = measure(words[w]);
      } else if (!line) {
        // a word wider than the line: as many of its characters as fit, the rest stays for the next line
        const cut = Math.max(1, fitChars(words[w], width, measure));
        line = words[w].slice(0, cut);
        words[w] = words[w].slice(cut);
        wordW = measure(words[w]);
        broken = true;
        break;
      } else break;
    }
    // the last line, and more text: cut what would follow it, with "…"
    if (lines.length === widths.length - 1 && w < words.length) {
      line = ellipsize(`${line}${broken ? '' : ' '}${words[w]}`, width, measure);
    }
    lines.push(line);
  }
  return lines;
}

/**
 * `text` whole when it fits in `width` px, else cut with "…" after it: after the last whole word when that keeps
 * most of the room (at least 60 %), else between characters.
 */
export function ellipsize(text, width, measure) {
  const s = String(text ?? '');
  if (measure(s) <= width) return s;
  let n = fitChars(s, width - measure(ELLIPSIS), measure);
  const space = s.lastIndexOf(' ', n);
  if (space > 0 && space >= n * 0.6) n = space;
  return `${s.slice(0, n).trimEnd()}${ELLIPSIS}`;
}

/** How many leading characters of `s` fit in `width` px (binary search: measuring is the cost). */
function fitChars(s, width, measure) {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(s.slice(0, mid)) <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The laid-out text of the rows drawn, per item: computed once for an item, a width and a font, and kept
 * (up to `limit` items; then it starts again) so a frame that draws the same rows measures nothing.
 */
export class WrapCache {
  constructor(limit = 512) {
    this.limit = limit;
    this.entries = new Map(); // item id → {text, author, key, lines, author line}
    this.font = null;
    this.misses = 0; // layouts computed, for tests
  }

  /**
   * The layout kept for `item` under `key` (a number standing for the width and lines: equal for equal layouts)
   * and `font` (the fonts measured with: a new one forgets every layout), or null: then `put` one.
   */
  get(item, key, font) {
    if (font !== this.font) {
      this.entries.clear();
      this.font = font;
    }
    const e = this.entries.get(item.id);
    return e && e.key === key && e.text === item.text && e.author === item.author ? e.value : null;
  }

  /** Keeps `value` as the layout of `item` under `key`; returns it. */
  put(item, key, value) {
    if (this.entries.size >= this.limit) this.entries.clear();
    this.misses += 1;
    this.entries.set(item.id, { key, text: item.text, author: item.author, value });
    return value;
  }
}
