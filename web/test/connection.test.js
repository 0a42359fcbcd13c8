// The connection sends touches binary (js/protocol.js, encodeBinaryTouch) only to a server whose welcome on that
// socket said `"binary":["touch"]`; everything else, and everything before and without such a welcome, is JSON.
// A trace's playback (js/trace.js) sends its recorded touches through the connection, so binary too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection } from '../js/connection.js';
import { Store } from '../js/store.js';
import { TraceTools } from '../js/trace.js';

const ID = '0123456789abcdef0123456789abcdef';
const TOUCH = { type: 'touch', phase: 'move', dx: 0.5, dy: -3, t: 100, id: 1, seq: 9 };

/** A WebSocket the test drives: it keeps what is sent as sent (a string or an ArrayBuffer), and every socket made. */
class FakeSocket {
  static made = [];

  constructor(url) {
    this.url = url;
    this.readyState = 1;
    this.sent = [];
    FakeSocket.made.push(this);
  }

  send(data) {
    this.sent.push(data);
  }

  close() {
    this.readyState = 3;
  }

  /** The last thing sent: 'binary 48' for an ArrayBuffer, else the JSON message's type. */
  get last() {
    const data = this.sent.at(-1);
    return data instanceof ArrayBuffer ? `binary ${data.byteLength}` : JSON.parse(data).type;
  }
}

/** A socket message event holding a welcome, with `binary` when given. */
function welcomeEvent(binary) {
  const msg = { type: 'welcome', session: ID, token: 'tok', member: 0, preset: 'ios', serverT: 1 };
  if (binary !== undefined) msg.binary = binary;
  return { data: JSON.stringify(msg) };
}

/**
 * Runs `body(c, socket)` with a started Connection on FakeSockets and node's mocked timers (the reconnection's
 * backoff runs on them); `socket()` is the newest socket, opened (its hello sent). `onMessage` is the connection's.
 */
function withConnection(t, body, { onMessage } = {}) {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const saved = globalThis.WebSocket;
  globalThis.WebSocket = FakeSocket;
  FakeSocket.made = [];
  const c = new Connection({
    hello: () => ({ viewport: { w: 390, h: 844 }, dpr: 3 }), url: 'ws://h/', store: new Store(), now: () => 0, onMessage,
  });
  const socket = () => {
    const ws = FakeSocket.made.at(-1);
    if (ws.sent.length === 0) ws.onopen();
    return ws;
  };
  try {
    c.start();
    body(c, socket);
  } finally {
    c.stop();
    globalThis.WebSocket = saved;
  }
}

test('touches are JSON before a welcome and after one without `binary`', (t) => {
  withConnection(t, (c, socket) => {
    const ws = socket();
    assert.equal(ws.last, 'hello');
    assert.equal(c.sendRaw(TOUCH), true);
    assert.equal(ws.last, 'touch');
    ws.onmessage(welcomeEvent());
    c.send(TOUCH);
    assert.equal(ws.last, 'touch');
    ws.onmessage(welcomeEvent(['wheel']));
    c.send(TOUCH);
    assert.equal(ws.last, 'touch');
  });
});

test('after a welcome with binary:["touch"] touches are binary, and everything else stays JSON', (t) => {
  withConnection(t, (c, socket) => {
    const ws = socket();
    ws.onmessage(welcomeEvent(['touch']));
    c.send(TOUCH);
    assert.equal(ws.last, 'binary 48');
    const { seq, ...unnumbered } = TOUCH;
    c.send(unnumbered);
    assert.equal(ws.last, 'binary 40');
    c.send({ ...TOUCH, id: 1.5 }); // not spellable: the JSON goes, and the server answers it as ever
    assert.equal(ws.last, 'touch');
    const others = [{ type: 'wheel', dx: 0, dy: 3, mode: 0, t: 1, seq }, { type: 'command', name: 'refresh', edge: 'top' }];
    for (const msg of others) {
      c.send(msg);
      assert.equal(ws.last, msg.type);
    }
    c.ping();
    assert.equal(ws.last, 'ping');
  });
});

test('the inputs a welcome has sent again already go binary', (t) => {
  let c;
  const onMessage = (msg) => {
    if (msg.type === 'welcome') c.send(TOUCH); // as js/inputs.js resends its kept inputs on a resumed welcome
  };
  withConnection(t, (conn, socket) => {
    c = conn;
    const ws = socket();
    ws.onmessage(welcomeEvent(['touch']));
    assert.equal(ws.last, 'binary 48');
  }, { onMessage });
});

test('a new socket sends JSON again until its own welcome says binary', (t) => {
  withConnection(t, (c, socket) => {
    const first = socket();
    first.onmessage(welcomeEvent(['touch']));
    c.send(TOUCH);
    assert.equal(first.last, 'binary 48');

    // the link drops; the reconnection reaches a server that does not read binary touches
    first.onclose({ code: 1006 });
    t.mock.timers.tick(5000);
    const second = socket();
    assert.notEqual(second, first);
    assert.equal(second.last, 'hello');
    c.sendRaw(TOUCH);
    assert.equal(second.last, 'touch', 'before the welcome');
    second.onmessage(welcomeEvent());
    c.send(TOUCH);
    assert.equal(second.last, 'touch', 'after a welcome without binary');

    // a restart (a trace's playback) opens a third socket: JSON until a welcome says binary again
    c.restart();
    const third = socket();
    c.sendRaw(TOUCH);
    assert.equal(third.last, 'touch');
    third.onmessage(welcomeEvent(['touch']));
    c.send(TOUCH);
    assert.equal(third.last, 'binary 48');
  });
});

test("a trace's playback sends its touches binary to such a server, other members' pointers kept apart", (t) => {
  const trace = {
    format: 'refreshkit.trace.v2', viewport: { w: 390, h: 844 }, dpr: 3, start: 0,
    ops: [
      { t: 1000, member: 0, apply: { type: 'touch', phase: 'start', dx: 0, dy: 0, t: 1, id: 1 } },
      { t: 2000, member: 1, apply: { type: 'touch', phase: 'move', dx: 0, dy: 5.5, t: 2, id: 1 } },
      { t: 3000, member: 0, apply: { type: 'command', name: 'refresh', edge: 'top' } },
    ],
  };
  let tools;
  withConnection(t, (c, socket) => {
    tools = new TraceTools({ conn: c, doc: {}, win: globalThis });
    socket().onmessage(welcomeEvent(['touch']));
    tools.play(JSON.stringify(trace)); // a fresh session on a new socket
    const ws = socket();
    ws.onmessage(welcomeEvent(['touch']));
    t.mock.timers.tick(3);
    assert.deepEqual(tools.state, { messages: 3, sent: 3, done: true, armed: true });
    const [start, move, command] = ws.sent.slice(-3);
    assert.equal(new DataView(start).getUint8(1), 0, 'phase start');
    assert.equal(start.byteLength, 40, 'the recorded touch has no seq');
    const view = new DataView(move);
    assert.deepEqual([view.getUint8(1), view.getFloat64(16, true), view.getFloat64(32, true)], [1, 5.5, 65536 + 1]);
    assert.equal(JSON.parse(command).type, 'command');
  }, { onMessage: (msg, tRecv, raw) => tools?.onMessage(msg, raw) });
});
