// The rows of an external feed source, as the server sends them (docs/PROTOCOL.md, `rows`): every loaded item,
// newest first, kept in step by `replace` (after a welcome, or a refresh that did not reach the top item),
// `prepend` (a refresh's newer items) and `append` (a load-more's older items). Each message says how many items
// are loaded after it (`count`); a mirror that does not come out at that count says so (`problem`) and keeps
// what it has until the next `replace`. A session that holds a window of pages around its viewport
// (docs/LAYOUT.md) drops far ones (`drop`, `at` top or bottom, `count` the rows dropped): their rows stay, as
// placeholders (null items, drawn at the estimated height), until a `reload` (`at`, `items`, `count` the rows
// after it) fills the ones next to the loaded rows again, and removes the placeholders left on that side when
// `count` says the list is shorter (rows deleted at the source). A `replace` to a page joining such a session
// says how many placeholders are `above` and `below` its items. Read by the renderer (js/feed/itemPainter.js) and the screen reader's
// feed (js/feedMirror.js). Pure: no DOM (web/test/feedRows.test.js).

export const ROW_OPS = Object.freeze(['replace', 'prepend', 'append', 'drop', 'reload']);

/**
 * An item as the page keeps it: `{id, text, author, title, url, section, time, image}` (docs/PROTOCOL.md, "Item";
 * `author`, `title`, `url`, `section` null when absent or empty), or null. The url is kept as the source gave it: what a tap may open is
 * decided where it is opened (js/feed/itemLink.js, `safeLink`).
 */
export function itemOf(raw) {
  if (!raw || typeof raw !== 'object') return null;
  if (typeof raw.id !== 'string' && !Number.isFinite(raw.id)) return null;
  const image = raw.image && typeof raw.image.url === 'string' ? raw.image : null;
  return {
    id: String(raw.id),
    text: typeof raw.text === 'string' ? raw.text : '',
    author: typeof raw.author === 'string' && raw.author ? raw.author : null,
    title: typeof raw.title === 'string' && raw.title ? raw.title : null,
    url: typeof raw.url === 'string' && raw.url ? raw.url : null,
    section: typeof raw.section === 'string' && raw.section ? raw.section : null,
    time: Number.isFinite(raw.time) ? raw.time : null,
    image,
  };
}

/**
 * Whether row `i` of `items` starts its section, so draws the section's header above its content (docs/LAYOUT.md,
 * "Section headers"; the engine's rule): its item has a section, and it is the first row, or the row above is a
 * placeholder or in another section.
 */
export function startsSection(items, i) {
  const item = items[i];
  if (!item?.section) return false;
  const above = i > 0 ? items[i - 1] : null;
  return !above || above.section !== item.section;
}

export class FeedRows {
  constructor() {
    this.items = [];     // newest first: row i shows items[i]
    this.version = 0;    // counts the changes (a mirror of the rows rebuilds when it moves)
    this.problem = null; // the last message that did not add up, in words; cleared by a replace that does
  }

  get count() {
    return this.items.length;
  }

  /** The item of row `i`, or null (a row the mirror does not have). */
  item(i) {
    return this.items[i] ?? null;
  }

  /**
   * Applies one `rows` message. Returns null when it was applied and its count matches, else what is wrong
   * (also kept in `problem`); a message that is not a rows change at all changes nothing.
   */
  apply(msg) {
    if (!msg || !ROW_OPS.includes(msg.op) || !(Array.isArray(msg.items) || msg.op === 'drop')) {
      this.problem = `rows: op must be one of ${ROW_OPS.join(', ')} with an items array; got ${JSON.stringify(msg?.op ?? null)}`;
      return this.problem;
    }
    const items = [];
    let dropped = 0;
    for (const raw of msg.items ?? []) {
      const item = itemOf(raw);
      if (item) items.push(item);
      else dropped += 1;
    }
    if (msg.op === 'drop' || msg.op === 'reload') return this.window(msg, items, dropped);
    if (msg.op === 'replace') {
      // a session whose window dropped pages: placeholders (null) above and below the held items
      const above = Number.isInteger(msg.above) && msg.above > 0 ? msg.above : 0;
      const below = Number.isInteger(msg.below) && msg.below > 0 ? msg.below : 0;
      this.items = above || below ? new Array(above).fill(null).concat(items, new Array(below).fill(null)) : items;
    }
    else if (msg.op === 'prepend') this.items = items.concat(this.items);
    else this.items = this.items.concat(items);
    this.version += 1;
    const wrong = [];
    if (dropped) wrong.push(`${dropped} item(s) without an id were left out`);
    if (Number.isInteger(msg.count) && msg.count !== this.items.length) {
      wrong.push(`${msg.op} left ${this.items.length} items, the server counts ${msg.count}`);
    }
    if (wrong.length) this.problem = `rows: ${wrong.join('; ')}`;
    else if (msg.op === 'replace') this.problem = null;
    return wrong.length ? this.problem : null;
  }

  /** The loaded rows' first and last index (placeholders around them), or null when none is loaded. */
  loaded() {
    let first = 0;
    while (first < this.items.length && !this.items[first]) first += 1;
    if (first === this.items.length) return null;
    let last = this.items.length - 1;
    while (!this.items[last]) last -= 1;
    return { first, last };
  }

  /** A `drop` (loaded rows at one end become placeholders) or a `reload` (placeholders there loaded again). */
  window(msg, items, dropped) {
    const top = msg.at === 'top';
    if (msg.at !== 'top' && msg.at !== 'bottom') {
      this.problem = `rows: ${msg.op} needs at: top or bottom; got ${JSON.stringify(msg.at ?? null)}`;
      return this.problem;
    }
    const span = this.loaded();
    const rows = this.items.slice(); // a new array: a mirror of the rows sees the change
    const wrong = [];
    if (dropped) wrong.push(`${dropped} item(s) without an id were left out`);
    if (msg.op === 'drop') {
      const n = Number.isInteger(msg.count) && msg.count > 0 ? msg.count : 0;
      const have = span ? span.last - span.first + 1 : 0;
      if (n > have) wrong.push(`drop of ${n} rows, ${have} loaded`);
      for (let k = 0; k < Math.min(n, have); k++) rows[top ? span.first + k : span.last - k] = null;
    } else {
      // the reloaded items end right above the first loaded row, or start right under the last one
      const at = span ? (top ? span.first - items.length : span.last + 1) : 0;
      if (at < 0) wrong.push(`reload of ${items.length} rows at the top, ${span.first} placeholders there`);
      for (let k = Math.max(0, -at); k < items.length; k++) rows[at + k] = items[k];
      // fewer rows after it (`count`): the placeholders left on that side stood for rows the source no longer has
      let extra = Number.isInteger(msg.count) && msg.count >= 0 ? rows.length - msg.count : 0;
      while (extra > 0 && rows.length && (top ? rows[0] : rows[rows.length - 1]) === null) {
        if (top) rows.shift();
        else rows.pop();
        extra -= 1;
      }
      if (extra > 0) wrong.push(`reload left ${rows.length} rows, the server counts ${msg.count}`);
    }
    this.items = rows;
    this.version += 1;
    if (wrong.length) this.problem = `rows: ${wrong.join('; ')}`;
    return wrong.length ? this.problem : null;
  }
}
