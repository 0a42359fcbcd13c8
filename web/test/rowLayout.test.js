// The page's row layout (js/feed/rowLayout.js, docs/PAGE.md "Rows of measured heights"), fed with the messages as
// docs/PROTOCOL.md writes them: rows placed by the engine's accepted heights and the estimate, never by the
// page's own measurement; `measure` messages for the rows laid out, in batches, once per width and height.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedState } from '../js/feed/feedState.js';
import { HeightTree } from '../js/feed/heightTree.js';
import {
  RowLayout, layoutRow, imageBox, textBox, MEASURE_BATCH, MIN_ROW, MAX_LINES, MAX_IMAGE_H,
} from '../js/feed/rowLayout.js';
import { RowPainter } from '../js/feed/rowPainter.js';
import { mirrorRange } from '../js/feedMirror.js';
import { message, measure7, fakeContext } from './feedSupport.js';

const welcome = (rowHeight = 72) => ({ ...message('welcome'), config: { feed: { rowHeight } } });

/** A session's feed and its layout, as the live session wires them: every message to both. */
function session(rowHeight = 72, width = 390) {
  const feed = new FeedState();
  const layout = new RowLayout();
  const take = (msg) => {
    feed.receive(msg);
    layout.receive(msg);
    layout.sync(feed.rows);
  };
  take(welcome(rowHeight));
  layout.setWidth(width);
  return { feed, layout, take };
}

const lay = (layout, first = 0, last = layout.count - 1) => layout.layOut(first, last, 'f', measure7, measure7);
const tops = (layout) => Array.from({ length: layout.count + 1 }, (_, i) => layout.top(i));

function items(n, from = 0, text = (i) => `item ${i} `.repeat(1 + (i % 9))) {
  return Array.from({ length: n }, (_, k) => ({ id: `r${from + k}`, text: text(from + k), author: 'A', time: 0 }));
}

test('rows are placed at the estimate until the engine accepts a height, in the mirror order', () => {
  const { layout, take } = session(72);
  take(message('rows-replace'));
  assert.deepEqual(tops(layout), [0, 72, 144, 216]);
  lay(layout);
  assert.deepEqual(tops(layout), [0, 72, 144, 216], 'its own measurement does not move a row');
  take(message('heights'));
  assert.deepEqual(tops(layout), [0, 72, 172, 502]);
  assert.equal(layout.height, 502);
  assert.equal(layout.indexAt(171.9), 1);
  assert.equal(layout.indexAt(172), 2);
  assert.equal(layout.indexAt(-40), 0);
  assert.equal(layout.indexAt(9999), 2);
  // newer rows on top keep the heights accepted for the rows below them
  take({ type: 'rows', op: 'prepend', count: 4, items: [{ id: '43', text: 'new', time: 1 }] });
  assert.deepEqual(tops(layout), [0, 72, 144, 244, 574]);
  // a height for a row not loaded yet is kept for when it comes
  take({ type: 'heights', rows: [['39', 90]] });
  take({ type: 'rows', op: 'append', count: 5, items: [{ id: '39', text: 'old', time: 0 }] });
  assert.equal(layout.rowHeight(4), 90);
  // a new estimate moves the rows without a height
  take({ type: 'config', config: { feed: { rowHeight: 60 } } });
  assert.deepEqual(tops(layout), [0, 60, 120, 220, 550, 640]);
});

test('the rows laid out go to the engine as measure messages, once per width and height', () => {
  const { layout, take } = session(72, 390);
  take(message('rows-replace'));
  lay(layout);
  const own = [0, 1, 2].map((i) => layout.row(i, 'f', measure7, measure7).height);
  const sent = layout.takeMeasures();
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type, 'measure');
  assert.equal(sent[0].width, 390);
  assert.equal(sent[0].seq, undefined, "the session's input path numbers it");
  // the 72 px rows the engine already has at 72 are not sent
  const expect = [['42', own[0]], ['41', own[1]], ['40', own[2]]].filter(([, h]) => h !== 72);
  assert.deepEqual(sent[0].rows, expect);
  assert.ok(own[2] > 250, `the image's box is reserved: ${own[2]}`);
  lay(layout);
  assert.deepEqual(layout.takeMeasures(), [], 'not sent twice');
  // the engine accepts another height (another device's): not sent again (no ping-pong)
  take({ type: 'heights', rows: [['40', own[2] + 3]] });
  lay(layout);
  assert.deepEqual(layout.takeMeasures(), []);
  // a welcome (the connection opened again) sends what differs again
  take(welcome(72));
  lay(layout);
  assert.deepEqual(layout.takeMeasures().flatMap((m) => m.rows).map(([id]) => id).sort(), expect.map(([id]) => id).sort());
});

test('a height sent that no longer holds is not awaited, and the row measured again when it changes back', () => {
  const { layout, take } = session(72, 390);
  const day = (id, text) => ({ id, text, section: 'Friday', time: 0 });
  // the window holds the second row down, a placeholder above it: the row starts its section, with a band
  take({ type: 'rows', op: 'replace', count: 2, above: 1, items: [day('b', 'short')] });
  lay(layout);
  const banded = layout.row(1, 'f', measure7, measure7).height;
  assert.deepEqual(layout.takeMeasures()[0].rows, [['b', banded]]);
  assert.equal(layout.awaiting(), 1);
  // the row above loads, of the same section: the band goes; another device's measurement (72) is taken
  take({ type: 'rows', op: 'replace', count: 2, items: [day('a', 'short'), day('b', 'short')] });
  take({ type: 'heights', rows: [['a', banded], ['b', 72]] });
  lay(layout);
  assert.equal(layout.row(1, 'f', measure7, measure7).height, 72);
  assert.equal(layout.awaiting(), 0, 'the page and the engine agree on the row now');
  assert.deepEqual(layout.takeMeasures(), []);
  // the row above drops to a placeholder again: the band is back, and this height is news to the engine
  take({ type: 'rows', op: 'replace', count: 2, above: 1, items: [day('b', 'short')] });
  take({ type: 'heights', rows: [['b', 72]] });
  lay(layout);
  assert.deepEqual(layout.takeMeasures()[0].rows, [['b', banded]]);
});

test('measure batches carry at most 256 rows; only rows laid out are measured', () => {
  const { layout, take } = session(72, 390);
  take({ type: 'rows', op: 'replace', count: 700, items: items(700, 0, () => 'long text '.repeat(12)) });
  lay(layout, 0, 9);
  const few = layout.takeMeasures();
  assert.equal(few.length, 1);
  assert.equal(few[0].rows.length, 10);
  lay(layout);
  const many = layout.takeMeasures();
  assert.deepEqual(many.map((m) => m.rows.length), [MEASURE_BATCH, MEASURE_BATCH, 690 - 2 * MEASURE_BATCH]);
  const ids = many.flatMap((m) => m.rows.map(([id]) => id));
  assert.equal(new Set(ids).size, 690);
  for (const m of many) for (const [, h] of m.rows) assert.ok(Number.isFinite(h) && h > 0 && h <= 16384);
});

test('a new width of the session viewport lays the rows out again and measures them again', () => {
  const { layout, take } = session(72, 390);
  take(message('rows-replace'));
  lay(layout);
  const at390 = layout.takeMeasures()[0].rows;
  take({ type: 'heights', rows: at390 });
  const before = tops(layout);
  layout.setWidth(390);
  lay(layout);
  assert.deepEqual(layout.takeMeasures(), [], 'the same width: nothing');
  layout.setWidth(200);
  assert.deepEqual(tops(layout), before, 'rows stay where the engine put them until it accepts new heights');
  lay(layout);
  const at200 = layout.takeMeasures();
  assert.equal(at200.length, 1);
  assert.equal(at200[0].width, 200);
  const of = (rows, id) => rows.find(([i]) => i === id)?.[1] ?? 72;
  assert.ok(of(at200[0].rows, '41') > of(at390, '41'), 'a narrower text is taller');
  assert.ok(of(at200[0].rows, '40') < of(at390, '40'), 'a narrower image is lower');
  take({ type: 'heights', rows: at200[0].rows });
  assert.notDeepEqual(tops(layout), before);
});

test("a row's layout: a line limit with an ellipsis, an author line, the image box from its size", () => {
  const tw = textBox(390).w;
  const long = layoutRow({ id: 'a', text: 'word '.repeat(400), author: 'Ann' }, tw, measure7, measure7);
  assert.equal(long.lines.length, MAX_LINES);
  assert.ok(long.lines.at(-1).endsWith('…'));
  assert.equal(long.byline, 'Ann');
  const short = layoutRow({ id: 'b', text: 'hi', author: null }, tw, measure7, measure7);
  assert.equal(short.height, MIN_ROW);
  assert.equal(short.byline, null);
  assert.ok(long.height > short.height);
  assert.deepEqual(imageBox({ url: 'x', width: 640, height: 480 }, 300), { w: 300, h: 225 });
  assert.deepEqual(imageBox({ url: 'x', width: 100, height: 50 }, 300), { w: 100, h: 50 });
  assert.deepEqual(imageBox({ url: 'x', width: 100, height: 1000 }, 300), { w: 24, h: MAX_IMAGE_H });
  assert.deepEqual(imageBox({ url: 'x' }, 320), { w: 320, h: 180 }, 'no size: 16:9');
  const img = layoutRow({ id: 'c', text: 'x', image: { url: 'u', width: 640, height: 480 } }, 300, measure7, measure7);
  assert.equal(img.height, img.image.y + 225 + 12);
});

test('the height tree agrees with plain sums through random changes', () => {
  const tree = new HeightTree();
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const hs = Array.from({ length: 333 }, () => 20 + Math.floor(rand() * 300));
  tree.reset(hs.length, (i) => hs[i]);
  for (let step = 0; step < 500; step++) {
    const i = Math.floor(rand() * hs.length);
    hs[i] = 1 + Math.floor(rand() * 500);
    tree.set(i, hs[i]);
    const j = Math.floor(rand() * (hs.length + 1));
    const sum = hs.slice(0, j).reduce((a, b) => a + b, 0);
    assert.equal(tree.top(j), sum);
    if (j < hs.length) {
      assert.equal(tree.indexAt(sum), j);
      assert.equal(tree.indexAt(sum + hs[j] - 0.5), j);
    }
  }
  assert.equal(tree.total, hs.reduce((a, b) => a + b, 0));
});

test('the painter draws each row at its top from the layout, and a frame of the same rows lays out nothing', () => {
  const { layout, take } = session(72, 390);
  take(message('rows-replace'));
  take(message('heights'));
  const ctx = fakeContext();
  ctx.save = () => {};
  const painter = new RowPainter();
  painter.ahead.budgetMs = Infinity; // every row in the frame: the budget is web/test/layoutAhead.test.js's subject
  const theme = { font: 'sans-serif', row: '#fff', separator: '#ccc', text: '#000', text2: '#666', skeleton: '#eee' };
  const range = layout.visible(0, 800);
  assert.deepEqual({ ...range }, { first: 0, last: 2 });
  painter.drawLaidOut(ctx, theme, 1, range, layout, 3, 390, 0, -10, 1732480100000);
  const authors = ctx.texts.filter((t) => t.s === 'Lao Tzu' || t.s === 'Mark Twain').map((t) => t.y);
  assert.deepEqual(authors, [0 - 10 + 22, 72 - 10 + 22]);
  const laid = layout.laidOut;
  painter.drawLaidOut(ctx, theme, 1, layout.visible(100, 800), layout, 3, 390, 0, -100, 1732480100000);
  assert.equal(layout.laidOut, laid, 'nothing laid out again');
  // the mirror follows the same rows
  assert.deepEqual(mirrorRange({ count: 3, rowHeight: 72 }, 180, 100, null, 0, layout), { first: 2, last: 2 });
  assert.deepEqual(mirrorRange({ count: 3, rowHeight: 72 }, 0, 100, null, 0, layout), { first: 0, last: 1 });
});

test('pages dropped far away stay as placeholders at the estimate; reloaded, they are measured again', () => {
  const { feed, layout, take } = session(72, 390);
  const long = (n, from = 0) => items(n, from, () => 'long text '.repeat(12));
  take({ type: 'rows', op: 'replace', count: 6, items: long(6) });
  lay(layout);
  take({ type: 'heights', rows: layout.takeMeasures()[0].rows });
  const measured = tops(layout);
  assert.ok(measured[6] > 6 * 72);
  take({ type: 'rows', op: 'drop', at: 'top', count: 2 });
  assert.equal(feed.rows.problem, null);
  assert.equal(feed.rows.count, 6);
  assert.deepEqual([feed.rows.item(0), feed.rows.item(1)], [null, null]);
  assert.equal(layout.rowHeight(0), 72, 'a placeholder at the estimate');
  assert.equal(layout.rowHeight(1), 72);
  assert.equal(layout.rowHeight(2), measured[3] - measured[2], 'the loaded rows keep their heights');
  take({ type: 'rows', op: 'drop', at: 'bottom', count: 1 });
  assert.equal(feed.rows.item(5), null);
  take({ type: 'rows', op: 'reload', at: 'top', items: long(2) });
  assert.deepEqual(feed.rows.items.map((it) => it?.id ?? null), ['r0', 'r1', 'r2', 'r3', 'r4', null]);
  lay(layout);
  const again = layout.takeMeasures();
  assert.deepEqual(again[0].rows.map(([id]) => id), ['r0', 'r1'], 'the reloaded rows are measured again');
  take({ type: 'rows', op: 'reload', at: 'bottom', items: long(1, 5) });
  assert.equal(feed.rows.item(5).id, 'r5');
  assert.match(feed.rows.apply({ type: 'rows', op: 'drop', at: 'middle', items: [] }), /at: top or bottom/);
});

test('held heights and rows move together at commit; the shift of the row at the anchor is returned', () => {
  const feed = new FeedState();
  const layout = new RowLayout({ hold: true });
  const take = (msg) => {
    feed.receive(msg);
    layout.receive(msg);
  };
  take(welcome(72));
  take({ type: 'rows', op: 'replace', count: 10, items: items(10, 10) });
  assert.equal(layout.count, 0, 'held until the frame');
  assert.equal(layout.commit(feed.rows, 0), 0);
  assert.equal(layout.count, 10);
  take({ type: 'heights', rows: [['r10', 100], ['r11', 200]] });
  assert.equal(layout.top(2), 144, 'held');
  assert.ok(layout.holding(feed.rows));
  // the reader looks at row r13 (content y 250 … 322 at the estimate); rows above grow by 28 + 128
  assert.equal(layout.commit(feed.rows, 250), 156);
  assert.equal(layout.top(3), 100 + 200 + 72);
  // three rows on top: r13 is found again by its id
  take({ type: 'rows', op: 'prepend', count: 13, items: items(3, 7) });
  take({ type: 'heights', rows: [['r7', 90]] });
  assert.equal(layout.commit(feed.rows, layout.top(3) + 10), 90 + 72 + 72);
  assert.equal(layout.holding(feed.rows), false);
  assert.equal(layout.commit(feed.rows, 500), 0, 'nothing held: nothing moves');
});

test("a section's first row draws its header in a band above its content, and the header at the top is pinned", () => {
  const { layout, take } = session(72, 390);
  const sectioned = [
    { id: 'a1', text: 'one', section: 'Monday', time: 0 },
    { id: 'a2', text: 'two', section: 'Monday', time: 0 },
    { id: 'b1', text: 'three', section: 'Sunday', time: 0 },
    { id: 'b2', text: 'four', section: 'Sunday', time: 0 },
  ];
  take({ type: 'rows', op: 'replace', count: 4, items: sectioned });
  lay(layout);
  const plain = layoutRow(sectioned[1], textBox(390).w, measure7, measure7);
  assert.deepEqual([0, 1, 2, 3].map((i) => layout.laidRow(i).band), [28, 0, 28, 0]);
  assert.equal(layout.laidRow(0).height, plain.height + 28, 'the band is in the row, so in its measured height');
  // the engine accepts the heights: the rows are placed at them, 100, 72, 100, 72
  take({ type: 'heights', rows: [['a1', 100], ['a2', 72], ['b1', 100], ['b2', 72]] });
  assert.deepEqual(layout.pinnedAt(0, 0), { section: 'Monday', y: 0 });
  assert.deepEqual(layout.pinnedAt(100, 0), { section: 'Monday', y: 0 }, 'Sunday\'s row 72 px below the top');
  assert.deepEqual(layout.pinnedAt(150, 0), { section: 'Monday', y: -6 }, 'pushed by Sunday\'s first row at 172');
  assert.deepEqual(layout.pinnedAt(172, 0), { section: 'Sunday', y: 0 });
  assert.deepEqual(layout.pinnedAt(-40, 0), { section: 'Monday', y: 40 }, 'pulled down: on its own row');
  assert.deepEqual(layout.pinnedAt(-60, 60), { section: 'Monday', y: 60 }, 'under a refresh\'s inset');
  // a new header height lays the section rows out again
  take({ type: 'config', config: { feed: { rowHeight: 72, sectionHeaderHeight: 40 } } });
  lay(layout);
  assert.equal(layout.laidRow(2).band, 40);
  // the painter draws the band on the row and the pinned header over the rows
  const ctx = fakeContext();
  const painter = new RowPainter();
  painter.ahead.budgetMs = Infinity;
  const theme = { font: 'sans-serif', row: '#fff', separator: '#ccc', text: '#000', text2: '#666', skeleton: '#eee' };
  painter.drawLaidOut(ctx, theme, 1, layout.visible(150, 400), layout, 3, 390, 0, -150, 0, 0);
  assert.deepEqual(painter.drawnPinned, { section: 'Monday', y: 172 - 40 - 150 });
  assert.ok(ctx.texts.some((t) => t.s === 'Sunday' && t.y === 172 - 150 + 20.5), 'Sunday drawn on its row');
});

test('rows that come on top, even as placeholders, keep the heights of the rows they push down', () => {
  const { layout, take } = session(72, 390);
  take({ type: 'rows', op: 'replace', count: 3, items: items(3) });
  take({ type: 'heights', rows: [['r0', 100], ['r1', 90], ['r2', 80]] });
  assert.deepEqual(tops(layout), [0, 100, 190, 270]);
  // a session whose window holds pages far from the top: the new rows are placeholders above (a replace's `above`)
  take({ type: 'rows', op: 'replace', count: 6, above: 3, items: items(3) });
  assert.deepEqual(tops(layout), [0, 72, 144, 216, 316, 406, 486], 'r0…r2 keep 100, 90, 80 three rows down');
  // a row no longer in the mirror is forgotten (the engine forgets it too): loaded again, it is at the estimate
  take({ type: 'rows', op: 'replace', count: 2, items: items(2, 1) });
  take({ type: 'rows', op: 'replace', count: 3, items: items(3) });
  assert.deepEqual(tops(layout), [0, 72, 162, 242]);
});
