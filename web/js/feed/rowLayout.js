// The rows of an external feed source, laid out (docs/PAGE.md, "Rows of measured heights"): each row at the SESSION's viewport
// width (the frame's `viewport.w`, the same on every device of the session, whatever its window), with its
// avatar, author line, title (in the title's font, at most MAX_HEADING_LINES lines), text wrapped into at most
// MAX_LINES lines ending in "…" (js/draw/wrap.js) and an image's box reserved from its width and height before
// it loads; the height that makes. The rows are PLACED by the
// heights the engine accepted (`heights` messages), the estimate (`welcome.config.feed.rowHeight`) for a row
// without one, never by the page's own measurement before the engine accepted it: every device then puts every
// row where the engine does (y(row) = the sum of the heights above it, in the rows mirror's order,
// js/feed/feedRows.js). The page's own heights that differ from the accepted ones go to the engine as `measure`
// messages (`takeMeasures`, ≤ MEASURE_BATCH rows each), once per row, width and height.
//
// The renderer (js/feed/rowPainter.js) and the feed mirror (js/feedMirror.js) both read this. Kept per item and
// width; positions on a HeightTree (js/feed/heightTree.js), a height arriving costs O(log n); asking for
// positions and laying out rows already laid out allocates nothing. Pure: the text is measured by the caller's
// functions (web/test/rowLayout.test.js).
import { wrapText, ellipsize } from '../draw/wrap.js';
import { ageText } from './ages.js';
import { HeightTree } from './heightTree.js';
import {
  hashText, initialsOf, AGE_ROOM, TITLE_BASELINE, TEXT_BASELINE, LINE_HEIGHT, HEADING_LINE_HEIGHT,
} from './rowText.js';
import { headingOf } from './itemLink.js';
import { startsSection } from './feedRows.js';

/** The most lines of text a row shows; the last ends in "…" when the text goes on. */
export const MAX_LINES = 6;
/** The most lines of an item's title a row shows (above its text), likewise. */
export const MAX_HEADING_LINES = 3;
/** The avatar's radius, its top margin, and the row's side padding (CSS px). */
export const AVATAR_R = 20;
export const PAD = 16;
/** A row is at least this high (the avatar and its margins). */
export const MIN_ROW = 72;
/** Room under the last line of text, above and under an image. */
export const DESCENT = 6;
export const IMAGE_GAP = 8;
export const BOTTOM_PAD = 12;
/** An image's box is at most this high (its width shrinks to keep its shape); one of unknown size gets 16:9. */
export const MAX_IMAGE_H = 240;
/** Rows a `measure` message carries at most (docs/PROTOCOL.md). */
export const MEASURE_BATCH = 256;
/** The estimate when the session's configuration does not say. */
export const DEFAULT_ESTIMATE = 72;
/** A section header's height when the session's configuration does not say (`feed.sectionHeaderHeight`). */
export const DEFAULT_SECTION_HEADER = 28;
/** Laid-out rows kept (per item, at one width); then the cache starts again. */
const CACHE_LIMIT = 2048;

/** Where a row's text starts, from the row's left (CSS px). */
export const TEXT_X = PAD + 2 * AVATAR_R + 12;

/** Where a row's text starts (x, from the row's left) and how wide its lines are at viewport width `width`. */
export function textBox(width) {
  return { x: TEXT_X, w: Math.max(20, width - PAD - TEXT_X) };
}

/**
 * An image's box `{w, h}` in a text column `textW` wide, from the item's `image` (`{url, width?, height?}`), or
 * from `known` (`{width, height}`: the image's real size once it loaded, js/feed/images.js) when the source gave
 * no size.
 */
export function imageBox(image, textW, known = undefined) {
  if (!image) return null;
  const given = Number(image.width) > 0 && Number(image.height) > 0;
  const iw = Number(given ? image.width : known?.width);
  const ih = Number(given ? image.height : known?.height);
  let w = textW;
  let h = Math.round((textW * 9) / 16);
  if (iw > 0 && ih > 0) {
    w = Math.min(textW, iw);
    h = Math.round((w * ih) / iw);
  }
  if (h > MAX_IMAGE_H) {
    w = Math.round((w * MAX_IMAGE_H) / h);
    h = MAX_IMAGE_H;
  }
  return { w: Math.max(1, w), h: Math.max(1, h) };
}

/**
 * An item's row laid out in a text column `textW` wide: `{byline, heading, headingY, lines, textY, image, height,
 * colour, initials, age, ageAt}`. `byline`: the author's line (cut with "…"), or null; `heading`: the item's
 * title in at most MAX_HEADING_LINES lines (js/feed/itemLink.js: an item with neither title nor text shows its
 * link, else "Untitled"), its first baseline `headingY`; `lines`: the text in at most MAX_LINES lines from
 * `textY`; `image`: `{y, w, h}` below the text, or null. The first line shares its row with the age.
 * `measureTitle`/`measureText` measure in the title's and the text's font; `sizeOf(url)` gives an image's real
 * size once it loaded. `band`: the height of the section header the row draws above its content (0 for none, the
 * row not the first of its section); every y above is then from the content's top, `band` below the row's, and the
 * row's `height` includes it.
 */
export function layoutRow(item, textW, measureTitle, measureText, sizeOf = undefined, band = 0) {
  const byline = item.author ? ellipsize(item.author, textW - AGE_ROOM, measureTitle) : null;
  const headingText = headingOf(item);
  // each block starts one line below the last one above it (the first: on the age's line, beside the age)
  let baseline = byline ? TITLE_BASELINE : null;
  const firstWidths = (n) => {
    const widths = [];
    while (widths.length < n) widths.push(baseline === null && widths.length === 0 ? textW - AGE_ROOM : textW);
    return widths;
  };
  let heading = NO_LINES;
  let headingY = TITLE_BASELINE;
  if (headingText) {
    headingY = baseline === null ? TITLE_BASELINE : baseline + HEADING_LINE_HEIGHT;
    heading = wrapText(headingText, firstWidths(MAX_HEADING_LINES), measureTitle);
    baseline = headingY + (heading.length - 1) * HEADING_LINE_HEIGHT;
  }
  const textY = baseline === null ? TITLE_BASELINE : baseline + TEXT_BASELINE - TITLE_BASELINE;
  const lines = wrapText(item.text, firstWidths(MAX_LINES), measureText);
  if (lines.length) baseline = textY + (lines.length - 1) * LINE_HEIGHT;
  let bottom = (baseline ?? TITLE_BASELINE) + DESCENT;
  let image = null;
  const box = imageBox(item.image, textW, item.image && sizeOf ? sizeOf(item.image.url) : undefined);
  if (box) {
    image = { y: bottom + IMAGE_GAP, w: box.w, h: box.h };
    bottom = image.y + box.h;
  }
  return {
    byline,
    heading,
    headingY,
    lines,
    textY,
    image,
    height: band + Math.max(MIN_ROW, bottom + BOTTOM_PAD),
    band,
    colour: `hsl(${hashText(item.author ?? item.id) % 360}, 58%, 55%)`,
    initials: initialsOf(item.author ?? (item.text || headingText)),
    age: '',
    ageAt: NaN,
  };
}

const NO_LINES = Object.freeze([]);

export class RowLayout {
  /**
   * @param {object} [o]
   * @param {boolean} [o.hold=false]  keep `heights` (and the mirror's new rows, `sync`) until `commit`: a live
   *   session commits them when the next frame comes, the frame that carries the engine's anchoring correction
   *   for them, so that rows and offset move together and the row on screen stays still.
   */
  constructor({ hold = false } = {}) {
    this.hold = hold;
    this.held = [];            // heights messages not committed yet
    this.estimate = DEFAULT_ESTIMATE;
    this.sectionHeader = DEFAULT_SECTION_HEADER;
    this.width = 0;            // the session's viewport width the rows are laid out at (0: not known yet)
    this.items = [];           // the rows mirror's items (FeedRows.items), in order
    this.rowsVersion = -1;
    this.index = new Map();    // item id → row
    this.accepted = new Map(); // item id → the height the engine accepted
    this.sent = new Map();     // item id → the height sent at `width` (not sent again)
    this.laid = new Map();     // item id → {item, width, font, row}: the row laid out
    this.font = null;
    this.tree = new HeightTree();
    this.pending = [];         // ids whose own height differs from the accepted one, not sent yet
    this.version = 0;          // counts changes of the positions (the mirror places again when it moves)
    this.laidOut = 0;          // rows laid out (cache misses), for tests and the bench
    this.range = { first: 0, last: -1 };
    /** The feed's images (js/feed/images.js), or null: an image of unknown size is laid out at its real shape once loaded. */
    this.images = null;
    this.sizeOf = (url) => this.images?.sizeOf(url);
    /** Called when rows were laid out between frames (js/feed/layoutAhead.js): to be drawn, their heights sent. */
    this.onAhead = null;
  }

  /** An image arrived: the rows showing it are laid out again (at its real shape), and measured again. */
  imageLoaded(url) {
    for (const [id, e] of this.laid) if (e.item.image?.url === url) this.laid.delete(id);
  }

  /** Rows. */
  get count() {
    return this.tree.n;
  }

  /** The content's height: every row's. */
  get height() {
    return this.tree.total;
  }

  /**
   * Takes one server message: `welcome`/`config` (the estimate), `heights` (the accepted heights; rows not in
   * the mirror are kept for when they come). `rows` are taken from the mirror itself (`sync`).
   */
  receive(msg) {
    switch (msg?.type) {
      case 'welcome':
        this.forgetSent();
      // falls through: a welcome carries the configuration
      case 'config': {
        const rh = Number(msg.config?.feed?.rowHeight);
        if (rh > 0 && rh !== this.estimate) {
          this.estimate = rh;
          this.rebuild();
        }
        const band = Number(msg.config?.feed?.sectionHeaderHeight);
        if (band > 0 && band !== this.sectionHeader) {
          this.sectionHeader = band; // every row that starts a section is laid out again, and measured
          this.laid.clear();
          this.version += 1;
        }
        break;
      }
      case 'heights': {
        if (!Array.isArray(msg.rows)) return;
        if (this.hold) {
          this.held.push(msg);
          return;
        }
        this.applyHeights(msg);
        break;
      }
      default:
        break;
    }
  }

  /** Whether heights or new rows wait for `commit`. */
  holding(rows) {
    return this.held.length > 0 || rows.version !== this.rowsVersion;
  }

  /**
   * Applies what was held (the `heights` messages in order, the rows mirror `rows` as it is now) and returns
   * how far it moved the row at content y `anchorY` (found again by its item after rows came on top), 0 when
   * nothing moved it or no row is there.
   */
  commit(rows, anchorY) {
    if (!this.holding(rows)) return 0;
    const i = this.tree.n ? this.tree.indexAt(anchorY) : -1;
    const id = i >= 0 ? this.items[i]?.id : undefined;
    const before = i >= 0 ? this.tree.top(i) : 0;
    this.sync(rows);
    for (let k = 0; k < this.held.length; k++) this.applyHeights(this.held[k]);
    this.held.length = 0;
    if (id === undefined) return 0;
    const j = this.index.get(id);
    return j === undefined ? 0 : this.tree.top(j) - before;
  }

  applyHeights(msg) {
    let moved = false;
    for (const pair of msg.rows) {
      if (!Array.isArray(pair) || typeof pair[0] !== 'string') continue;
      const h = Number(pair[1]);
      if (!(h > 0)) continue;
      this.accepted.set(pair[0], h);
      const i = this.index.get(pair[0]);
      if (i !== undefined && this.tree.set(i, h)) moved = true;
    }
    if (moved) this.version += 1;
  }


  /** Follows the rows mirror (`rows`: js/feed/feedRows.js): when its rows changed, rows are placed again (O(n)). */
  sync(rows) {
    if (rows.version === this.rowsVersion) return;
    this.rowsVersion = rows.version;
    const before = this.index;
    this.items = rows.items;
    this.index = new Map();
    for (let i = 0; i < this.items.length; i++) {
      const item = this.items[i];
      if (item) this.index.set(item.id, i);
    }
    // rows no longer in the mirror (dropped to placeholders, or replaced): the engine forgets their heights; loaded
    // again, they are measured again. By id: rows that came on top moved the others down, they did not drop them.
    for (const id of before.keys()) {
      if (!this.index.has(id)) {
        this.accepted.delete(id);
        this.sent.delete(id);
      }
    }
    if (this.accepted.size > 4 * CACHE_LIMIT) {
      for (const id of this.accepted.keys()) if (!this.index.has(id)) this.accepted.delete(id);
    }
    this.rebuild();
  }

  rebuild() {
    const items = this.items;
    this.tree.reset(items.length, (i) => this.accepted.get(items[i]?.id) ?? this.estimate);
    this.version += 1;
  }

  /** The session's viewport width (the frame's `viewport.w`): a new one lays the rows out again and measures. */
  setWidth(w) {
    if (!(w > 0) || w === this.width) return;
    this.width = w;
    this.forgetSent();
  }

  /** Row i's top (y in the content), height, and the row at content y. */
  top(i) {
    return this.tree.top(i);
  }

  rowHeight(i) {
    return this.tree.height(i);
  }

  indexAt(y) {
    return this.tree.indexAt(y);
  }

  /** The rows visible at offset `y` in a viewport `h` high: `{first, last}` (kept and reused), or null. */
  visible(y, h) {
    if (this.tree.n === 0 || !(h > 0)) return null;
    const first = this.tree.indexAt(y);
    const last = this.tree.indexAt(y + h - 1e-6);
    if (this.tree.top(first) >= y + h) return null;
    this.range.first = first;
    this.range.last = last;
    return this.range;
  }

  /**
   * Row i laid out at the session's width (null for a row the mirror does not have, or before the width is
   * known), measured in `font` with `measureTitle`/`measureText` on a miss. A row whose height differs from the
   * engine's and was not sent at this width and height joins the next `measure`.
   */
  row(i, font, measureTitle, measureText) {
    const item = this.items[i];
    if (!item || !(this.width > 0)) return null;
    if (font !== this.font) {
      this.font = font;
      this.laid.clear();
    }
    let e = this.laid.get(item.id);
    const band = this.band(i);
    if (!e || e.item !== item || e.width !== this.width || e.row.band !== band) {
      if (this.laid.size >= CACHE_LIMIT) this.laid.clear();
      const row = layoutRow(item, textBox(this.width).w, measureTitle, measureText, this.sizeOf, band);
      e = { item, width: this.width, row };
      this.laid.set(item.id, e);
      this.laidOut += 1;
    }
    return e.row;
  }

  /**
   * Lays out rows `first`…`last` (the ones drawn, and a margin); those whose height the engine has not accepted
   * and that were not sent at this width and height go to the next `measure`.
   */
  layOut(first, last, font, measureTitle, measureText) {
    const end = Math.min(last, this.items.length - 1);
    for (let i = Math.max(0, first); i <= end; i++) this.layOutRow(i, font, measureTitle, measureText);
  }

  /** Lays out row i (`row`) and, when its height is new to the engine, puts it in the next `measure`. */
  layOutRow(i, font, measureTitle, measureText) {
    const row = this.row(i, font, measureTitle, measureText);
    if (!row) return;
    const id = this.items[i].id;
    const accepted = this.accepted.get(id);
    if (accepted === row.height) {
      // the engine has the height this page lays out now: a measurement sent before (the row lost or gained a
      // section's band since, or another device's height was taken) is settled, and another height later is news
      const sent = this.sent.get(id);
      if (sent !== undefined && sent !== row.height) this.sent.set(id, row.height);
    } else if (this.sent.get(id) !== row.height) {
      this.pending.push(id);
    }
  }

  /** Whether row i is laid out at the session's width in `font` (then `row` measures nothing). */
  isLaid(i, font) {
    const item = this.items[i];
    if (!item || font !== this.font) return false;
    const e = this.laid.get(item.id);
    return e !== undefined && e.item === item && e.width === this.width && e.row.band === this.band(i);
  }

  /** Row i as laid out at the session's width, or null when it is not (yet): a placeholder is drawn instead. */
  laidRow(i) {
    const item = this.items[i];
    if (!item || !(this.width > 0)) return null;
    const e = this.laid.get(item.id);
    return e !== undefined && e.item === item && e.width === this.width && e.row.band === this.band(i)
      ? e.row : null;
  }

  /** The height of the section header row i draws above its content: 0 unless it starts a section. */
  band(i) {
    return startsSection(this.items, i) ? this.sectionHeader : 0;
  }

  /**
   * The section header pinned at the top of the viewport at offset `offsetY` under a top inset `insetTop`
   * (docs/LAYOUT.md, "Section headers", the engine's rule for a frame's `pinned`): `{section, y}`, `y` in viewport
   * coordinates, or null when the row there is a placeholder or has no section. The page draws it at the offset it
   * shows, between frames too.
   */
  pinnedAt(offsetY, insetTop) {
    const n = this.tree.n;
    if (n === 0) return null;
    const line = offsetY + insetTop;
    const i = this.tree.indexAt(line);
    const section = this.items[i]?.section;
    if (!section) return null;
    let top = Math.max(line, this.tree.top(i));
    for (let j = i + 1; j < n; j++) {
      const nextTop = this.tree.top(j);
      if (!(nextTop < top + this.sectionHeader)) break;
      if (this.items[j]?.section !== section) {
        top = nextTop - this.sectionHeader;
        break;
      }
    }
    return { section, y: top - offsetY };
  }

  /**
   * Rows sent whose height the engine has not accepted (yet), among those still laid out at that height: 0 once it
   * took every measurement that still holds (tests).
   */
  awaiting() {
    let n = 0;
    for (const [id, h] of this.sent) {
      const i = this.index.get(id);
      if (this.accepted.get(id) !== h && i !== undefined && this.laidRow(i)?.height === h) n += 1;
    }
    return n;
  }

  /** The connection was opened again (a `welcome`): what was sent may not have arrived; send it again. */
  forgetSent() {
    this.sent.clear();
    this.pending.length = 0;
  }

  /** The age of a laid-out row, worked out again once a second (`nowMs`: the wall clock). */
  ageOf(row, item, nowMs) {
    const second = Math.floor(nowMs / 1000);
    if (row.ageAt !== second) {
      row.ageAt = second;
      row.age = item.time == null ? '' : ageText(item.time, second * 1000);
    }
    return row.age;
  }

  /**
   * The `measure` messages to send now (each without `seq`: the session's input path numbers it), ≤ MEASURE_BATCH
   * rows each: the rows laid out at the current width whose height the engine has not accepted. An empty array
   * when there are none (the common frame: nothing allocated).
   */
  takeMeasures() {
    if (!this.pending.length) return NO_MESSAGES;
    const out = [];
    let rows = [];
    for (const id of this.pending) {
      const e = this.laid.get(id);
      if (!e || e.width !== this.width) continue;
      const h = e.row.height;
      if (this.accepted.get(id) === h || this.sent.get(id) === h) continue;
      this.sent.set(id, h);
      rows.push([id, h]);
      if (rows.length === MEASURE_BATCH) {
        out.push({ type: 'measure', width: this.width, rows });
        rows = [];
      }
    }
    if (rows.length) out.push({ type: 'measure', width: this.width, rows });
    this.pending.length = 0;
    return out;
  }
}

const NO_MESSAGES = Object.freeze([]);
