import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RefreshAsks, edgeState } from '../js/session/refreshAsks.js';

const frame = (state, edge = 'top') => ({ type: 'frame', edges: [{ edge, state }, { edge: 'bottom', state: 'idle' }] });
const asks = () => {
  const sent = [];
  return { sent, asks: new RefreshAsks((edge) => (sent.push(edge), true)) };
};

test('an edge that has settled is asked at once', () => {
  const { sent, asks: a } = asks();
  assert.equal(a.ask('top', frame('idle')), 'sent');
  assert.equal(a.ask('top', frame('failed')), 'sent');
  assert.deepEqual(sent, ['top', 'top']);
});

test('an ask while the failed refresh still shows or plays its exit goes once the edge settles', () => {
  const { sent, asks: a } = asks();
  assert.equal(a.ask('top', frame('refreshing')), 'waiting');
  a.onMessage(frame('finishing'));
  assert.deepEqual(sent, []);
  a.onMessage(frame('idle'));
  assert.deepEqual(sent, ['top']);
  a.onMessage(frame('idle'));
  assert.deepEqual(sent, ['top'], 'once');
});

test("a refresh of that edge starting meanwhile is what was asked for: the ask is dropped", () => {
  const { sent, asks: a } = asks();
  a.ask('top', frame('finishing'));
  a.onMessage({ type: 'event', name: 'didStart', edge: 'bottom' });
  a.onMessage({ type: 'event', name: 'didStart', edge: 'top' });
  a.onMessage(frame('idle'));
  assert.deepEqual(sent, []);
});

test("a library's start (a session naming its events as its library does) drops the ask too", () => {
  const { sent, asks: a } = asks();
  a.ask('top', frame('finishing'));
  a.onMessage({ type: 'event', name: 'didEngage', kit: 'didStart', edge: 'top' });
  a.onMessage(frame('idle'));
  assert.deepEqual(sent, []);
});

test('a closed link drops the ask; the state of an edge the frame does not carry is null', () => {
  const a = new RefreshAsks(() => false);
  assert.equal(a.ask('top', frame('idle')), 'dropped');
  assert.equal(edgeState(frame('idle'), 'left'), null);
  assert.equal(edgeState(null, 'top'), null);
});
