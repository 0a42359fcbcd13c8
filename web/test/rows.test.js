import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowContent, visibleRows } from '../js/rows.js';
import { hashId } from '../js/feed/hash.js';

test('row content is deterministic and derived from the id', () => {
  assert.deepEqual(rowContent(1042), rowContent(1042));
  assert.equal(rowContent(1042).title, 'Item 1042');
  assert.ok(rowContent(1042).hue >= 0 && rowContent(1042).hue < 360);
  const hues = new Set();
  for (let id = 0; id < 50; id++) hues.add(rowContent(id).hue);
  assert.ok(hues.size > 30, 'neighbouring ids get different colours');
  assert.equal(hashId(7), hashId(7));
  assert.equal(rowContent(-3).title, 'Item -3');
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
