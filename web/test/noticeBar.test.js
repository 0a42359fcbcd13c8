import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoticeBar } from '../js/noticeBar.js';

/** The parts of the DOM the bar uses: one element it makes, no `.bar` to put it under, and the timers. */
function fakePage() {
  const el = { dataset: {}, hidden: false, textContent: '', setAttribute() {} };
  const doc = { createElement: () => el, querySelector: () => null };
  const win = { setTimeout: () => 1, clearTimeout() {} };
  return { el, doc, win };
}

/** A live session as far as the bar follows it: its listeners, and its input channel's `missed`. */
function fakeSession() {
  const listeners = {};
  return {
    inputs: { missed: 0 },
    on(name, fn) {
      listeners[name] = fn;
    },
    emit(name, msg) {
      listeners[name]?.(msg);
    },
  };
}

test('a welcome after inputs past the resend bound says how many never reached the session', () => {
  const { el, doc, win } = fakePage();
  const bar = new NoticeBar({ doc, win });
  const session = fakeSession();
  bar.follow(session);
  session.emit('welcome', { resumed: true, ack: 3 });
  assert.equal(el.hidden, true, 'nothing missed: nothing said');
  session.inputs.missed = 21;
  session.emit('welcome', { resumed: true, ack: 3 });
  assert.equal(el.hidden, false);
  assert.equal(el.dataset.kind, 'warning');
  assert.match(el.textContent, /21 early moves/);
});
