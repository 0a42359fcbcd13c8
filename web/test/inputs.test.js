import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResendLog, InputChannel, MAX_KEPT } from '../js/inputs.js';
import { Predictor } from '../js/prediction.js';

const move = (dy, t) => ({ type: 'touch', phase: 'move', dx: 0, dy, t, id: 1 });
const frame = { seq: 1, t: 0, offset: { x: 0, y: 500 }, velocity: { x: 0, y: 0 }, phase: 'dragging',
  contentSize: { w: 390, h: 5000 }, viewport: { w: 390, h: 844 }, insets: { top: 0, left: 0, bottom: 0, right: 0 }, edges: [] };

/** The parts of js/connection.js the channel uses: whether it is open, whether it is resuming, and its sends. */
class FakeConnection {
  constructor() {
    this.ready = true;
    this.resuming = false;
    this.sent = [];
  }

  send(msg) {
    if (!this.ready) return false;
    this.sent.push(JSON.parse(JSON.stringify(msg)));
    return true;
  }
}

function channel() {
  const conn = new FakeConnection();
  const predictor = new Predictor();
  predictor.onWelcome({ member: 0, ack: 0, resumed: false });
  const inputs = new InputChannel({ conn, predictor, frameOf: () => frame, serverNowOf: (t) => t });
  return { conn, predictor, inputs };
}

test('the log gives back, after a resume, the inputs numbered above welcome.ack, in order', () => {
  const log = new ResendLog();
  for (let seq = 1; seq <= 5; seq++) log.record({ ...move(1, seq), seq });
  const { again, missed } = log.onWelcome({ resumed: true, ack: 2 });
  assert.deepEqual(again.map((m) => m.seq), [3, 4, 5]);
  assert.equal(missed, 0);
  // asked again (a second take-over soon after), it still has them
  assert.deepEqual(log.onWelcome({ resumed: true, ack: 4 }).again.map((m) => m.seq), [5]);
});

test('a welcome that is not a resume, or has no ack, forgets every input', () => {
  for (const welcome of [{ resumed: false, ack: 0 }, { resumed: true }, { notice: 'session_expired' }, { resumed: true, ack: -1 }]) {
    const log = new ResendLog();
    log.record({ ...move(1, 0), seq: 1 });
    assert.deepEqual(log.onWelcome(welcome), { again: [], missed: 0 });
    assert.equal(log.size, 0, JSON.stringify(welcome));
  }
});

test(`the log keeps its last ${MAX_KEPT} inputs however old, and says how many past that a welcome lacks`, () => {
  // kept whatever time passed: the log has no clock
  const log = new ResendLog();
  for (let seq = 1; seq <= MAX_KEPT; seq++) log.record({ ...move(1, seq * 60_000), seq });
  const all = log.onWelcome({ resumed: true, ack: 0 });
  assert.equal(all.again.length, MAX_KEPT);
  assert.deepEqual([all.again[0].seq, all.missed], [1, 0], 'at the bound: nothing missed');
  // one more: the oldest goes, and a welcome that has none of them misses exactly that one
  log.record({ ...move(1, 0), seq: MAX_KEPT + 1 });
  const past = log.onWelcome({ resumed: true, ack: 0 });
  assert.deepEqual([past.again.length, past.again[0].seq, past.missed], [MAX_KEPT, 2, 1]);
  // a welcome that has the oldest kept one, or more, misses nothing
  assert.equal(log.onWelcome({ resumed: true, ack: 1 }).missed, 0);
  assert.equal(log.onWelcome({ resumed: true, ack: 300 }).missed, 0);
  assert.deepEqual(log.onWelcome({ resumed: true, ack: MAX_KEPT + 1 }), { again: [], missed: 0 });
  // far past the bound
  for (let seq = MAX_KEPT + 2; seq <= 3 * MAX_KEPT; seq++) log.record({ ...move(1, 0), seq });
  const far = log.onWelcome({ resumed: true, ack: 10 });
  assert.deepEqual([far.again.length, far.again[0].seq, far.missed], [MAX_KEPT, 2 * MAX_KEPT + 1, 2 * MAX_KEPT - 10]);
});

test('past the bound the channel sends what it kept, counts what the session will never have, and says so', () => {
  const { conn, predictor, inputs } = channel();
  inputs.send(move(4, 0), 0);
  conn.ready = false;
  conn.resuming = true;
  for (let k = 1; k <= MAX_KEPT + 20; k++) inputs.send(move(1, k * 16), k * 16);
  conn.ready = true;
  conn.resuming = false;
  conn.sent = [];
  // the session has only the first input: of the 20 + 512 sent offline, the 21 oldest are past the bound
  assert.equal(inputs.onWelcome({ member: 0, resumed: true, ack: 0 }), MAX_KEPT);
  assert.equal(inputs.missed, 21);
  assert.equal(inputs.missedTotal, 21);
  assert.equal(conn.sent[0].seq, 22);
  assert.equal(conn.sent.length, MAX_KEPT, 'a resend fits the server\'s burst of 600');
  assert.equal(predictor.pending.length, MAX_KEPT, 'what went out again is predicted until acknowledged');
  // the next welcome that lacks nothing clears `missed`, the total stays
  inputs.onWelcome({ member: 0, resumed: true, ack: MAX_KEPT + 21 });
  assert.deepEqual([inputs.missed, inputs.missedTotal], [0, 21]);
});

test('an open connection sends every input numbered; a resume sends again what the session lacks, same seq', () => {
  const { conn, predictor, inputs } = channel();
  for (let k = 0; k < 5; k++) assert.equal(inputs.send(move(4, k * 16), k * 16), true);
  assert.deepEqual(conn.sent.map((m) => m.seq), [1, 2, 3, 4, 5]);
  // the process dies after acknowledging 1…4 in frames; the store had 1…2
  predictor.onFrame({ ...frame, ack: { 0: 4 } }, 70);
  assert.equal(predictor.pending.length, 1);
  conn.sent = [];
  const count = inputs.onWelcome({ member: 0, resumed: true, ack: 2 });
  assert.equal(count, 3);
  assert.deepEqual(conn.sent.map((m) => [m.seq, m.dy]), [[3, 4], [4, 4], [5, 4]]);
  assert.equal(inputs.resent, 3);
  // still predicted until the new process acknowledges them; the next input numbers on
  assert.deepEqual(predictor.pending.map((p) => p.seq), [5]);
  inputs.send(move(4, 120), 120);
  assert.equal(conn.sent.at(-1).seq, 6);
});

test('while the page is on its way back to its session, inputs are kept and go out once it is welcomed', () => {
  const { conn, predictor, inputs } = channel();
  inputs.send(move(4, 0), 0);
  conn.ready = false;
  conn.resuming = true;
  assert.equal(inputs.send(move(6, 16), 16), true);
  assert.equal(inputs.send(move(6, 32), 32), true);
  assert.equal(conn.sent.length, 1);
  assert.deepEqual(predictor.pending.map((p) => p.seq), [1, 2, 3], 'predicted while disconnected');
  conn.ready = true;
  conn.resuming = false;
  inputs.onWelcome({ member: 0, resumed: true, ack: 1 });
  assert.deepEqual(conn.sent.map((m) => m.seq), [1, 2, 3]);
});

test('with no session to go back to, an input is dropped unnumbered; a new session drops what was kept', () => {
  const { conn, predictor, inputs } = channel();
  conn.ready = false;
  const msg = move(4, 0);
  assert.equal(inputs.send(msg, 0), false);
  assert.equal(msg.seq, undefined);
  conn.resuming = true;
  inputs.send(move(4, 16), 16);
  conn.ready = true;
  conn.resuming = false;
  assert.equal(inputs.onWelcome({ member: 0, notice: 'session_expired' }), 0);
  assert.deepEqual(conn.sent, []);
  assert.equal(predictor.pending.length, 0);
});
