// The rows of an external feed source, as the server sends them (docs/PROTOCOL.md, `rows`): every loaded item,
// newest first, kept in step by `replace` (after a welcome, or a refresh that did not reach the top item),
// `prepend` (a refresh's newer items) and `append` (a load-more's older items). Each message says how many items
// are loaded after it (`count`); a mirror that does not come out at that count says so (`problem`) and keeps
// what it has until the next `replace`. Read by the renderer (js/feed/itemPainter.js) and the screen reader's
// feed (js/feedMirror.js). Pure: no DOM (web/test/feedRows.test.js).

export const ROW_OPS = Object.freeze(['replace', 'prepend', 'append']);

/** An item as the page keeps it: `{id, text, author, time, image}` (docs/PROTOCOL.md, "Item"), or null. */
export function itemOf(raw) {
  if (!raw || typeof raw !== 'object') return null;
  if (typeof raw.id !== 'string' && !Number.isFinite(raw.id)) return null;
  const image = raw.image && typeof raw.image.url === 'string' ? raw.image : null;
  return {
    id: String(raw.id),
    text: typeof raw.text === 'string' ? raw.text : '',
    author: typeof raw.author === 'string' && raw.author ? raw.author : null,
    time: Number.isFinite(raw.time) ? raw.time : null,
    image,
  };
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
    if (!msg || !ROW_OPS.includes(msg.op) || !Array.isArray(msg.items)) {
      this.problem = `rows: op must be one of ${ROW_OPS.join(', ')} with an items array; got ${JSON.stringify(msg?.op ?? null)}`;
      return this.problem;
    }
    const items = [];
    let dropped = 0;
    for (const raw of msg.items) {
      const item = itemOf(raw);
      if (item) items.push(item);
      else dropped += 1;
    }
    if (msg.op === 'replace') this.items = items;
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
}
