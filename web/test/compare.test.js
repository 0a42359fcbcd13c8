import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRequest, withoutCompare, COMPARED } from '../js/compare/request.js';

test('no compare parameter: the normal page', () => {
  assert.equal(compareRequest(''), null);
  assert.equal(compareRequest('?preset=ms&lang=en'), null);
});

test('two names: compare mode, in the order given, blanks dropped', () => {
  assert.equal(COMPARED, 2);
  assert.deepEqual(compareRequest('?compare=ms,ht'), { presets: ['ms', 'ht'] });
  assert.deepEqual(compareRequest('?predict=0&compare=%20iq%20,%20jh&lang=zh-Hans'), { presets: ['iq', 'jh'] });
  // the same preset twice is two sessions of it: a baseline, not an error
  assert.deepEqual(compareRequest('?compare=ms,ms'), { presets: ['ms', 'ms'] });
  // names are passed on as written: the server says whether it knows them
  assert.deepEqual(compareRequest('?compare=ms,nope'), { presets: ['ms', 'nope'] });
});

test('anything but two names is an error that says what it got', () => {
  assert.deepEqual(compareRequest('?compare=ms'), { error: 'count', value: 'ms', count: 1 });
  assert.deepEqual(compareRequest('?compare=ms,'), { error: 'count', value: 'ms,', count: 1 });
  assert.deepEqual(compareRequest('?compare=ms,ht,iq'), { error: 'count', value: 'ms,ht,iq', count: 3 });
  assert.deepEqual(compareRequest('?compare='), { error: 'count', value: '', count: 0 });
  assert.deepEqual(compareRequest('?compare'), { error: 'count', value: '', count: 0 });
});

test('the way back keeps every other parameter', () => {
  assert.equal(withoutCompare('http://h:8080/?compare=ms,ht&predict=0&lang=en'), 'http://h:8080/?predict=0&lang=en');
  assert.equal(withoutCompare('http://h:8080/?compare=ms'), 'http://h:8080/');
});
