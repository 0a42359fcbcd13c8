// The widths of the strings a row's layout measures (js/draw/wrap.js through js/feed/rowLayout.js), kept per font
// and string: the canvas's `measureText` shapes the string every time it is called, and the rows' texts repeat
// their words, so a word measured once in a font is not measured again. Bounded: past `limit` strings in one font,
// that font's widths start again; past `MAX_FONTS` fonts, every font's do (a theme changing its font family).
// Pure: the measuring is the caller's (`measure(font, s)`), so this runs in node (web/test/layoutAhead.test.js).

/** Fonts kept at once (the title's, the text's, and those of a font family just replaced). */
export const MAX_FONTS = 4;
/** Strings kept per font by default: about the words of the rows a few screens show, many times over. */
export const WIDTHS_LIMIT = 8192;

export class TextWidths {
  /**
   * @param {(font: string, s: string) => number} measure  a string's width in CSS px in `font` (a cache miss)
   * @param {number} [limit=WIDTHS_LIMIT]  strings kept per font
   */
  constructor(measure, limit = WIDTHS_LIMIT) {
    this.measure = measure;
    this.limit = limit;
    this.fonts = new Map(); // font → Map(string → width)
    this.lastFont = null;   // the font asked for last, and its widths (most calls ask for the same font again)
    this.last = null;
    this.misses = 0;        // strings measured, for tests and the bench
  }

  /** The width of `s` in `font`, measured once and then kept. */
  of(font, s) {
    let widths = this.last;
    if (font !== this.lastFont) {
      widths = this.fonts.get(font);
      if (!widths) {
        if (this.fonts.size >= MAX_FONTS) this.fonts.clear();
        widths = new Map();
        this.fonts.set(font, widths);
      }
      this.lastFont = font;
      this.last = widths;
    }
    let w = widths.get(s);
    if (w === undefined) {
      if (widths.size >= this.limit) widths.clear();
      w = this.measure(font, s);
      widths.set(s, w);
      this.misses += 1;
    }
    return w;
  }

  /** Strings kept, over every font. */
  get size() {
    let n = 0;
    for (const widths of this.fonts.values()) n += widths.size;
    return n;
  }

  /** Forgets every width (the fonts' files changed: a web font loaded). */
  clear() {
    this.fonts.clear();
    this.lastFont = null;
    this.last = null;
  }
}
