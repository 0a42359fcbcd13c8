// The rows on the list's canvas (js/renderer.js draws the background and the edges' controls around them): an
// avatar, a title line with the age on the right (the author), the item's title in the title's font, and under
// it the item's text wrapped into the lines the row has room for (js/feed/feedRows.js). A live session's rows
// are laid out and placed by js/feed/rowLayout.js (`drawLaidOut`): each at its own height, with its image's box;
// `draw` keeps rows of one height (a page without layout). Drawn in passes of one style each (fewer canvas state
// changes). Per frame it allocates nothing: each row's content is made once (per item, width and font,
// js/draw/wrap.js) and kept; the ages of items are worked out again once a second, all at the same instant, so
// the rows drawn together always read youngest first.
import {
  TITLE_BASELINE, TEXT_BASELINE, LINE_HEIGHT, HEADING_LINE_HEIGHT, AGE_ROOM, hashText, initialsOf,
} from './rowText.js';
import { headingOf } from './itemLink.js';
import { ageText } from './ages.js';
import { wrapText, ellipsize, WrapCache } from '../draw/wrap.js';
import { TAU } from '../draw/paint.js';
import { AVATAR_R, DESCENT, TEXT_X } from './rowLayout.js';
import { drawCover } from './images.js';
import { TextWidths } from './textWidths.js';
import { LayoutAhead } from './layoutAhead.js';

export { TITLE_BASELINE, TEXT_BASELINE, LINE_HEIGHT, AGE_ROOM, hashText, initialsOf };
const PAD = 16;
/** The drawn rows' rectangles kept for `rects` (a screen shows far fewer). */
const MAX_RECTS = 256;

/** How many lines of text an item's row of height `rh` shows under its title (at least 1). */
export function textLines(rh) {
  return Math.max(1, Math.floor((rh - TEXT_BASELINE - 9) / LINE_HEIGHT) + 1);
}

/** The avatar's radius in a row of height `rh`. */
export function avatarRadius(rh) {
  return Math.max(8, Math.min(20, rh * 0.28));
}

/**
 * An item's row, laid out for text lines `widths` (CSS px; the first narrower when it shares the title line):
 * `{title, lines, textY, colour, initials, age, ageAt}`. `measureTitle` and `measureText` measure in the
 * title's and the text's font.
 */
export function layoutItem(item, width, nLines, measureTitle, measureText) {
  const hue = hashText(item.author ?? item.id) % 360;
  // no line under the title (a low row): the text alone, on the title's line
  const title = item.author && nLines > 0 ? ellipsize(item.author, width - AGE_ROOM, measureTitle) : null;
  const widths = [];
  if (!title) widths.push(width - AGE_ROOM);
  for (let k = 0; k < nLines; k++) widths.push(width);
  // rows of one height (before the session's width is known): an item's title leads its text, in the text's font
  const heading = headingOf(item);
  const text = heading ? [heading, item.text].filter(Boolean).join(' — ') : item.text;
  return {
    title,
    lines: wrapText(text, widths, measureText),
    textY: title ? TEXT_BASELINE : TITLE_BASELINE,
    colour: `hsl(${hue}, 58%, 55%)`,
    initials: initialsOf(item.author ?? (item.text || heading)),
    age: '',
    ageAt: NaN, // the second the age was worked out at
  };
}

export class RowPainter {
  constructor() {
    this.wraps = new WrapCache();
    this.visible = [];          // the rows being drawn: their content, reused between frames
    this.titleFont = '';
    this.sectionFont = '';
    /** The section header drawn pinned by the last `drawLaidOut`: `{section, y}` on the canvas (CSS px), or null. */
    this.drawnPinned = null;
    this.textFont = '';
    this.fontFamily = null;
    this.avatarFont = '';
    this.avatarRadius = NaN;
    this.dpr = 1;
    this.ctx = null;
    /** The rows drawn last (drawLaidOut): their index, id, top and height on the canvas (CSS px), for `rects`. */
    this.drawnRows = {
      n: 0, first: 0, x: 0, w: 0,
      tops: new Float64Array(MAX_RECTS), heights: new Float64Array(MAX_RECTS), ids: new Array(MAX_RECTS).fill(''),
    };
    // the layout's measures (js/feed/rowLayout.js), made once: in the title's and the text's font on `this.ctx`,
    // each string once per font (js/feed/textWidths.js); which rows a frame lays out: js/feed/layoutAhead.js
    this.widths = new TextWidths((font, str) => this.measureIn(font, str));
    this.measureTitle = (str) => this.widths.of(this.titleFont, str);
    this.measureText = (str) => this.widths.of(this.textFont, str);
    this.ahead = new LayoutAhead();
    this.frameNo = 0;           // counts drawLaidOut's frames: when each image was last wanted (js/feed/images.js)
    this.imageRadiusOf = { css: null, px: 0 };
  }

  measureIn(font, str) {
    if (this.ctx.font !== font) this.ctx.font = font;
    return this.ctx.measureText(str).width;
  }

  /** `v` on the device's pixel grid. */
  snap(v) {
    return Math.round(v * this.dpr) / this.dpr;
  }

  /**
   * Draws rows `range` ({first, last}) of `feed` (the frame's) with `rows` (the FeedRows when the source is
   * external, else null) on `ctx` (CSS px), shifted by (tx, ty). `nowMs`: the wall clock, for the items' ages.
   */
  draw(ctx, theme, dpr, range, feed, rows, rh, contentW, tx, ty, nowMs) {
    this.drawnRows.n = 0;
    if (theme.font !== this.fontFamily) {
      this.fontFamily = theme.font;
      this.titleFont = `600 16px ${theme.font}`;
      this.textFont = `400 14px ${theme.font}`;
      this.avatarFont = '';
    }
    const r = avatarRadius(rh);
    if (r !== this.avatarRadius || this.avatarFont === '') {
      this.avatarRadius = r;
      this.avatarFont = `600 ${Math.round(r * 0.7)}px ${theme.font}`;
    }
    this.dpr = dpr;
    const textX = tx + PAD + 2 * r + 12;
    const width = Math.max(20, tx + contentW - PAD - textX);
    const top = range.first * rh + ty;
    ctx.fillStyle = theme.row;
    ctx.fillRect(tx, top, contentW, (range.last + 1) * rh + ty - top);
    this.collect(ctx, range, feed, rows, rh, width, nowMs);
    const list = this.visible;

    // separators (inset like UITableView), except under the last row
    const hair = 1 / dpr;
    ctx.fillStyle = theme.separator;
    for (let j = 0; j < list.length; j++) {
      const i = range.first + j;
      if (i === feed.count - 1) continue;
      ctx.fillRect(textX, this.snap(i * rh + ty) + rh - hair, tx + contentW - textX, hair);
    }
    // avatars
    for (let j = 0; j < list.length; j++) {
      if (!list[j]) continue;
      ctx.fillStyle = list[j].colour;
      ctx.beginPath();
      ctx.arc(tx + PAD + r, this.snap((range.first + j) * rh + ty) + rh / 2, r, 0, TAU);
      ctx.fill();
    }
    ctx.fillStyle = '#ffffff';
    ctx.font = this.avatarFont;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let j = 0; j < list.length; j++) {
      if (list[j]) ctx.fillText(list[j].initials, tx + PAD + r, this.snap((range.first + j) * rh + ty) + rh / 2 + 0.5);
    }
    this.drawItems(ctx, theme, range, rh, width, textX, tx + contentW - PAD, ty);
  }

  /** The rows drawn last by `drawLaidOut`: `[{index, id, x, y, w, h}]` on the canvas (CSS px); none after others. */
  rects() {
    const rec = this.drawnRows;
    const out = [];
    for (let k = 0; k < rec.n; k++) {
      out.push({ index: rec.first + k, id: rec.ids[k], x: rec.x, y: rec.tops[k], w: rec.w, h: rec.heights[k] });
    }
    return out;
  }

  /** Sets the fonts for `theme`. */
  fonts(theme) {
    if (theme.font === this.fontFamily) return;
    this.fontFamily = theme.font;
    this.titleFont = `600 16px ${theme.font}`;
    this.textFont = `400 14px ${theme.font}`;
    this.sectionFont = `600 13px ${theme.font}`;
    this.avatarFont = '';
  }

  /**
   * Draws the rows `range` ({first, last}) as `layout` (js/feed/rowLayout.js) lays them out and
   * places them: each at its top and height (the engine's accepted height, else the estimate), its content laid
   * out at the session's width; what does not fit a row's height yet (measured, not accepted) is left out. Rows
   * `first − margin`…`last + margin` are laid out too (their heights go to the engine before they show), within
   * the frame's budget (js/feed/layoutAhead.js): a row drawn before it is laid out is a placeholder. A section's
   * first row draws the section's header in its top band, and the header of the section at the viewport's top is
   * drawn over the rows, below the top inset `insetTop` (docs/LAYOUT.md, "Section headers"; `layout.pinnedAt`).
   */
  drawLaidOut(ctx, theme, dpr, range, layout, margin, contentW, tx, ty, nowMs, insetTop = 0) {
    this.fonts(theme);
    if (this.avatarRadius !== AVATAR_R || this.avatarFont === '') {
      this.avatarRadius = AVATAR_R;
      this.avatarFont = `600 ${Math.round(AVATAR_R * 0.7)}px ${theme.font}`;
    }
    this.dpr = dpr;
    this.ctx = ctx;
    this.ahead.frame(layout, range, margin, this.fontFamily, this.measureTitle, this.measureText);
    const images = layout.images;
    const frame = ++this.frameNo;
    if (images) this.prefetch(layout, images, range, margin, frame);
    const radius = this.imageRadius(theme);
    const textX = tx + TEXT_X;
    const right = tx + contentW - PAD;
    const hair = 1 / dpr;
    const last = layout.count - 1;
    const rec = this.drawnRows;
    rec.n = 0;
    rec.first = range.first;
    rec.x = tx;
    rec.w = contentW;
    const top = this.snap(layout.top(range.first) + ty);
    ctx.fillStyle = theme.row;
    ctx.fillRect(tx, top, contentW, this.snap(layout.top(range.last + 1) + ty) - top);
    for (let i = range.first; i <= range.last; i++) {
      const y = this.snap(layout.top(i) + ty);
      const h = layout.rowHeight(i);
      const row = layout.laidRow(i); // null: not laid out yet (the frame's budget), a placeholder
      if (rec.n < MAX_RECTS) {
        rec.tops[rec.n] = y;
        rec.heights[rec.n] = h;
        rec.ids[rec.n] = layout.items[i]?.id ?? '';
        rec.n += 1;
      }
      if (i !== last) {
        ctx.fillStyle = theme.separator;
        ctx.fillRect(textX, y + h - hair, tx + contentW - textX, hair);
      }
      if (!row) continue;
      const item = layout.items[i];
      // a section's first row draws the section's header in its top band; its content starts below it
      if (row.band) this.drawSectionHeader(ctx, theme, item.section, tx, y, contentW, row.band, hair);
      const cy = y + row.band;
      const ch = h - row.band;
      ctx.fillStyle = row.colour;
      ctx.beginPath();
      ctx.arc(tx + PAD + AVATAR_R, cy + PAD + AVATAR_R, AVATAR_R, 0, TAU);
      ctx.fill();
      ctx.fillStyle = '#ffffff';
      ctx.font = this.avatarFont;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(row.initials, tx + PAD + AVATAR_R, cy + PAD + AVATAR_R + 0.5);
      ctx.textAlign = 'left';
      ctx.textBaseline = 'alphabetic';
      // the author: in the text's colour, as it always was; above an item's title, secondary (the title leads)
      ctx.font = this.titleFont;
      if (row.byline) {
        ctx.fillStyle = row.heading.length ? theme.text2 : theme.text;
        ctx.fillText(row.byline, textX, cy + TITLE_BASELINE);
      }
      ctx.fillStyle = theme.text;
      for (let k = 0; k < row.heading.length; k++) {
        const base = row.headingY + k * HEADING_LINE_HEIGHT;
        if (base + DESCENT > ch) break;
        ctx.fillText(row.heading[k], textX, cy + base);
      }
      ctx.font = this.textFont;
      for (let k = 0; k < row.lines.length; k++) {
        const base = row.textY + k * LINE_HEIGHT;
        if (base + DESCENT > ch) break;
        ctx.fillText(row.lines[k], textX, cy + base);
      }
      // the image in its box (cover-fit, rounded), a placeholder until it is decoded (js/feed/images.js)
      const img = row.image;
      if (img && img.y < ch) {
        const visibleH = Math.min(img.h, ch - img.y - hair);
        const bitmap = images ? images.want(item.image.url, frame) : null;
        if (bitmap) {
          drawCover(ctx, bitmap, textX, cy + img.y, img.w, img.h, visibleH, radius);
        } else {
          ctx.fillStyle = theme.skeleton ?? theme.separator;
          ctx.beginPath();
          if (radius > 0 && ctx.roundRect) ctx.roundRect(textX, cy + img.y, img.w, visibleH, radius);
          else ctx.rect(textX, cy + img.y, img.w, visibleH);
          ctx.fill();
        }
      }
      ctx.textAlign = 'right';
      ctx.fillStyle = theme.text2;
      ctx.fillText(layout.ageOf(row, item, nowMs), right, cy + TITLE_BASELINE);
    }
    // the header of the section at the top, pinned there until the next section's first row pushes it away
    const pinned = layout.pinnedAt(-ty, insetTop);
    this.drawnPinned = pinned;
    if (pinned) {
      this.drawSectionHeader(ctx, theme, pinned.section, tx, this.snap(pinned.y), contentW, layout.sectionHeader, hair);
    }
    if (images) images.trim(frame);
  }

  /** A section's header: its name on the page's background, a hairline under it, `band` px high from `y`. */
  drawSectionHeader(ctx, theme, section, tx, y, contentW, band, hair) {
    ctx.fillStyle = theme.sectionBackground ?? theme.background;
    ctx.fillRect(tx, y, contentW, band);
    ctx.fillStyle = theme.separator;
    ctx.fillRect(tx, y + band - hair, contentW, hair);
    ctx.fillStyle = theme.text2;
    ctx.font = this.sectionFont;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(section, tx + PAD, y + band / 2 + 0.5, contentW - 2 * PAD);
    ctx.textBaseline = 'alphabetic';
  }

  /**
   * Asks for the images of the rows laid out around the drawn ones (`margin` rows each side), before the drawn
   * rows ask for theirs: the fetches start most recent first, so the drawn rows' images come first, and a row's
   * real image shape is known (its height measured) before it scrolls into view.
   */
  prefetch(layout, images, range, margin, frame) {
    const lo = Math.max(0, range.first - margin);
    const hi = Math.min(layout.count - 1, range.last + margin);
    for (let i = lo; i <= hi; i++) {
      if (i >= range.first && i <= range.last) continue;
      const url = layout.items[i]?.image?.url;
      if (url) images.want(url, frame);
    }
  }

  /** The images' corner radius from the theme (`--rk-image-radius`), in CSS px. */
  imageRadius(theme) {
    const css = theme.imageRadius ?? '';
    if (css !== this.imageRadiusOf.css) {
      this.imageRadiusOf.css = css;
      this.imageRadiusOf.px = Math.max(0, Number.parseFloat(css) || 0);
    }
    return this.imageRadiusOf.px;
  }

  /** The content of each row to draw, into `this.visible` (null for a row the mirror does not have yet). */
  collect(ctx, range, feed, rows, rh, width, nowMs) {
    const list = this.visible;
    list.length = 0;
    if (!rows) {
      for (let i = range.first; i <= range.last; i++) list.push(null);
      return;
    }
    const nLines = rh >= 52 ? textLines(rh) : 0;
    const key = Math.round(width) * 64 + nLines;
    const second = Math.floor(nowMs / 1000);
    for (let i = range.first; i <= range.last; i++) {
      const item = rows.item(i);
      if (!item) {
        list.push(null);
        continue;
      }
      const e = this.wraps.get(item, key, this.fontFamily)
        ?? this.wraps.put(item, key, this.layout(ctx, item, width, nLines));
      if (e.ageAt !== second) {
        e.ageAt = second;
        e.age = item.time == null ? '' : ageText(item.time, second * 1000);
      }
      list.push(e);
    }
  }

  /** Lays an item out (a cache miss): measured with the canvas in the title's and the text's fonts. */
  layout(ctx, item, width, nLines) {
    const inFont = (font) => (s) => {
      if (ctx.font !== font) ctx.font = font;
      return ctx.measureText(s).width;
    };
    return layoutItem(item, width, nLines, inFont(this.titleFont), inFont(this.textFont));
  }

  drawItems(ctx, theme, range, rh, width, textX, right, ty) {
    const list = this.visible;
    const oneLine = rh < 52; // no room under the title: the text's first line, centred
    const titleY = oneLine ? rh / 2 + 5.5 : TITLE_BASELINE;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = theme.text;
    ctx.font = this.titleFont;
    if (!oneLine) {
      for (let j = 0; j < list.length; j++) {
        const e = list[j];
        if (e?.title) ctx.fillText(e.title, textX, this.snap((range.first + j) * rh + ty) + titleY);
      }
    }
    ctx.font = this.textFont;
    for (let j = 0; j < list.length; j++) {
      const e = list[j];
      if (!e) continue;
      const y = this.snap((range.first + j) * rh + ty);
      if (oneLine) {
        if (e.lines.length) ctx.fillText(e.lines[0], textX, y + titleY, width - AGE_ROOM);
        continue;
      }
      for (let k = 0; k < e.lines.length; k++) ctx.fillText(e.lines[k], textX, y + e.textY + k * LINE_HEIGHT);
    }
    ctx.textAlign = 'right';
    ctx.fillStyle = theme.text2;
    for (let j = 0; j < list.length; j++) {
      const e = list[j];
      if (e) ctx.fillText(e.age, right, this.snap((range.first + j) * rh + ty) + titleY);
    }
  }
}
