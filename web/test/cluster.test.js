// Many processes behind one address (docs/SCALING.md): the page names its session and node in the socket
// URL for the balancer, accepts node-prefixed ids, and its panel says which node holds the session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection } from '../js/connection.js';
import { sessionFromUrl } from '../js/session/identity.js';
import { nodeText } from '../js/panel/node.js';

const HEX = '0123456789abcdef0123456789abcdef';

test('a session id may start with the name of the node that made it', () => {
  assert.equal(sessionFromUrl(`http://h/?s=n2.${HEX}`), `n2.${HEX}`);
  assert.equal(sessionFromUrl(`http://h/?s=web-3_a.${HEX}`), `web-3_a.${HEX}`);
  assert.equal(sessionFromUrl(`http://h/?s=n2!.${HEX}`), null);
  assert.equal(sessionFromUrl(`http://h/?s=.${HEX}`), null);
});

test('the socket URL names the session and, once welcomed, the node that holds it', () => {
  const store = { session: null, token: null };
  const c = new Connection({ hello: () => ({}), url: 'ws://h:8080/', store });
  assert.equal(c.routedUrl(), 'ws://h:8080/');
  store.session = `n1.${HEX}`;
  assert.equal(c.routedUrl(), `ws://h:8080/?s=n1.${HEX}`);
  c.node = 'n2';
  assert.equal(c.routedUrl(), `ws://h:8080/?s=n1.${HEX}&n=n2`);
});

test('a hello answered session_elsewhere connects again, naming the node that holds the session', () => {
  const store = { session: `n1.${HEX}`, token: 't' };
  const c = new Connection({ hello: () => ({}), url: 'ws://h:8080/', store });
  const closed = [];
  c.ws = { close: (code, reason) => closed.push([code, reason]) };
  assert.equal(c.goElsewhere({ type: 'error', code: 'session_elsewhere', node: 'n2' }), true);
  assert.deepEqual(closed, [[1000, 'session elsewhere']]);
  assert.equal(c.routedUrl(), `ws://h:8080/?s=n1.${HEX}&n=n2`);
  // not without a node, and once welcomed not as an answer to a hello
  assert.equal(c.goElsewhere({ type: 'error', code: 'session_elsewhere' }), false);
  c.welcomed = true;
  assert.equal(c.goElsewhere({ type: 'error', code: 'session_elsewhere', ref: 'hello', node: 'n3' }), false);
  assert.equal(c.node, 'n2');
});

test('a welcomed page whose process lost the session to a newer holder goes there', () => {
  const store = { session: `n1.${HEX}`, token: 't' };
  const c = new Connection({ hello: () => ({}), url: 'ws://h:8080/', store });
  const closed = [];
  c.ws = { close: (code, reason) => closed.push([code, reason]) };
  c.welcomed = true;
  assert.equal(c.goElsewhere({ type: 'error', code: 'session_elsewhere', node: 'n2' }), true);
  assert.deepEqual(closed, [[1000, 'session elsewhere']]);
  assert.equal(c.routedUrl(), `ws://h:8080/?s=n1.${HEX}&n=n2`);
});

test('the panel says which node holds the session and what a take-over took', () => {
  assert.equal(nodeText({}), '');
  assert.equal(nodeText({ node: 'n1' }), 'node n1');
  assert.equal(nodeText({ node: 'n2', takeover: { from: 'n1', catchUpMs: 3.25, ops: 604 } }),
    'node n2 · taken over from n1 (catch-up 3.3 ms, 604 ops)');
});
