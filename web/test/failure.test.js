import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFailure, failureText, FAILURE_SHOWN_MS } from '../js/failure.js';

const ev = (name, edge) => ({ type: 'event', name, edge, cause: 'feedFailed', t: 0 });

test('a failed refresh is shown, for a while', () => {
  const shown = nextFailure(null, ev('feedFailed', 'top'), 1000);
  assert.deepEqual(shown, { edge: 'top', until: 1000 + FAILURE_SHOWN_MS });
  assert.equal(failureText('top'), "Couldn't refresh.");
});

test('a load-more failure is left to the footer', () => {
  assert.equal(nextFailure(null, ev('feedFailed', 'bottom'), 0), null);
  // unless that edge was configured to refresh
  assert.deepEqual(nextFailure(null, ev('feedFailed', 'bottom'), 0, { bottom: 'refresh' }),
    { edge: 'bottom', until: FAILURE_SHOWN_MS });
});

test('a new refresh or a successful one takes it away; other edges and events leave it', () => {
  const shown = nextFailure(null, ev('feedFailed', 'top'), 0);
  assert.equal(nextFailure(shown, ev('didStart', 'top'), 10), null);
  assert.equal(nextFailure(shown, ev('feedLoaded', 'top'), 10), null);
  assert.equal(nextFailure(shown, ev('feedLoaded', 'bottom'), 10), shown);
  assert.equal(nextFailure(shown, ev('transition', 'top'), 10), shown);
  assert.equal(nextFailure(shown, { type: 'frame' }, 10), shown);
});
