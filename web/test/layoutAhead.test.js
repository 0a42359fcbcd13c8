// Which rows a frame lays out (js/feed/layoutAhead.js) within its time budget, what idle time lays out after it,
// and the widths measured once per font and string (js/feed/textWidths.js); docs/PAGE.md, "Rows of measured
// heights".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedState } from '../js/feed/feedState.js';
import { RowLayout } from '../js/feed/rowLayout.js';
import { LayoutAhead } from '../js/feed/layoutAhead.js';
import { TextWidths, MAX_FONTS } from '../js/feed/textWidths.js';
import { RowPainter } from '../js/feed/rowPainter.js';
import { measure7, fakeContext } from './feedSupport.js';

/** A layout of `n` rows of text at width 390, and a clock each measured string moves on by `msPerMeasure`. */
function setUp(n, msPerMeasure = 0) {
  const feed = new FeedState();
  const layout = new RowLayout();
  const clock = { t: 0 };
  const measure = (s) => {
    clock.t += msPerMeasure;
    return measure7(s);
  };
  const take = (msg) => {
    feed.receive(msg);
    layout.receive(msg);
    layout.sync(feed.rows);
  };
  take({ type: 'welcome', config: { feed: { rowHeight: 72 } } });
  const items = Array.from({ length: n }, (_, i) => ({ id: `r${i}`, text: `word${i} `.repeat(3 + (i % 20)), author: 'A', time: 0 }));
  take({ type: 'rows', op: 'replace', count: n, items });
  layout.setWidth(390);
  const idle = [];
  const ahead = new LayoutAhead({ now: () => clock.t, budgetMs: 1, idle: (run) => idle.push(run) });
  return { layout, ahead, clock, idle, measure };
}

const laid = (layout, from, to) => Array.from({ length: to - from + 1 }, (_, k) => layout.isLaid(from + k, 'f'));

test('a frame with time lays out the rows drawn and a margin on each side, and leaves nothing to idle time', () => {
  const { layout, ahead, idle, measure } = setUp(100);
  ahead.frame(layout, { first: 40, last: 45 }, 6, 'f', measure, measure);
  assert.deepEqual(laid(layout, 34, 51), Array(18).fill(true));
  assert.equal(layout.isLaid(33, 'f'), false);
  assert.equal(layout.isLaid(52, 'f'), false);
  assert.equal(ahead.deferred, 0);
  assert.equal(idle.length, 0);
  assert.equal(layout.pending.length, 18, 'every row laid out goes to the next measure');
});

test('past the budget the rows drawn wait for the next frame (placeholders), the first of them aside', () => {
  // every measured string costs 1 ms: the budget (1 ms) is spent by the first row
  const { layout, ahead, idle, measure } = setUp(100, 1);
  ahead.frame(layout, { first: 10, last: 13 }, 4, 'f', measure, measure);
  assert.equal(layout.isLaid(10, 'f'), true, 'the first row drawn is laid out whatever the budget');
  assert.equal(layout.laidRow(10) !== null, true);
  assert.deepEqual(laid(layout, 11, 13), [false, false, false]);
  assert.equal(layout.laidRow(11), null, 'a row not laid out is drawn as a placeholder');
  assert.equal(ahead.deferred, 3 + 8);
  assert.equal(idle.length, 1, 'what is left goes to idle time, asked for once');
  ahead.frame(layout, { first: 10, last: 13 }, 4, 'f', measure, measure);
  assert.equal(idle.length, 1, 'not asked again while it waits');
  assert.equal(layout.isLaid(11, 'f'), true, 'the next frame lays out the next row');
});

test('idle time lays out what the frames left, while its deadline lasts, then asks for more', () => {
  const { layout, ahead, idle, measure } = setUp(100, 1);
  let redraws = 0;
  layout.onAhead = () => { redraws += 1; };
  ahead.frame(layout, { first: 10, last: 13 }, 4, 'f', measure, measure);
  const run = idle.shift();
  run({ timeRemaining: () => 0 });
  assert.equal(redraws, 0, 'no time: nothing laid out');
  assert.equal(idle.length, 1, 'and asked again');
  let rounds = 0;
  while (idle.length && rounds < 100) {
    idle.shift()({ timeRemaining: () => 50 });
    rounds += 1;
  }
  assert.deepEqual(laid(layout, 6, 17), Array(12).fill(true));
  assert.equal(ahead.deferred, 0);
  assert.ok(redraws >= 1, 'the session is told, so the heights go out with a draw');
  assert.equal(ahead.laidIdle + ahead.laidInFrames, 12);
});

test('the side the list moves towards is laid out first', () => {
  const { layout, ahead, clock, measure } = setUp(200);
  ahead.frame(layout, { first: 100, last: 103 }, 0, 'f', measure, measure);
  ahead.frame(layout, { first: 90, last: 93 }, 0, 'f', measure, measure); // moving up
  assert.equal(ahead.direction, -1);
  // each row's layout measures its author once: 1 ms a row, a budget of 1.5 ms
  const slow = (s) => {
    if (s === 'A') clock.t += 1;
    return measure7(s);
  };
  ahead.budgetMs = 1.5;
  ahead.frame(layout, { first: 80, last: 80 }, 3, 'f', slow, slow);
  assert.deepEqual(laid(layout, 77, 83), [false, false, true, true, false, false, false], 'the row above first');
  ahead.frame(layout, { first: 120, last: 120 }, 3, 'f', slow, slow); // moving down
  assert.equal(ahead.direction, 1);
  assert.deepEqual(laid(layout, 117, 123), [false, false, false, true, true, false, false], 'the row below first');
});

test('the widths are measured once per font and string, and bounded', () => {
  const asked = [];
  const widths = new TextWidths((font, s) => {
    asked.push(`${font}|${s}`);
    return s.length;
  }, 3);
  assert.equal(widths.of('a', 'xy'), 2);
  assert.equal(widths.of('a', 'xy'), 2);
  assert.equal(widths.of('b', 'xy'), 2);
  assert.deepEqual(asked, ['a|xy', 'b|xy']);
  widths.of('a', 'p');
  widths.of('a', 'q');
  assert.equal(widths.size, 4);
  widths.of('a', 'r'); // a fourth string in font a: its widths start again
  assert.equal(widths.size, 2);
  for (let k = 0; k < MAX_FONTS + 1; k++) widths.of(`font${k}`, 'z');
  assert.ok(widths.fonts.size <= MAX_FONTS, 'fonts are bounded too');
  assert.equal(widths.misses, asked.length);
});

test('the painter measures each word once however many rows and frames show it', () => {
  const { layout } = setUp(60);
  const ctx = fakeContext();
  const painter = new RowPainter();
  painter.ahead.budgetMs = Infinity; // every row in the frame: the budget is web/test/layoutAhead.test.js's subject
  const theme = { font: 'sans-serif', row: '#fff', separator: '#ccc', text: '#000', text2: '#666' };
  for (let y = 0; y < 3000; y += 150) {
    const range = layout.visible(y, 844);
    painter.drawLaidOut(ctx, theme, 2, range, layout, 4, 390, 0, -y, 0);
  }
  // 60 distinct words, two fonts' spaces and ellipses, the authors: far fewer than the rows' words
  assert.ok(ctx.measures < 120, `measured ${ctx.measures} strings`);
  assert.equal(painter.widths.misses, ctx.measures);
});
