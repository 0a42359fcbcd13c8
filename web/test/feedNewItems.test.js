import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NewItems, SHOW_NEW_ITEMS } from '../js/feed/newItems.js';
import { FeedState } from '../js/feed/feedState.js';
import { message } from './feedSupport.js';

test('"N new" shows the count, "20+" beyond a page, and hides at 0', () => {
  const pill = new NewItems();
  assert.equal(pill.visible, false);
  assert.equal(pill.receive(message('new-items')), true);
  assert.equal(pill.visible, true);
  assert.equal(pill.countText, '1');
  pill.receive({ type: 'new_items', count: 5, more: false });
  assert.equal(pill.countText, '5');
  pill.receive(message('new-items-more'));
  assert.equal(pill.countText, '20+');
  assert.equal(pill.receive(message('new-items-more')), false, 'the same again changes nothing');
  assert.equal(pill.receive(message('new-items-none')), true);
  assert.equal(pill.visible, false);
  pill.receive({ type: 'new_items', count: -3, more: true });
  assert.equal(pill.visible, false, 'a count below 1 is none');
});

test('a tap scrolls to the top, then refreshes it; the pill hides until the refresh brings the rows', () => {
  const pill = new NewItems();
  assert.deepEqual(pill.tap(), [], 'nothing to tap while hidden');
  pill.receive(message('new-items'));
  const sent = pill.tap();
  assert.deepEqual(sent, [
    { type: 'command', name: 'scrollToEdge', edge: 'top' },
    { type: 'command', name: 'refresh', edge: 'top' },
  ]);
  assert.equal(sent, SHOW_NEW_ITEMS);
  assert.equal(pill.visible, false, 'hidden while the refresh it asked for runs');
  assert.deepEqual(pill.tap(), [], 'a second tap sends nothing more');
  pill.receive(message('new-items')); // the server's poll again, before the rows
  assert.equal(pill.visible, false);
  pill.receive(message('rows-prepend'));
  assert.equal(pill.visible, false);
  assert.equal(pill.count, 0);
  pill.receive(message('new-items'));
  assert.equal(pill.visible, true, 'newer items again');
});

test('a refresh that fails offers the items again; a failed load-more does not touch the pill', () => {
  const pill = new NewItems();
  pill.receive(message('new-items'));
  pill.tap();
  pill.receive(message('feed-request-failed')); // an older page's failure
  assert.equal(pill.visible, false);
  pill.receive({ type: 'feed_request', id: 9, kind: 'refresh', cursor: null, items: null, ms: 12, error: { code: 'unavailable', message: 'down' } });
  assert.equal(pill.visible, true);
  assert.equal(pill.countText, '1');
});

test('a pull to refresh that brings the rows hides it too, and so does a new welcome', () => {
  const feed = new FeedState();
  feed.receive(message('welcome'));
  feed.receive(message('rows-replace'));
  feed.receive(message('new-items-more'));
  assert.equal(feed.newItems.visible, true);
  feed.receive(message('rows-prepend'));
  assert.equal(feed.newItems.visible, false);
  feed.receive(message('new-items'));
  feed.receive(message('rows-append'));
  assert.equal(feed.newItems.visible, true, 'older items leave it');
  feed.receive(message('welcome'));
  assert.equal(feed.newItems.visible, false);
});
