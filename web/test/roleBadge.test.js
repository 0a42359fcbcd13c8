// The page's role on the page itself and the configure controls it may use (docs/PROTOCOL.md, "Roles").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roleBadgeText } from '../js/roleBadge.js';
import { InputChannel, ResendLog } from '../js/inputs.js';

test('a watch or drive page says so; the owner\'s page and a page not yet welcomed say nothing', () => {
  assert.equal(roleBadgeText('owner'), null);
  assert.equal(roleBadgeText(null), null);
  assert.equal(roleBadgeText(undefined), null);
  assert.equal(roleBadgeText('watch').label, 'Watching');
  assert.match(roleBadgeText('watch').detail, /sends nothing/);
  assert.equal(roleBadgeText('drive').label, 'Driving');
  assert.match(roleBadgeText('drive').detail, /owner/);
});

test('a watch page\'s touch is neither predicted, nor kept for a resend, nor sent', () => {
  const sent = [];
  const stamped = [];
  const conn = { ready: true, resuming: false, store: { role: 'watch' }, send: (m) => sent.push(m) > 0 };
  const predictor = { stamp: (m) => stamped.push(m), onError: () => {}, onWelcome: () => {} };
  const log = new ResendLog();
  const inputs = new InputChannel({ conn, predictor, frameOf: () => null, serverNowOf: (t) => t, log });
  assert.equal(inputs.send({ type: 'touch', phase: 'start', dy: 0 }, 1), false);
  assert.deepEqual(sent, []);
  assert.deepEqual(stamped, []);
  conn.store.role = 'drive';
  assert.equal(inputs.send({ type: 'touch', phase: 'start', dy: 0 }, 2), true);
  assert.equal(sent.length, 1);
  assert.equal(stamped.length, 1);
});
