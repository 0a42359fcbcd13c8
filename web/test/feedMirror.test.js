import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MIRROR_MARGIN, mirrorRange, setSizeOf, isBusy, articleContent, scrollToShow, focusStep, rowHeightOf,
} from '../js/feedMirror.js';

const feed = { count: 100, hasMore: true, loading: false, newest: 1000, rowHeight: 72 };

test('the mirror holds the visible rows and a margin on each side, within the feed', () => {
  // offset 0, 800 px: rows 0…11 visible (11·72 = 792 < 800)
  assert.deepEqual(mirrorRange(feed, 0, 800), { first: 0, last: 11 + MIRROR_MARGIN });
  // offset 720 (row 10 at the top): rows 10…21 visible
  assert.deepEqual(mirrorRange(feed, 720, 800), { first: 10 - MIRROR_MARGIN, last: 21 + MIRROR_MARGIN });
  // near the end the margin stops at the last row
  assert.deepEqual(mirrorRange(feed, 100 * 72 - 800, 800), { first: 88 - MIRROR_MARGIN, last: 99 });
  // pulled past the top (negative offset): still from row 0
  assert.deepEqual(mirrorRange(feed, -120, 800), { first: 0, last: 9 + MIRROR_MARGIN });
});

test('the focused row stays in the mirror wherever the list scrolled', () => {
  assert.deepEqual(mirrorRange(feed, 3600, 800, 2), { first: 2, last: 61 + MIRROR_MARGIN });
  assert.deepEqual(mirrorRange(feed, 0, 800, 90), { first: 0, last: 90 });
  assert.deepEqual(mirrorRange(feed, 0, 800, 500), { first: 0, last: 16 }, 'an index beyond the feed is ignored');
});

test('no rows, no mirror', () => {
  assert.equal(mirrorRange({ ...feed, count: 0 }, 0, 800), null);
  assert.equal(mirrorRange(null, 0, 800), null);
  assert.equal(mirrorRange(feed, 0, 0), null);
});

test('aria-setsize is the count, or -1 while more can load', () => {
  assert.equal(setSizeOf(feed), -1);
  assert.equal(setSizeOf({ ...feed, hasMore: false }), 100);
  assert.equal(setSizeOf(null), -1);
});

test('busy while an edge refreshes or the feed loads', () => {
  const edges = (top, bottom) => [{ edge: 'top', state: top }, { edge: 'bottom', state: bottom }];
  assert.equal(isBusy({ feed, edges: edges('idle', 'idle') }), false);
  assert.equal(isBusy({ feed, edges: edges('refreshing', 'idle') }), true);
  assert.equal(isBusy({ feed, edges: edges('idle', 'refreshing') }), true);
  assert.equal(isBusy({ feed, edges: edges('finishing', 'noMoreData') }), false);
  assert.equal(isBusy({ feed: { ...feed, loading: true }, edges: [] }), true);
  assert.equal(isBusy(null), false);
});

test('an article whose item the page does not have yet says nothing', () => {
  assert.deepEqual(articleContent(feed, 3), { title: '', byline: '', subtitle: '', time: '', link: '' });
});

test('scrolling to show a focused row: nothing when it is wholly in view, else the least that shows it', () => {
  assert.equal(scrollToShow(2, 0, 800, 72), 0);
  assert.equal(scrollToShow(11, 0, 800, 72), 64); // 792…864, cut at 800: 64 px more shows it whole
  assert.equal(scrollToShow(11, 64, 800, 72), 0);
  assert.equal(scrollToShow(11, 0, 500, 72), 11 * 72 + 72 - 500); // below: its bottom to the viewport's
  assert.equal(scrollToShow(3, 300, 800, 72), 3 * 72 - 300); // above: its top to the viewport's
  assert.equal(scrollToShow(0, 0, 50, 72), 0, 'a row taller than the viewport: aligned at its top');
  assert.equal(scrollToShow(1, 0, 50, 72), 72);
});

test('Page Down / Page Up move one row, and stop at the ends', () => {
  assert.equal(focusStep('PageDown', 4, 10), 5);
  assert.equal(focusStep('PageUp', 4, 10), 3);
  assert.equal(focusStep('PageDown', 9, 10), null);
  assert.equal(focusStep('PageUp', 0, 10), null);
  assert.equal(focusStep('ArrowDown', 4, 10), null);
});

test('row height falls back to the renderer default', () => {
  assert.equal(rowHeightOf({ rowHeight: 44 }), 44);
  assert.equal(rowHeightOf({}), 72);
});
