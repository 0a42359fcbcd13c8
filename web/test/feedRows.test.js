import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedRows, itemOf, startsSection } from '../js/feed/feedRows.js';
import { FeedState } from '../js/feed/feedState.js';
import { message } from './feedSupport.js';

test('rows replace, prepend and append keep the items newest first, at the count the server says', () => {
  const rows = new FeedRows();
  assert.equal(rows.apply(message('rows-replace')), null);
  assert.deepEqual(rows.items.map((i) => i.id), ['42', '41', '40']);
  assert.equal(rows.apply(message('rows-prepend')), null);
  assert.deepEqual(rows.items.map((i) => i.id), ['44', '43', '42', '41', '40']);
  assert.equal(rows.apply(message('rows-append')), null);
  assert.deepEqual(rows.items.map((i) => i.id), ['44', '43', '42', '41', '40', '39', '38']);
  assert.equal(rows.count, 7);
  assert.equal(rows.item(0).text, 'posted from device A');
  assert.equal(rows.item(7), null);
  assert.equal(rows.version, 3);
  assert.equal(rows.problem, null);
});

test('an item keeps what the wire gives: author, title, url, section, time and image only when present', () => {
  const [a, , c] = message('rows-replace').items.map(itemOf);
  assert.deepEqual(a, {
    id: '42', text: 'A journey of a thousand miles begins with a single step.', author: 'Lao Tzu', title: null, url: null,
    section: null, time: 1732480000123.5, image: null,
  });
  assert.equal(itemOf({ id: 'x', text: '', section: 'Monday' }).section, 'Monday');
  assert.equal(itemOf({ id: 'x', text: '', section: '' }).section, null);
  assert.equal(c.author, null);
  assert.deepEqual(c.image, { url: 'https://example.org/40.jpg', width: 640, height: 480 });
  assert.equal(itemOf({ text: 'no id' }), null);
  assert.equal(itemOf({ id: 7, text: 3 }).id, '7');
  assert.equal(itemOf({ id: 7, text: 3 }).text, '');
  // a title and a link (JSON Feed's names), kept as given; an empty one is none
  const titled = itemOf({ id: 'x', text: '', title: 'T', url: 'javascript:alert(1)' });
  assert.equal(titled.title, 'T');
  assert.equal(titled.url, 'javascript:alert(1)', 'kept; js/feed/itemLink.js decides what may open');
  assert.equal(itemOf({ id: 'x', text: 't', title: '', url: 7 }).title, null);
  assert.equal(itemOf({ id: 'x', text: 't', title: '', url: 7 }).url, null);
});

test('a rows message that does not come out at its count is said, and a later replace that does clears it', () => {
  const rows = new FeedRows();
  rows.apply(message('rows-replace'));
  const problem = rows.apply({ ...message('rows-append'), count: 9 });
  assert.match(problem, /append left 5 items, the server counts 9/);
  assert.equal(rows.problem, problem);
  assert.equal(rows.count, 5, 'the mirror keeps what it was sent');
  assert.equal(rows.apply(message('rows-replace')), null);
  assert.equal(rows.problem, null);
  assert.match(rows.apply({ type: 'rows', op: 'insert', items: [] }), /op must be one of replace, prepend, append/);
  assert.equal(rows.count, 3, 'an unknown op changes nothing');
  assert.match(rows.apply({ type: 'rows', op: 'append', count: 4, items: [{ text: 'x' }, { id: '1', text: 'y' }] }), /1 item\(s\) without an id/);
});

test('the feed state: the welcome says the source, rows fill it, requests and "N new" follow', () => {
  const feed = new FeedState();
  assert.equal(feed.kind, 'simulated', 'simulated until a welcome says otherwise');
  assert.equal(feed.receive({ type: 'frame' }), null);
  assert.equal(feed.receive(message('welcome')), 'feed');
  assert.equal(feed.source, 'sqlite:demo.sqlite');
  assert.equal(feed.kind, 'sqlite');
  assert.equal(feed.postable, true);
  assert.deepEqual(feed.requests.list.map((r) => r.id), [2, 1]);
  feed.receive(message('rows-replace'));
  assert.equal(feed.rows.count, 3);
  assert.match(feed.receive({ ...message('rows-prepend'), count: 3 }), /prepend left 5 items/);
  feed.receive(message('feed-request-failed'));
  assert.deepEqual(feed.errorFor('loadMore'), { code: 'timed_out', message: 'the source did not answer within 10000 ms' });
  assert.equal(feed.errorFor('refresh'), null);
  feed.receive(message('new-items'));
  assert.equal(feed.newItems.visible, true);
  // the engine's simulated feed: its rows come as rows messages too, and it takes no posts
  feed.receive({ type: 'welcome', feed: { source: 'simulated', kind: 'simulated', postable: false } });
  assert.equal(feed.kind, 'simulated');
  assert.equal(feed.postable, false);
  assert.deepEqual(feed.requests.list, []);
  assert.equal(feed.newItems.visible, false);
  feed.receive({ type: 'welcome' });
  assert.equal(feed.kind, 'simulated');
  assert.equal(feed.source, null);
});

const it = (id) => ({ id: String(id), text: `item ${id}`, time: id });

test('the window: a replace with placeholders, drops at both ends, reloads that fill them and remove the rest', () => {
  const rows = new FeedRows();
  assert.equal(rows.apply({ op: 'replace', items: [it(8), it(7)], count: 6, above: 2, below: 2 }), null);
  assert.deepEqual(rows.items.map((i) => i?.id ?? null), [null, null, '8', '7', null, null]);
  assert.equal(rows.apply({ op: 'drop', at: 'bottom', count: 1 }), null);
  assert.deepEqual(rows.items.map((i) => i?.id ?? null), [null, null, '8', null, null, null]);
  assert.equal(rows.apply({ op: 'reload', at: 'bottom', items: [it(7), it(6), it(5)], count: 6 }), null);
  assert.deepEqual(rows.items.map((i) => i?.id ?? null), [null, null, '8', '7', '6', '5']);
  // the page above came back with one row (one was deleted at the source): the placeholder left goes away
  assert.equal(rows.apply({ op: 'reload', at: 'top', items: [it(9)], count: 5 }), null);
  assert.deepEqual(rows.items.map((i) => i?.id ?? null), ['9', '8', '7', '6', '5']);
  assert.equal(rows.count, 5);
  assert.equal(rows.problem, null);
});

test('a reload whose count cannot be met by removing placeholders is said', () => {
  const rows = new FeedRows();
  rows.apply({ op: 'replace', items: [it(2), it(1)], count: 3, above: 1 });
  assert.match(rows.apply({ op: 'reload', at: 'top', items: [], count: 1 }), /reload left 2 rows, the server counts 1/);
});

test('a row starts its section when it is the first, or the row above is a placeholder or in another section', () => {
  const item = (id, section) => ({ id, text: '', section });
  const items = [item('1', 'A'), item('2', 'A'), item('3', 'B'), null, item('5', 'B'), item('6', null), item('7', 'B')];
  assert.deepEqual(items.map((_, i) => startsSection(items, i)), [true, false, true, false, true, false, true]);
});
