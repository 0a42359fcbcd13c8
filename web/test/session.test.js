// The live session's pure parts (js/session/): its events and the identity it keeps across reloads
// (the session in the address, the member token in storage, written once per welcome).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../js/session/emitter.js';
import { SessionIdentity, keyFromUrl } from '../js/session/identity.js';
import { roleMay } from '../js/protocol.js';
import { Connection } from '../js/connection.js';
import { Store } from '../js/store.js';

const ID = '0123456789abcdef0123456789abcdef';

test('listeners are called in order with the arguments, and stop when told', () => {
  const e = new Emitter();
  const seen = [];
  const off = e.on('frame', (a, b) => seen.push(['first', a, b]));
  e.on('frame', (a) => seen.push(['second', a]));
  e.emit('frame', 1, 2);
  off();
  e.emit('frame', 3);
  e.emit('nobody', 4);
  assert.deepEqual(seen, [['first', 1, 2], ['second', 1], ['second', 3]]);
  assert.throws(() => e.on('frame', 'not a function'), TypeError);
});

test('a listener gets up to four arguments (the draw event: now, picture, shown, options)', () => {
  const e = new Emitter();
  let got = null;
  e.on('draw', (...args) => {
    got = args;
  });
  e.emit('draw', 1, 'picture', 'shown', 'env');
  assert.deepEqual(got, [1, 'picture', 'shown', 'env']);
});

test('a listener that throws does not stop the others', () => {
  const e = new Emitter();
  const seen = [];
  const error = console.error;
  console.error = () => {};
  try {
    e.on('event', () => {
      throw new Error('faulty');
    });
    e.on('event', (msg) => seen.push(msg));
    e.emit('event', 'ok');
  } finally {
    console.error = error;
  }
  assert.deepEqual(seen, ['ok']);
});

test('a listener added during an emit waits for the next one; clear forgets them all', () => {
  const e = new Emitter();
  const seen = [];
  e.on('tick', () => {
    seen.push('a');
    e.on('tick', () => seen.push('b'));
  });
  e.emit('tick');
  assert.deepEqual(seen, ['a']);
  e.clear();
  e.emit('tick');
  assert.deepEqual(seen, ['a']);
});

/** A window with an address, a history and a sessionStorage that counts its writes. */
function fakeWindow(href) {
  const map = new Map();
  const writes = [];
  const win = {
    location: { href },
    history: {
      state: null,
      replaceState(state, title, url) {
        win.location.href = url;
      },
    },
  };
  const storage = {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      writes.push([k, v]);
      map.set(k, v);
    },
    removeItem: (k) => {
      writes.push([k, null]);
      map.delete(k);
    },
  };
  return { win, storage, writes, map };
}

test('the identity starts from the address and this tab\'s token, and remembers both', () => {
  const { win, storage, map } = fakeWindow(`http://h/?preset=jh&s=${ID}`);
  map.set(`refreshkit.token.${ID}`, 'tok');
  const identity = new SessionIdentity({ win, storage });
  assert.deepEqual(identity.initial(), { session: ID, token: 'tok', key: null });
  const other = 'fedcba9876543210fedcba9876543210';
  identity.remember(other, 't2');
  assert.equal(win.location.href, `http://h/?preset=jh&s=${other}`);
  assert.deepEqual(new SessionIdentity({ win, storage }).initial(), { session: other, token: 't2', key: null });
  identity.remember(other, null);
  assert.equal(map.has(`refreshkit.token.${other}`), false);
  const fresh = new SessionIdentity({ win: fakeWindow('http://h/').win, storage });
  assert.deepEqual(fresh.initial(), { session: null, token: null, key: null });
});

/** A WebSocket the test drives: it records what is sent. */
class FakeSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 1;
    this.sent = [];
    FakeSocket.last = this;
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close() {
    this.readyState = 3;
  }
}

test('a welcome writes the member token once, and a dropped token is forgotten', () => {
  const { win, storage, writes } = fakeWindow('http://h/');
  const identity = new SessionIdentity({ win, storage });
  const store = new Store(identity.initial());
  const saved = globalThis.WebSocket;
  globalThis.WebSocket = FakeSocket;
  const c = new Connection({
    hello: () => ({ viewport: { w: 390, h: 844 }, dpr: 3 }), url: 'ws://h/', store,
    onTokenChange: (session, token) => identity.remember(session, token),
  });
  try {
    c.start();
    const ws = FakeSocket.last;
    ws.onopen();
    assert.equal(ws.sent[0].type, 'hello');
    assert.equal(ws.sent[0].session, undefined);
    const welcome = { type: 'welcome', session: ID, token: 'tok', member: 0, preset: 'ios', serverT: 1 };
    ws.onmessage({ data: JSON.stringify(welcome) });
    assert.deepEqual(writes, [[`refreshkit.token.${ID}`, 'tok']]);
    assert.equal(win.location.href, `http://h/?s=${ID}`);
    // the member was resumed elsewhere (close 4001): the token is dropped, once
    ws.onclose({ code: 4001 });
    assert.deepEqual(writes.slice(1), [[`refreshkit.token.${ID}`, null]]);
  } finally {
    c.stop();
    globalThis.WebSocket = saved;
  }
});

test('the public module exports every name docs/PAGE.md lists, and no other', async () => {
  const { readFile } = await import('node:fs/promises');
  const api = await import('../js/refreshkit.js');
  const page = await readFile(new URL('../../docs/PAGE.md', import.meta.url), 'utf8');
  const table = page.slice(page.indexOf('## What `/js/refreshkit.js` exports'), page.indexOf('## Embedding'));
  // the names in the first cell of each row: `LiveSession`, `createSession(canvas, options)`, `ErrorCode`, …
  const documented = table.split('\n').filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]));
  for (const name of ['LiveSession', 'createSession', 'SessionIdentity', 'ErrorCode', 'CloseCode']) {
    assert.ok(documented.includes(name), `${name} is not in the table`);
  }
  for (const name of documented) assert.ok(name in api, `${name} is documented but not exported`);
  for (const name of Object.keys(api)) assert.ok(documented.includes(name), `${name} is exported but not documented`);
  for (const name of ['defineControl', 'drawArrow', 'setFont', 't']) assert.ok(documented.includes(name), name);
  assert.equal(typeof api.LiveSession, 'function');
  assert.equal(typeof api.createSession, 'function');
});

test('a share link\'s key goes into the hello, and a watch page sends no input', () => {
  const key = 'ab'.repeat(16);
  assert.equal(keyFromUrl(`https://h/?s=${ID}&k=${key}`), key);
  assert.equal(keyFromUrl(`https://h/?s=${ID}&k=nothex`), null);
  assert.equal(roleMay('watch', 'touch'), false);
  assert.equal(roleMay('watch', 'ping'), true);
  assert.equal(roleMay('drive', 'configure'), false);
  assert.equal(roleMay('drive', 'wheel'), true);
  assert.equal(roleMay('owner', 'configure'), true);
  assert.equal(roleMay(null, 'touch'), true, 'before a welcome nothing is held back');
});
