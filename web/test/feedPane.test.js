import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sourceText, loadState, loadStates, requestText } from '../js/panel/feedPane.js';
import { RequestLog, requestOf, roleOfKind } from '../js/feed/requestLog.js';
import { FeedState } from '../js/feed/feedState.js';
import { failureText } from '../js/failure.js';
import { footerLabel } from '../js/controls/builtin/footer.js';
import { message } from './feedSupport.js';

test('the source in words', () => {
  const feed = new FeedState();
  assert.equal(sourceText(feed), 'simulated');
  feed.receive(message('welcome'));
  assert.equal(sourceText(feed), 'sqlite:demo.sqlite · postable');
  feed.receive({ type: 'welcome', feed: { source: 'my-app', kind: 'custom', postable: false } });
  assert.equal(sourceText(feed), 'my-app · custom');
  assert.equal(sourceText(null), '–');
});

test('the load states of the refresh and the load-more', () => {
  const frame = (top, bottom, loading = false) => ({
    edges: [{ edge: 'top', state: top }, { edge: 'bottom', state: bottom }], feed: { loading },
  });
  assert.deepEqual(loadStates(frame('idle', 'idle')), { refresh: 'idle', loadMore: 'idle' });
  assert.deepEqual(loadStates(frame('refreshing', 'noMoreData')), { refresh: 'loading', loadMore: 'no more' });
  assert.deepEqual(loadStates(frame('failed', 'refreshing')), { refresh: 'failed', loadMore: 'loading' });
  assert.deepEqual(loadStates(frame('idle', 'failed', true)), { refresh: 'loading', loadMore: 'failed' }, "an external source's first page");
  assert.deepEqual(loadStates({ edges: [{ edge: 'left', state: 'finishing' }] }), { refresh: 'loading', loadMore: '–' });
  const roles = { top: 'loadMore', bottom: 'refresh' };
  assert.deepEqual(loadStates(frame('failed', 'idle'), (e) => roles[e]), { refresh: 'idle', loadMore: 'failed' });
  assert.equal(loadState('disabled'), 'off');
  assert.deepEqual(loadStates(null), { refresh: '–', loadMore: '–' });
});

test('a request in a line', () => {
  assert.equal(requestText(requestOf(message('feed-request-ok'))), '#7 refresh · 20 items · 3.2 ms');
  assert.equal(requestText(requestOf(message('feed-request-failed'))),
    '#8 older · cursor 1732476400000.0:40 · 10000 ms · timed_out: the source did not answer within 10000 ms');
  assert.equal(requestText(requestOf({ kind: 'newer', cursor: 'c', items: 1, ms: 250.4 })), '#? newer · cursor c · 1 item · 250 ms');
  assert.equal(requestOf({ id: 1 }), null, 'a request has a kind');
});

test('the request log: newest first, bounded, and the last error per kind of edge', () => {
  const log = new RequestLog(3);
  log.reset(message('welcome').feed.requests.slice().reverse());
  assert.deepEqual(log.list.map((r) => r.id), [2, 1], 'a welcome\'s requests in any order');
  log.add(message('feed-request-ok'));
  log.add(message('feed-request-failed'));
  assert.deepEqual(log.list.map((r) => r.id), [8, 7, 2]);
  assert.equal(log.errorFor('loadMore').code, 'timed_out');
  assert.equal(log.errorFor('refresh'), null);
  log.add({ ...message('feed-request-ok'), id: 9, kind: 'older' });
  assert.equal(log.errorFor('loadMore'), null, 'the last load-more succeeded');
  assert.equal(roleOfKind('newer'), 'refresh');
  assert.equal(roleOfKind('older'), 'loadMore');
});

test("the failed state says the source's message: the banner and the footer", () => {
  const error = requestOf(message('feed-request-failed')).error;
  assert.equal(failureText('top', error), "Couldn't refresh: the source did not answer within 10000 ms");
  assert.equal(failureText('top'), "Couldn't refresh.");
  assert.equal(footerLabel('failed', error), 'the source did not answer within 10000 ms — tap to retry');
  assert.equal(footerLabel('failed'), "Couldn't load more — tap to retry");
  assert.equal(footerLabel('idle', error), 'Pull up to load more');
});
