import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapText, ellipsize, WrapCache } from '../js/draw/wrap.js';
import { RowPainter, layoutItem, textLines, initialsOf, TEXT_BASELINE, TITLE_BASELINE } from '../js/feed/rowPainter.js';
import { FeedState } from '../js/feed/feedState.js';
import { message, measure7, fakeContext } from './feedSupport.js';

test('text wraps at words into the lines a row has, the last one ending in an ellipsis', () => {
  const text = 'A journey of a thousand miles begins with a single step.';
  assert.deepEqual(wrapText(text, [140, 140], measure7), ['A journey of a', 'thousand miles…']);
  assert.deepEqual(wrapText(text, [1000], measure7), [text]);
  assert.deepEqual(wrapText('  two\n\n words ', [200], measure7), ['two words'], 'whitespace runs read as one space');
  assert.deepEqual(wrapText('', [100], measure7), []);
  // a word wider than a line is cut between characters
  assert.deepEqual(wrapText('abcdefghijklmnop', [70, 70], measure7), ['abcdefghij', 'klmnop']);
  assert.deepEqual(wrapText('abcdefghijklmnopqrstuvwxyz', [70, 70], measure7), ['abcdefghij', 'klmnopqrs…']);
  for (const line of wrapText(text.repeat(5), [140, 140, 100], measure7)) assert.ok(measure7(line) <= 140);
  assert.equal(ellipsize('Mark Twain', 63, measure7), 'Mark Twa…', 'a cut word when a whole one leaves too much room');
  assert.equal(ellipsize('Whenever you find yourself', 140, measure7), 'Whenever you find…');
  assert.equal(ellipsize('Mark', 70, measure7), 'Mark');
});

test('an item row: the author on the title line, the text under it in the lines the height allows', () => {
  assert.equal(textLines(72), 2);
  assert.equal(textLines(52), 1);
  assert.equal(textLines(110), 4);
  const [a, , c] = message('rows-replace').items;
  const row = layoutItem(a, 200, 2, measure7, measure7);
  assert.equal(row.title, 'Lao Tzu');
  assert.equal(row.textY, TEXT_BASELINE);
  assert.deepEqual(row.lines, ['A journey of a thousand', 'miles begins with a single…']);
  assert.equal(row.initials, 'LT');
  const noAuthor = layoutItem(c, 200, 2, measure7, measure7);
  assert.equal(noAuthor.title, null);
  assert.equal(noAuthor.textY, TITLE_BASELINE, 'no author: the text starts on the title line');
  assert.equal(noAuthor.lines.length, 3);
  assert.ok(measure7(noAuthor.lines[0]) <= 200 - 44, 'beside the age');
  assert.equal(initialsOf('Edsger W. Dijkstra'), 'ED');
  assert.equal(initialsOf('   '), '·');
});

test('drawing the same rows again measures nothing; a new width lays them out again', () => {
  const feed = new FeedState();
  feed.receive(message('welcome'));
  feed.receive(message('rows-replace'));
  const painter = new RowPainter();
  const ctx = fakeContext();
  const theme = { font: 'sans-serif', row: '#fff', separator: '#ccc', text: '#000', text2: '#666' };
  const frameFeed = { count: 3, rowHeight: 72 };
  const now = 1732480100000;
  painter.draw(ctx, theme, 2, { first: 0, last: 2 }, frameFeed, feed.rows, 72, 390, 0, 0, now);
  const drawn = ctx.texts.map((t) => t.s);
  assert.ok(drawn.includes('Lao Tzu') && drawn.includes('Mark Twain'));
  assert.ok(drawn.includes('A journey of a thousand miles begins with a'), drawn.join(' | '));
  assert.ok(drawn.includes('the majority, it is time to pause and…'), drawn.join(' | '));
  assert.deepEqual(drawn.filter((s) => /^(now|\d+[mhdy])$/.test(s)), ['1m', '3m', '1h'], 'ages youngest first');
  const measured = ctx.measures;
  assert.equal(painter.wraps.misses, 3);
  ctx.texts.length = 0;
  painter.draw(ctx, theme, 2, { first: 0, last: 2 }, frameFeed, feed.rows, 72, 390, 0, -10, now + 500);
  assert.equal(ctx.measures, measured, 'a frame that shows the same rows measures nothing');
  assert.equal(painter.wraps.misses, 3);
  painter.draw(ctx, theme, 2, { first: 0, last: 2 }, frameFeed, feed.rows, 72, 300, 0, 0, now);
  assert.equal(painter.wraps.misses, 6, 'a new width');
  // rows the mirror does not have yet (the frame ahead of the rows) are drawn empty, not wrong
  ctx.texts.length = 0;
  painter.draw(ctx, theme, 2, { first: 2, last: 4 }, { count: 5, rowHeight: 72 }, feed.rows, 72, 300, 0, 0, now);
  assert.equal(ctx.texts.filter((t) => t.s === 'now' || /^\d/.test(t.s)).length, 1);
});

test('rows whose items have not come are drawn empty; a wrap is kept per item, width and font', () => {
  const painter = new RowPainter();
  const ctx = fakeContext();
  const theme = { font: 'sans-serif', row: '#fff', separator: '#ccc', text: '#000', text2: '#666' };
  painter.draw(ctx, theme, 1, { first: 0, last: 3 }, { count: 204, rowHeight: 72 }, null, 72, 390, 0, 0, 0);
  assert.deepEqual(ctx.texts, [], 'no text for rows the page does not have');
  const cache = new WrapCache(2);
  const item = { id: 'x', text: 't', author: null };
  assert.equal(cache.get(item, 1, 'f'), null);
  cache.put(item, 1, 'layout');
  assert.equal(cache.get(item, 1, 'f'), 'layout');
  assert.equal(cache.get({ ...item, text: 'changed' }, 1, 'f'), null, 'a changed text');
  assert.equal(cache.get(item, 1, 'other font'), null, 'a new font forgets');
});
