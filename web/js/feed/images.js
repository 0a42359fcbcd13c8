// The feed's images on the page (docs/PAGE.md, "Images"): fetched from the server's same-origin endpoint
// (`GET /feed/image?u=URL`, docs/FEEDS.md "Images"; the page's Content-Security-Policy allows images from this
// origin only), decoded with createImageBitmap (off the main thread in the browser; never in a frame callback:
// the drawing only asks, the decode runs when the fetch resolves), and kept within a budget: at most MAX_BITMAPS
// decoded images, the ones drawn least recently closed first when more are held (a row scrolled far away gives
// its bitmap back; scrolled to again, the image comes back from the browser's HTTP cache). An image's size is
// remembered after its bitmap goes (MAX_SIZES of them), so its row keeps the height the real image gives it.
//
// `want(url, frame)` is what a drawing calls for each row it draws or lays out: the bitmap when it is ready, else
// null (the row draws a placeholder) after queuing the fetch; at most MAX_FETCHES run at once, the most recently
// wanted first, and a queued image no frame wanted for STALE_FRAMES frames (a fling went past it) is not fetched.
// `onLoad(url, size)` tells the session an image arrived (the row is laid out again at its real shape). A failed
// image stays a placeholder; a frame that wants it RETRY_MS later asks for it again.

/** Decoded images kept at most. */
export const MAX_BITMAPS = 64;
/** Fetches in flight at most. */
export const MAX_FETCHES = 4;
/** Image sizes remembered (width and height per address). */
export const MAX_SIZES = 4096;
/** A queued image not wanted for this many frames is dropped from the queue. */
export const STALE_FRAMES = 120;
/** A failed image is asked for again when a frame wants it this long (ms) after it failed. */
export const RETRY_MS = 10_000;
/** The longest alternative text given to the feed mirror (js/feedMirror.js). */
export const ALT_CHARS = 160;

/** The server's address for an item's image. */
export function imageAddress(url) {
  return `/feed/image?u=${encodeURIComponent(url)}`;
}

/** The text a screen reader reads for an item's image: the item's text (shortened), else "image". */
export function imageAlt(item) {
  const text = String(item?.text ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return 'image';
  return text.length > ALT_CHARS ? `${text.slice(0, ALT_CHARS - 1)}…` : text;
}

async function fetchAndDecode(url, signal) {
  const res = await fetch(imageAddress(url), { signal, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`image ${res.status}`);
  return createImageBitmap(await res.blob());
}

export class FeedImages {
  /**
   * @param {object} [o]
   * @param {(url: string, signal: AbortSignal) => Promise<{width, height, close?}>} [o.load]  fetches and
   *   decodes (tests give their own)
   * @param {(url: string, size: {width, height}) => void} [o.onLoad]  an image is ready to draw
   */
  constructor({ load = fetchAndDecode, onLoad = () => {}, now = () => performance.now() } = {}) {
    this.load = load;
    this.now = now;
    this.onLoad = onLoad;
    this.entries = new Map(); // url → {state: 'queued'|'loading'|'ready'|'failed', bitmap, usedAt}
    this.sizes = new Map();   // url → {width, height}
    this.queue = [];          // urls queued, the most recently wanted last
    this.inFlight = 0;
    this.held = 0;            // bitmaps held
    this.frame = 0;
    this.abort = new AbortController();
    this.stats = { loaded: 0, failed: 0, dropped: 0 };
  }

  /** The size of the image at `url` once it was seen: `{width, height}`, else undefined. */
  sizeOf(url) {
    return this.sizes.get(url);
  }

  /** The bitmap of `url` to draw in frame `frame`, or null (its fetch is queued; a failed one stays null). */
  want(url, frame) {
    this.frame = frame;
    let e = this.entries.get(url);
    if (e?.state === 'failed' && this.now() - e.failedAt > RETRY_MS) {
      this.entries.delete(url); // asked for again (a refusal or a source down may have been brief)
      e = undefined;
    }
    if (!e) {
      e = { state: 'queued', bitmap: null, usedAt: frame };
      this.entries.set(url, e);
      this.queue.push(url); // started by `trim`, after the frame's drawing
    }
    e.usedAt = frame;
    return e.state === 'ready' ? e.bitmap : null;
  }

  /** After a frame's drawing: starts queued fetches, and closes the bitmaps over the budget, least recent first. */
  trim(frame) {
    this.pump();
    if (this.held <= MAX_BITMAPS) return;
    const ready = [];
    for (const [url, e] of this.entries) if (e.state === 'ready' && e.usedAt < frame) ready.push([e.usedAt, url]);
    ready.sort((a, b) => a[0] - b[0]);
    for (let k = 0; k < ready.length && this.held > MAX_BITMAPS; k++) {
      const e = this.entries.get(ready[k][1]);
      e.bitmap?.close?.();
      this.entries.delete(ready[k][1]);
      this.held -= 1;
      this.stats.dropped += 1;
    }
  }

  pump() {
    while (this.inFlight < MAX_FETCHES && this.queue.length) {
      const url = this.queue.pop();
      const e = this.entries.get(url);
      if (!e || e.state !== 'queued') continue;
      if (this.frame - e.usedAt > STALE_FRAMES) {
        this.entries.delete(url);
        continue;
      }
      e.state = 'loading';
      this.inFlight += 1;
      this.load(url, this.abort.signal).then(
        (bitmap) => this.loaded(url, e, bitmap),
        () => this.failed(url, e),
      );
    }
  }

  loaded(url, e, bitmap) {
    this.inFlight -= 1;
    if (this.entries.get(url) !== e) {
      bitmap?.close?.();
      return;
    }
    e.state = 'ready';
    e.bitmap = bitmap;
    this.held += 1;
    this.stats.loaded += 1;
    const size = { width: bitmap.width, height: bitmap.height };
    const known = this.sizes.get(url);
    if (this.sizes.size >= MAX_SIZES && !known) this.sizes.delete(this.sizes.keys().next().value);
    this.sizes.set(url, size);
    this.onLoad(url, size);
    this.pump();
  }

  failed(url, e) {
    this.inFlight -= 1;
    if (this.entries.get(url) !== e) return;
    e.state = 'failed';
    e.failedAt = this.now();
    this.stats.failed += 1;
    this.pump();
  }

  /** Decoded images held now, fetches queued and in flight, and the counts so far (tests, the page hook). */
  state() {
    return { held: this.held, queued: this.queue.length, inFlight: this.inFlight, sizes: this.sizes.size, ...this.stats };
  }

  /** Lets go of every bitmap and stops the fetches. */
  dispose() {
    this.abort.abort();
    for (const e of this.entries.values()) e.bitmap?.close?.();
    this.entries.clear();
    this.queue.length = 0;
    this.held = 0;
  }
}

/**
 * Draws `bitmap` into the box (x, y, w, h) as CSS `object-fit: cover` does (scaled to fill it, the middle kept),
 * clipped to the box's first `visibleH` px and to corners of `radius` px.
 */
export function drawCover(ctx, bitmap, x, y, w, h, visibleH, radius) {
  const scale = Math.max(w / bitmap.width, h / bitmap.height);
  const sw = w / scale;
  const sh = h / scale;
  ctx.save();
  ctx.beginPath();
  if (radius > 0 && ctx.roundRect) ctx.roundRect(x, y, w, Math.min(h, visibleH), radius);
  else ctx.rect(x, y, w, Math.min(h, visibleH));
  ctx.clip();
  ctx.drawImage(bitmap, (bitmap.width - sw) / 2, (bitmap.height - sh) / 2, sw, sh, x, y, w, h);
  ctx.restore();
}
