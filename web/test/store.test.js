import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store, MAX_EVENTS } from '../js/store.js';

const frame = (seq, y, extra = {}) => ({
  type: 'frame', seq, t: seq * 16, offset: { x: 0, y }, velocity: { x: 0, y: 0 }, phase: 'idle',
  edges: [{ edge: 'top', state: 'idle', distance: -y, progress: 0, velocity: 0 }], ...extra,
});

test('the store starts from the URL and takes the session, token, member, config and preset from the welcome', () => {
  const s = new Store({ session: 'abc', token: 't1', preset: 'jh' });
  assert.equal(s.session, 'abc');
  assert.equal(s.token, 't1');
  assert.equal(s.preset, 'jh');
  assert.equal(new Store({ token: 'orphan' }).token, null, 'a token without a session means nothing');
  const welcome = { type: 'welcome', session: 'def', token: 't2', member: 3, preset: 'ios', config: { physics: { rubberBand: 0.5 } } };
  assert.equal(s.receive(welcome), welcome);
  assert.deepEqual([s.session, s.token, s.member, s.preset, s.serverPreset], ['def', 't2', 3, 'ios', 'ios']);
  assert.equal(s.config.physics.rubberBand, 0.5);
  assert.equal(s.welcome, welcome);
  s.receive({ type: 'room', members: 2, member: 3 });
  assert.equal(s.members, 2);
});

test('deltas apply to the frame the store holds, and only after a whole frame on this connection', () => {
  const s = new Store();
  assert.equal(s.receive({ type: 'delta', seq: 2, t: 32, offset: { y: 5 } }), null, 'no base yet');
  s.receive(frame(1, 0));
  const out = s.receive({ type: 'delta', seq: 2, t: 32, offset: { y: 5 } });
  assert.equal(out.type, 'frame');
  assert.equal(out.offset.y, 5);
  assert.equal(out.edges[0].distance, -5, 'the follow rule');
  assert.equal(s.frame, out, 'one frame: the one handed on is the one held');
  assert.equal(s.frames, 2);
  assert.equal(s.deltas, 1);
  s.connectionOpened();
  assert.equal(s.receive({ type: 'delta', seq: 3, t: 48, offset: { y: 9 } }), null, 'a new connection needs a whole frame');
  assert.equal(s.frame.offset.y, 5, 'the old frame stays on screen meanwhile');
  s.receive({ type: 'welcome', session: 'x' });
  s.receive(frame(10, 1));
  assert.equal(s.receive({ type: 'delta', seq: 11, t: 0, offset: { y: 2 }, ack: { 0: 4 } }).ack[0], 4, 'ack merges like any member');
});

test('a config follows a new preset from the server, and leaves a pick in flight alone otherwise', () => {
  const s = new Store();
  s.receive({ type: 'welcome', preset: 'ios', config: { a: 1 } });
  s.pickPreset('jh');
  s.receive({ type: 'config', preset: 'ios', config: { a: 2 } });
  assert.equal(s.preset, 'jh', 'the same server preset again: the pick stays');
  assert.equal(s.config.a, 2);
  s.receive({ type: 'config', preset: 'jh', config: { a: 3 } });
  assert.deepEqual([s.preset, s.serverPreset], ['jh', 'jh']);
  s.receive({ type: 'config', preset: 'gv', config: { a: 4 } });
  assert.equal(s.preset, 'gv', 'another device switched the preset');
});

test('events and errors keep only the newest', () => {
  const s = new Store();
  for (let i = 0; i < MAX_EVENTS + 50; i++) s.receive({ type: 'event', name: 'transition', t: i });
  assert.equal(s.events.length, MAX_EVENTS);
  assert.equal(s.events[0].t, 50);
  for (let i = 0; i < 30; i++) s.receive({ type: 'error', code: 'bad_field', n: i });
  assert.equal(s.errors.length, 20);
  assert.equal(s.errors.at(-1).n, 29);
});

test('setToken drops or sets the token', () => {
  const s = new Store({ session: 'a', token: 't' });
  s.setToken('a', null);
  assert.equal(s.token, null);
  s.setToken('b', 'u');
  assert.deepEqual([s.session, s.token], ['b', 'u']);
});
