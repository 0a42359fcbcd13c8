// The list for screen readers and keyboards: the rows drawn on the canvas, mirrored in the DOM as a feed after the
// WAI-ARIA Authoring Practices' feed pattern (https://www.w3.org/WAI/ARIA/apg/patterns/feed/): a `role="feed"`
// element whose `<article>`s carry their position (`aria-posinset`), the feed's size (`aria-setsize`, -1 while more
// can load), a name (`aria-labelledby` their heading, an `h3`: the item's title, js/feed/itemLink.js) and
// `tabindex="0"`, the heading a real link (`<a href target=_blank rel=noopener>`) when the item has an http(s) one;
// the first article of a section starts with the section's name as an `h2` (docs/LAYOUT.md, "Section headers"), so
// a screen reader's heading navigation goes section by section; `aria-busy`
// while a refresh or a load runs; Page Down / Page Up move focus between articles, Enter on one follows its link.
// The canvas stays the display: the mirror holds only the visible rows and a few beyond, and touches the DOM only
// when that set or the feed changes, never on a frame that merely moves the offset within it.
import { visibleRows } from './rows.js';
import { ageText } from './feed/ages.js';
import { imageAlt } from './feed/images.js';
import { headingOf, safeLink } from './feed/itemLink.js';
import { startsSection } from './feed/feedRows.js';

/** Rows mirrored beyond the visible ones, on each side. */
export const MIRROR_MARGIN = 5;
/** The row height when a frame does not say (as js/renderer.js draws). */
const DEFAULT_ROW_HEIGHT = 72;

/** The feed's row height, in CSS px. */
export function rowHeightOf(feed) {
  return feed && feed.rowHeight > 0 ? feed.rowHeight : DEFAULT_ROW_HEIGHT;
}

/**
 * The rows to mirror, `{first, last}` (inclusive indices) or null: those visible at `offsetY` in a viewport
 * `viewportH` high, `margin` more on each side, and the focused row (`focused`, an index) wherever it is.
 */
export function mirrorRange(feed, offsetY, viewportH, focused = null, margin = MIRROR_MARGIN, layout = null) {
  const count = layout ? layout.count : Math.max(0, (feed?.count ?? 0) | 0);
  const visible = layout
    ? layout.visible(offsetY, viewportH)
    : visibleRows(offsetY, viewportH, rowHeightOf(feed), count);
  if (!visible) return null;
  let first = Math.max(0, visible.first - margin);
  let last = Math.min(count - 1, visible.last + margin);
  if (Number.isInteger(focused) && focused >= 0 && focused < count) {
    first = Math.min(first, focused);
    last = Math.max(last, focused);
  }
  return { first, last };
}

/** `aria-setsize`: the feed's count, or -1 while more can load (the pattern's "unknown size"). */
export function setSizeOf(feed) {
  if (!feed) return -1;
  return feed.hasMore ? -1 : Math.max(0, feed.count | 0);
}

/** Whether the feed is busy (`aria-busy`): an edge refreshing (a refresh or a load-more) or the feed loading. */
export function isBusy(frame) {
  if (!frame) return false;
  if (frame.feed?.loading) return true;
  return (frame.edges || []).some((e) => e.state === 'refreshing');
}

/**
 * What one article says: its title (its name), byline, subtitle, age and link. Row `index` is its item (`state`:
 * js/feed/feedState.js): the item's title names it, the author and the text follow; an item with no title is
 * named by its author (the text follows), else by its text, and one with neither title nor text by its link or
 * as "Untitled" (js/feed/itemLink.js, as the row draws it). `link`: the item's address when it is http(s), else
 * ''. Empty while the page does not have the item.
 */
export function articleContent(feed, index, state = null, nowMs = Date.now()) {
  const item = state?.rows.item(index);
  if (!item) return { title: '', byline: '', subtitle: '', time: '', link: '' };
  const time = item.time == null ? '' : ageText(item.time, nowMs);
  const link = safeLink(item.url) ?? '';
  const heading = headingOf(item);
  if (heading) return { title: heading, byline: item.author ?? '', subtitle: item.text ?? '', time, link };
  return item.author
    ? { title: item.author, byline: '', subtitle: item.text, time, link }
    : { title: item.text, byline: '', subtitle: '', time, link };
}

/**
 * How far to scroll (`command scrollBy` amount, CSS px, + shows later rows) so that row `index` is wholly in the
 * viewport `[0, viewportH)` at `offsetY`; 0 when it already is. A row taller than the viewport is aligned at its top.
 */
export function scrollToShow(index, offsetY, viewportH, rowHeight) {
  const top = index * rowHeight - offsetY;
  const bottom = top + rowHeight;
  if (top < 0 || rowHeight >= viewportH) return top;
  if (bottom > viewportH) return bottom - viewportH;
  return 0;
}

/** The index focus moves to from `index` for a key (`PageDown` next, `PageUp` previous), or null. */
export function focusStep(key, index, count) {
  if (key === 'PageDown') return index + 1 < count ? index + 1 : null;
  if (key === 'PageUp') return index > 0 ? index - 1 : null;
  return null;
}

/**
 * Puts `text` in the article's heading `h3`: as a real link to `href` (a new tab, no opener) when there is one,
 * so that Tab reaches it and Enter or a screen reader follows it; as plain text when there is none.
 */
function fillHeading(heading, text, href) {
  let a = heading.firstElementChild;
  if (!href) {
    if (a || heading.textContent !== text) heading.textContent = text;
    return;
  }
  if (!a) {
    a = heading.ownerDocument.createElement('a');
    a.target = '_blank';
    a.rel = 'noopener';
    heading.replaceChildren(a);
  }
  if (a.getAttribute('href') !== href) a.setAttribute('href', href);
  if (a.textContent !== text) a.textContent = text;
}

/** The mirror's identity: it is rebuilt only when this changes. */
function mirrorKey(range, feed, busy, rowsVersion, layoutVersion) {
  return range
    ? `${range.first}:${range.last}:${feed.count}:${feed.hasMore}:${busy}:${rowsVersion}:${layoutVersion}`
    : `none:${busy}`;
}

/**
 * The mirror in the DOM. `root` is the feed element; `scrollBy(amount)` asks the server to scroll (so that a focused
 * row comes into view); `view()` gives `{frame, offsetY, viewportH}` now; `state` (js/feed/feedState.js) has the
 * feed's items.
 */
export class FeedMirror {
  constructor(root, { scrollBy, view, state = null, layout = null }) {
    this.root = root;
    this.state = state;
    this.rowLayout = layout;
    this.scrollBy = scrollBy;
    this.view = view;
    this.key = null;
    this.articles = new Map(); // index → article
    this.feed = null;
    this.updates = 0; // DOM rebuilds, for tests
    root.setAttribute('role', 'feed');
    root.setAttribute('aria-busy', 'false');
    root.addEventListener('keydown', (e) => this.onKey(e));
    root.addEventListener('focusin', (e) => this.onFocusIn(e));
  }

  /** The index of the focused article (or of the article whose link is focused), or null. */
  get focused() {
    const el = this.focusedArticle();
    if (!el) return null;
    const i = Number(el.dataset.index);
    return Number.isInteger(i) ? i : null;
  }

  /** The article that has the focus, itself or in its link, or null. */
  focusedArticle() {
    const active = this.root.ownerDocument.activeElement;
    const el = active?.closest?.('article') ?? null;
    return el && el.parentElement === this.root ? el : null;
  }

  /** Mirrors `frame`'s rows around `offsetY` (the offset drawn) when the set of rows or the feed changed. */
  update(frame, offsetY, viewportH) {
    const feed = frame?.feed;
    if (!feed) return;
    const busy = isBusy(frame);
    const layout = this.layout();
    const range = mirrorRange(feed, offsetY, viewportH, this.focused, MIRROR_MARGIN, layout);
    const key = mirrorKey(range, feed, busy, this.state?.rows.version ?? 0, layout ? layout.version : -1);
    if (key === this.key) return;
    this.key = key;
    this.feed = feed;
    this.updates += 1;
    this.root.setAttribute('aria-busy', String(busy));
    const setSize = String(setSizeOf(feed));
    for (const [i, el] of this.articles) {
      if (!range || i < range.first || i > range.last) {
        el.remove();
        this.articles.delete(i);
      }
    }
    if (!range) return;
    let before = null; // keep the DOM in index order: walk from the last
    for (let i = range.last; i >= range.first; i--) {
      let el = this.articles.get(i);
      if (!el) {
        el = this.makeArticle(i);
        this.articles.set(i, el);
        this.root.insertBefore(el, before);
      }
      this.fill(el, feed, i, setSize, this.heightOf(i));
      before = el;
    }
  }

  /** The row layout placing the rows (js/feed/rowLayout.js), or null: rows of the feed's estimated height. */
  layout() {
    const l = this.rowLayout;
    return this.state && l && l.width > 0 && l.count > 0 ? l : null;
  }

  /** Row i's top in the content, and its height. */
  topOf(i) {
    const l = this.layout();
    return l ? l.top(i) : i * rowHeightOf(this.feed);
  }

  heightOf(i) {
    const l = this.layout();
    return l ? l.rowHeight(i) : rowHeightOf(this.feed);
  }

  makeArticle(i) {
    const doc = this.root.ownerDocument;
    const el = doc.createElement('article');
    el.className = 'feed-row';
    el.tabIndex = 0;
    el.dataset.index = String(i);
    const section = doc.createElement('h2'); // the section's name, in a section's first article only
    section.className = 'feed-section';
    section.hidden = true;
    const title = doc.createElement('h3'); // the item's title; a link to its page when it has one
    title.className = 'feed-row-title';
    title.id = `feed-row-${i}`;
    const byline = doc.createElement('p');
    byline.className = 'feed-row-byline';
    const subtitle = doc.createElement('p');
    subtitle.className = 'feed-row-text';
    const time = doc.createElement('p');
    time.className = 'feed-row-time';
    const image = doc.createElement('span'); // an item's image, named by its alternative text (js/feed/images.js)
    image.setAttribute('role', 'img');
    image.hidden = true;
    el.append(section, title, byline, subtitle, time, image);
    el.setAttribute('aria-labelledby', title.id);
    return el;
  }

  fill(el, feed, i, setSize, rh) {
    const c = articleContent(feed, i, this.state);
    const [section, title, byline, subtitle, time, image] = el.children;
    const item = this.state ? this.state.rows.item(i) : null;
    const starts = item !== null && startsSection(this.state.rows.items, i);
    if (section.hidden !== !starts) section.hidden = !starts;
    if (starts && section.textContent !== item.section) section.textContent = item.section;
    const alt = item?.image ? imageAlt(item) : null;
    if (image.hidden !== !alt) image.hidden = !alt;
    if (alt && image.getAttribute('aria-label') !== alt) image.setAttribute('aria-label', alt);
    fillHeading(title, c.title, c.link);
    if (byline.textContent !== c.byline) byline.textContent = c.byline;
    if (subtitle.textContent !== c.subtitle) subtitle.textContent = c.subtitle;
    if (time.textContent !== c.time) time.textContent = c.time;
    el.setAttribute('aria-posinset', String(i + 1));
    el.setAttribute('aria-setsize', setSize);
    el.style.height = `${rh}px`;
  }

  /**
   * Places every mirrored article over its row as drawn at `offsetY`, so that a screen reader's touch exploration
   * finds each row where the canvas shows it, and the focused one's outline (the visible focus) sits on its row.
   * A transform each (the compositor's work), written only when the drawn offset or the set of rows changed.
   */
  place(offsetY) {
    if (!this.feed || (offsetY === this.placedAt && this.placedKey === this.key)) return;
    this.placedAt = offsetY;
    this.placedKey = this.key;
    for (const [i, el] of this.articles) el.style.transform = `translateY(${this.topOf(i) - offsetY}px)`;
  }

  onKey(e) {
    const i = this.focused;
    if (i == null || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Enter' && e.target === this.articles.get(i)) {
      // Enter on an article follows its link, as Enter on the link itself does
      const link = e.target.querySelector('a[href]');
      if (link) {
        e.preventDefault();
        link.click();
      }
      return;
    }
    if (e.key !== 'PageDown' && e.key !== 'PageUp') return;
    const next = focusStep(e.key, i, this.feed ? this.feed.count : 0);
    e.preventDefault(); // the page's own Page Up/Down (scroll by a page) is not wanted inside the feed
    if (next == null) return;
    const el = this.articles.get(next);
    if (el) el.focus({ preventScroll: true });
  }

  /** Tab into the feed lands on the first visible row; a focused row is scrolled into view. */
  onFocusIn(e) {
    const { frame, offsetY, viewportH } = this.view();
    const feed = frame?.feed;
    if (!feed) return;
    this.feed = feed;
    const layout = this.layout();
    const rh = rowHeightOf(feed);
    const i = this.focused;
    if (i == null) return;
    // from outside the feed (not from another article or an article's link)
    const fromOutside = !e.relatedTarget || !this.root.contains(e.relatedTarget);
    if (fromOutside) {
      const visible = layout ? layout.visible(offsetY, viewportH) : visibleRows(offsetY, viewportH, rh, feed.count | 0);
      const wholeAt = (v) => {
        if (!layout) return Math.ceil(offsetY / rh);
        return layout.top(v.first) >= offsetY ? v.first : v.first + 1;
      };
      const firstWhole = visible ? Math.min(visible.last, Math.max(visible.first, wholeAt(visible))) : i;
      if (visible && (i < visible.first || i > visible.last) && this.articles.has(firstWhole)) {
        this.articles.get(firstWhole).focus({ preventScroll: true });
        return;
      }
    }
    const amount = layout
      ? scrollToShow(0, offsetY - layout.top(i), viewportH, layout.rowHeight(i))
      : scrollToShow(i, offsetY, viewportH, rh);
    if (amount !== 0) this.scrollBy(amount);
    this.placedAt = null;
    this.place(offsetY);
  }
}
