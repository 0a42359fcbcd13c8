// The feed's images on the page (js/feed/images.js, docs/PAGE.md "Images"): fetched through the server's
// same-origin endpoint, at most a few at once and the drawn rows' first, decoded bitmaps kept within a budget,
// the size of a loaded image laying its row out again at its real shape (js/feed/rowLayout.js), drawn cover-fit
// into the row's box (js/feed/rowPainter.js), and named for screen readers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FeedImages, imageAddress, imageAlt, drawCover, MAX_BITMAPS, MAX_FETCHES, STALE_FRAMES, ALT_CHARS, RETRY_MS,
} from '../js/feed/images.js';
import { RowLayout, layoutRow, imageBox, textBox } from '../js/feed/rowLayout.js';
import { RowPainter } from '../js/feed/rowPainter.js';
import { FeedState } from '../js/feed/feedState.js';
import { measure7, fakeContext } from './feedSupport.js';

/** A loader the test answers by hand: `pending` holds each fetch's url and its resolve/reject. */
function manualLoader() {
  const pending = [];
  const load = (url) => new Promise((resolve, reject) => pending.push({ url, resolve, reject }));
  return { pending, load };
}

const bitmap = (width, height) => ({ width, height, closed: false, close() { this.closed = true; } });
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('an image is asked for through the same-origin endpoint, its address escaped', () => {
  assert.equal(imageAddress('https://a.example/x.png?a=1&b=2'), '/feed/image?u=https%3A%2F%2Fa.example%2Fx.png%3Fa%3D1%26b%3D2');
});

test('fetches wait for the frame to end, run a few at a time, the most recently wanted first', async () => {
  const { pending, load } = manualLoader();
  const loads = [];
  const images = new FeedImages({ load, onLoad: (url, size) => loads.push([url, size]) });
  for (let k = 0; k < 10; k++) assert.equal(images.want(`u${k}`, 1), null, 'nothing to draw yet');
  assert.equal(pending.length, 0, 'nothing fetched inside the frame');
  images.trim(1);
  assert.equal(pending.length, MAX_FETCHES);
  assert.deepEqual(pending.map((p) => p.url), ['u9', 'u8', 'u7', 'u6']);
  pending[0].resolve(bitmap(300, 200));
  await settle();
  assert.deepEqual(loads, [['u9', { width: 300, height: 200 }]]);
  assert.equal(images.want('u9', 2).width, 300, 'ready to draw');
  assert.deepEqual(images.sizeOf('u9'), { width: 300, height: 200 });
  assert.equal(pending.length, MAX_FETCHES + 1, 'the next one started');
  pending[1].reject(new Error('image 502'));
  await settle();
  assert.equal(images.want('u8', 3), null, 'a failed image stays a placeholder');
  assert.equal(images.state().failed, 1);
});

test('a failed image is asked for again a while later', async () => {
  const { pending, load } = manualLoader();
  let clock = 0;
  const images = new FeedImages({ load, now: () => clock });
  images.want('u', 1);
  images.trim(1);
  pending[0].reject(new Error('image 504'));
  await settle();
  clock = RETRY_MS - 1;
  images.want('u', 2);
  images.trim(2);
  assert.equal(pending.length, 1, 'not yet');
  clock = RETRY_MS + 1;
  images.want('u', 3);
  images.trim(3);
  assert.equal(pending.length, 2);
  pending[1].resolve(bitmap(5, 5));
  await settle();
  assert.equal(images.want('u', 4).width, 5);
});

test('an image queued but no longer wanted (a fling went past it) is not fetched', () => {
  const { pending, load } = manualLoader();
  const images = new FeedImages({ load });
  for (let k = 0; k < 6; k++) images.want(`old${k}`, 1);
  images.want('new', 1 + STALE_FRAMES + 5);
  images.trim(1 + STALE_FRAMES + 5);
  assert.deepEqual(pending.map((p) => p.url), ['new']);
});

test('decoded images are kept within the budget: the least recently drawn are closed, their size remembered', async () => {
  const { pending, load } = manualLoader();
  const images = new FeedImages({ load });
  const made = [];
  const n = MAX_BITMAPS + 10;
  for (let k = 0; k < n; k++) {
    images.want(`u${k}`, k);
    images.trim(k);
    pending.at(-1).resolve(made[k] = bitmap(10, 20));
    await settle();
  }
  images.want(`u${n - 1}`, n);
  images.trim(n);
  assert.equal(images.state().held, MAX_BITMAPS);
  assert.ok(made[0].closed && made[9].closed && !made[10].closed && !made[n - 1].closed);
  assert.deepEqual(images.sizeOf('u0'), { width: 10, height: 20 }, 'the size outlives the bitmap');
  assert.equal(images.want('u0', n + 1), null, 'wanted again: fetched again');
  images.dispose();
  assert.ok(made[n - 1].closed);
});

test('an image of unknown size reserves 16:9; once loaded its row is laid out at the real shape and measured again', async () => {
  const { pending, load } = manualLoader();
  const feed = new FeedState();
  const layout = new RowLayout();
  const images = new FeedImages({ load, onLoad: (url) => layout.imageLoaded(url) });
  layout.images = images;
  const take = (msg) => { feed.receive(msg); layout.receive(msg); layout.sync(feed.rows); };
  take({ type: 'welcome', config: { feed: { rowHeight: 72 } } });
  layout.setWidth(390);
  const item = { id: 'a', text: 'short', author: 'A', time: 0, image: { url: 'https://a.example/a.png' } };
  take({ type: 'rows', op: 'replace', count: 1, items: [item] });
  const textW = textBox(390).w;
  const before = layout.row(0, 'f', measure7, measure7);
  assert.deepEqual({ w: before.image.w, h: before.image.h }, imageBox(item.image, textW));
  assert.equal(before.image.h, Math.round((textW * 9) / 16));
  layout.layOut(0, 0, 'f', measure7, measure7);
  const first = layout.takeMeasures()[0].rows[0][1];
  images.want(item.image.url, 1);
  images.trim(1);
  pending[0].resolve(bitmap(200, 300)); // portrait: 2:3
  await settle();
  const after = layout.row(0, 'f', measure7, measure7);
  assert.equal(after.image.h, 240, 'as high as an image may be');
  assert.equal(after.image.w, 160, 'its real shape');
  layout.layOut(0, 0, 'f', measure7, measure7);
  const [m] = layout.takeMeasures();
  assert.equal(m.rows[0][1], first - before.image.h + 240, 'the new height goes to the engine');
  // a size the source gave is kept over the loaded one
  assert.deepEqual(imageBox({ url: 'x', width: 100, height: 100 }, textW, { width: 10, height: 30 }), { w: 100, h: 100 });
  assert.equal(layoutRow(item, textW, measure7, measure7, () => ({ width: 100, height: 100 })).image.h, 100);
});

test('the painter draws a loaded image cover-fit into its box and a placeholder before', async () => {
  const { pending, load } = manualLoader();
  const feed = new FeedState();
  const layout = new RowLayout();
  const images = new FeedImages({ load, onLoad: (url) => layout.imageLoaded(url) });
  layout.images = images;
  const take = (msg) => { feed.receive(msg); layout.receive(msg); layout.sync(feed.rows); };
  take({ type: 'welcome', config: { feed: { rowHeight: 72 } } });
  layout.setWidth(390);
  const item = { id: 'a', text: 'short', author: 'A', time: 0, image: { url: 'u', width: 400, height: 200 } };
  take({ type: 'rows', op: 'replace', count: 1, items: [item] });
  layout.layOut(0, 0, 'f', measure7, measure7);
  take({ type: 'heights', rows: layout.takeMeasures()[0].rows });
  const ctx = fakeContext();
  const painter = new RowPainter();
  painter.ahead.budgetMs = Infinity; // every row in the frame: the budget is web/test/layoutAhead.test.js's subject
  const theme = { font: 'f', row: '#fff', separator: '#ccc', text: '#000', text2: '#666', skeleton: '#eee', imageRadius: '8px' };
  painter.drawLaidOut(ctx, theme, 1, layout.visible(0, 800), layout, 1, 390, 0, 0, 0);
  assert.equal(ctx.images.length, 0, 'a placeholder until it is decoded');
  assert.equal(pending.length, 1, 'asked for once the frame was drawn');
  pending[0].resolve(bitmap(100, 100)); // square: cropped to the box's 2:1, its middle kept
  await settle();
  painter.drawLaidOut(ctx, theme, 1, layout.visible(0, 800), layout, 1, 390, 0, 0, 0);
  assert.equal(ctx.images.length, 1);
  const box = layout.row(0, 'f', measure7, measure7).image;
  assert.deepEqual(ctx.images[0].src, [0, 25, 100, 50]);
  assert.deepEqual(ctx.images[0].box.slice(2), [box.w, box.h]);
});

test('cover-fit keeps the middle of a wide image in a tall box', () => {
  const ctx = fakeContext();
  drawCover(ctx, bitmap(400, 100), 10, 20, 100, 100, 100, 0);
  assert.deepEqual(ctx.images[0].src, [150, 0, 100, 100]);
  assert.deepEqual(ctx.images[0].box, [10, 20, 100, 100]);
});

test("an image's alternative text is its item's text, shortened, else \"image\"", () => {
  assert.equal(imageAlt({ text: '  A cat\n on a mat ' }), 'A cat on a mat');
  assert.equal(imageAlt({ text: '' }), 'image');
  const long = imageAlt({ text: 'x'.repeat(500) });
  assert.equal(long.length, ALT_CHARS);
  assert.ok(long.endsWith('…'));
});
