import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visibleRows } from '../js/rows.js';
import { hashId } from '../js/feed/hash.js';

test('the id hash is deterministic and spreads neighbouring ids', () => {
  assert.equal(hashId(7), hashId(7));
  const hues = new Set();
  for (let id = 0; id < 50; id++) hues.add(hashId(id) % 360);
  assert.ok(hues.size > 30, 'neighbouring ids get different colours');
});

test('only the visible rows are drawn, even with 10 000 rows', () => {
  assert.deepEqual(visibleRows(0, 844, 72, 10000), { first: 0, last: 11 });
  assert.deepEqual(visibleRows(-100, 844, 72, 10000), { first: 0, last: 10 });
  assert.deepEqual(visibleRows(72 * 5000 + 10, 844, 72, 10000), { first: 5000, last: 5011 });
  assert.deepEqual(visibleRows(72 * 9995, 844, 72, 10000), { first: 9995, last: 9999 });
  assert.equal(visibleRows(72 * 10000 + 5, 844, 72, 10000), null);
  assert.equal(visibleRows(-900, 844, 72, 10000), null);
  assert.equal(visibleRows(0, 844, 72, 0), null);
  assert.deepEqual(visibleRows(0, 144, 72, 10), { first: 0, last: 1 });
});
