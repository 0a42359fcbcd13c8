import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  rubberBand, rubberBandInverse, rubberBandClamp, rubberBandUnclamp, scrollBounds,
} from '../js/rubberBand.js';

// web/test/fixtures/rubberBand.json: the engine's RubberBand and ScrollBounds over a grid with the degenerate
// inputs, written by Tests/RefreshKitTests/Physics/RubberBandFixtureTests.swift (REFRESHKIT_WRITE_FIXTURES=1
// swift test --filter thePageFixture). The port computes the same formulas in the same order: the same doubles.
const NON_FINITE = { Infinity: Infinity, '-Infinity': -Infinity, NaN: NaN };
const fixture = JSON.parse(
  await readFile(new URL('./fixtures/rubberBand.json', import.meta.url), 'utf8'),
  (key, value) => (typeof value === 'string' && value in NON_FINITE ? NON_FINITE[value] : value),
);
const same = (a, b) => a === b || (Number.isNaN(a) && Number.isNaN(b)); // ±0 alike

function check(rows, compute, name) {
  assert.ok(rows.length > 100, `${name}: the fixture has ${rows.length} rows`);
  const wrong = rows.filter((row) => !same(compute(row), row[row.length - 1]));
  assert.deepEqual(wrong.slice(0, 5).map((row) => [...row, compute(row)]), [], `${name}: ${wrong.length} rows differ`);
}

test('the rubber band is the engine\'s, degenerate inputs included', () => {
  check(fixture.pull, ([x, c, d]) => rubberBand(x, c, d), 'rubberBand');
});

test('its inverse is the engine\'s', () => {
  check(fixture.inverse, ([b, c, d]) => rubberBandInverse(b, c, d), 'rubberBandInverse');
});

test('clamp and unclamp are the engine\'s, bounds in the wrong order and NaN bounds included', () => {
  check(fixture.clamp, ([v, lower, upper, c, d]) => rubberBandClamp(v, lower, upper, c, d), 'rubberBandClamp');
  check(fixture.unclamp, ([v, lower, upper, c, d]) => rubberBandUnclamp(v, lower, upper, c, d), 'rubberBandUnclamp');
});

test('the scroll bounds of a frame are the engine\'s', () => {
  assert.ok(fixture.bounds.length > 10);
  for (const [vw, vh, cw, ch, top, left, bottom, right, ...expected] of fixture.bounds) {
    const frame = { viewport: { w: vw, h: vh }, contentSize: { w: cw, h: ch }, insets: { top, left, bottom, right } };
    const y = scrollBounds(frame, 'y');
    const x = scrollBounds(frame, 'x');
    const got = [y.lower, y.upper, x.lower, x.upper];
    assert.ok(got.every((v, i) => same(v, expected[i])), `${JSON.stringify(frame)}: ${got} ≠ ${expected}`);
    assert.equal(y.dimension, vh);
    assert.equal(x.dimension, vw);
  }
});
