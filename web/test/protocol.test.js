import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  BINARY_TOUCH_BYTES, BINARY_TOUCH_KIND, BINARY_TOUCH_WITH_SEQ_BYTES, BinaryTouchOffset, CloseCode, ErrorCode,
  NORMAL_CLOSURE, PROTOCOL, TouchPhaseCode, encodeBinaryTouch, readsBinaryTouch,
} from '../js/protocol.js';

// The page's names for the wire are docs/PROTOCOL.md's tables, whole and in order (the Swift side checks its
// enums against the same tables: ProtocolDocumentTests).
const document = readFileSync(new URL('../../docs/PROTOCOL.md', import.meta.url), 'utf8');

/** The rows (arrays of trimmed cells) of the first table whose header is `header`. */
function tableRows(header) {
  const cells = (line) => line.trim().slice(1, -1).split('|').map((cell) => cell.trim());
  const isRow = (line) => line.trim().startsWith('|') && line.trim().endsWith('|');
  const lines = document.split('\n');
  const start = lines.findIndex((line) => isRow(line) && JSON.stringify(cells(line)) === JSON.stringify(header));
  assert.notEqual(start, -1, `PROTOCOL.md has a table | ${header.join(' | ')} |`);
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!isRow(line)) break;
    rows.push(cells(line));
  }
  return rows;
}

/** The `code spans` of a cell. */
const quoted = (cell) => [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1]);

test('ErrorCode is the error table of PROTOCOL.md', () => {
  const codes = tableRows(['code', 'when']).flatMap((row) => quoted(row[0]));
  assert.deepEqual(Object.values(ErrorCode), codes);
});

test('CloseCode is the close-code table of PROTOCOL.md', () => {
  const codes = tableRows(['code', 'when', 'the page']).map((row) => Number(row[0].replace(/\D/g, '')));
  assert.deepEqual(Object.values(CloseCode), codes);
});

test("the page's own close code and the subprotocol are the document's", () => {
  assert.match(document, new RegExp(`closes with \\*\\*${NORMAL_CLOSURE}\\*\\* \\(normal closure\\)`));
  assert.match(document, new RegExp(`subprotocol\\s+\\*\\*\`${PROTOCOL.replace('.', '\\.')}\`\\*\\*`));
});

test('the names are frozen', () => {
  assert.ok(Object.isFrozen(ErrorCode) && Object.isFrozen(CloseCode));
});

// The binary touch (js/protocol.js): the layout the server reads, byte by byte. The expected values are written out
// here rather than taken from the module's constants, so that a changed constant fails the test.

const MAX_EXACT_INTEGER = 2 ** 53;

/** A touch message: a move by nothing at t = 1 unless `fields` say otherwise. */
const touch = (fields) => ({ type: 'touch', phase: 'move', dx: 0, dy: 0, t: 1, ...fields });

/** The bytes of `buffer` from `start` up to `end`, as a plain array. */
const bytesOf = (buffer, start, end) => [...new Uint8Array(buffer, start, end - start)];

/** The fields of a binary touch, read back with DataView, little-endian. */
function decode(buffer) {
  const view = new DataView(buffer);
  const fields = {
    kind: view.getUint8(0), phase: view.getUint8(1), padding: bytesOf(buffer, 2, 8),
    dx: view.getFloat64(8, true), dy: view.getFloat64(16, true), t: view.getFloat64(24, true),
    id: view.getFloat64(32, true),
  };
  if (buffer.byteLength === 48) fields.seq = view.getFloat64(40, true);
  return fields;
}

test('a touch with seq is 48 bytes: kind, phase, six zero bytes, then dx, dy, t, id and seq as doubles', () => {
  const buffer = encodeBinaryTouch(touch({ dx: -0, dy: 12.375, t: 1234.5678, id: 7, seq: MAX_EXACT_INTEGER }));
  assert.ok(buffer instanceof ArrayBuffer);
  assert.equal(buffer.byteLength, 48);
  const fields = decode(buffer);
  assert.deepEqual(fields, {
    kind: 1, phase: 1, padding: [0, 0, 0, 0, 0, 0], dx: -0, dy: 12.375, t: 1234.5678, id: 7, seq: MAX_EXACT_INTEGER,
  });
  assert.ok(Object.is(fields.dx, -0), 'dx keeps its sign');
  // little-endian on any machine: 2^53 is 0x4340000000000000, its lowest byte first
  assert.deepEqual(bytesOf(buffer, 40, 48), [0, 0, 0, 0, 0, 0, 0x40, 0x43]);
});

test('a touch without seq is 40 bytes, and one without id says 0', () => {
  const buffer = encodeBinaryTouch(touch({ phase: 'start', dx: 1, dy: -2.5e-7, t: 0.001 }));
  assert.equal(buffer.byteLength, 40);
  assert.deepEqual(decode(buffer),
    { kind: 1, phase: 0, padding: [0, 0, 0, 0, 0, 0], dx: 1, dy: -2.5e-7, t: 0.001, id: 0 });
  assert.deepEqual(bytesOf(buffer, 8, 16), [0, 0, 0, 0, 0, 0, 0xf0, 0x3f], 'dx = 1.0, lowest byte first');
  // a field set to undefined is absent, as in the JSON (JSON.stringify leaves it out)
  assert.equal(encodeBinaryTouch(touch({ id: undefined, seq: undefined })).byteLength, 40);
});

test('each phase has its code, and the extreme ids and seqs fit', () => {
  const phases = { start: 0, move: 1, end: 2, cancel: 3 };
  for (const [phase, code] of Object.entries(phases)) {
    assert.equal(decode(encodeBinaryTouch(touch({ phase, seq: 0 }))).phase, code, phase);
  }
  const lowest = decode(encodeBinaryTouch(touch({ id: -MAX_EXACT_INTEGER, seq: 0 })));
  assert.deepEqual([lowest.id, lowest.seq], [-MAX_EXACT_INTEGER, 0]);
  assert.equal(decode(encodeBinaryTouch(touch({ id: MAX_EXACT_INTEGER }))).id, MAX_EXACT_INTEGER);
});

test('the exported layout is the one above', () => {
  assert.equal(BINARY_TOUCH_KIND, 1);
  assert.deepEqual({ ...TouchPhaseCode }, { start: 0, move: 1, end: 2, cancel: 3 });
  assert.deepEqual({ ...BinaryTouchOffset }, { kind: 0, phase: 1, dx: 8, dy: 16, t: 24, id: 32, seq: 40 });
  assert.deepEqual([BINARY_TOUCH_BYTES, BINARY_TOUCH_WITH_SEQ_BYTES], [40, 48]);
  assert.ok(Object.isFrozen(TouchPhaseCode) && Object.isFrozen(BinaryTouchOffset));
});

test('every touch gets a buffer of its own (ws.send keeps it)', () => {
  const message = touch({ seq: 4 });
  assert.notEqual(encodeBinaryTouch(message), encodeBinaryTouch(message));
});

test('a message that cannot be spelled as a binary touch gives null (the page sends its JSON)', () => {
  const spellable = touch({ dx: 1, dy: 2, t: 3, id: 1, seq: 4 });
  assert.notEqual(encodeBinaryTouch(spellable), null, 'the base case is spellable');
  const cases = {
    'not a touch': { type: 'wheel' },
    'no type': { type: undefined },
    'an unknown phase': { phase: 'hover' },
    'a phase that is an Object.prototype name': { phase: 'toString' },
    'a phase that is a code': { phase: 1 },
    'no phase': { phase: undefined },
    'dx NaN': { dx: NaN },
    'dx infinite': { dx: Infinity },
    'dx a string': { dx: '1' },
    'no dx': { dx: undefined },
    'dy -Infinity': { dy: -Infinity },
    'dy null': { dy: null },
    't NaN': { t: NaN },
    'no t': { t: undefined },
    'a fractional id': { id: 1.5 },
    'an id past 2^53': { id: MAX_EXACT_INTEGER + 2 },
    'an id below -2^53': { id: -MAX_EXACT_INTEGER - 2 },
    'an id string': { id: '1' },
    'an id null': { id: null },
    'a fractional seq': { seq: 4.5 },
    'a negative seq': { seq: -1 },
    'a seq past 2^53': { seq: MAX_EXACT_INTEGER + 2 },
    'a seq string': { seq: '4' },
    'a seq null': { seq: null },
    'a seq NaN': { seq: NaN },
  };
  for (const [name, change] of Object.entries(cases)) {
    assert.equal(encodeBinaryTouch({ ...spellable, ...change }), null, name);
  }
  assert.equal(encodeBinaryTouch(null), null);
  assert.equal(encodeBinaryTouch(undefined), null);
});

test('a welcome reads binary touches only when its `binary` is an array naming touch', () => {
  assert.equal(readsBinaryTouch({ type: 'welcome', binary: ['touch'] }), true);
  assert.equal(readsBinaryTouch({ type: 'welcome', binary: ['wheel', 'touch'] }), true);
  assert.equal(readsBinaryTouch({ type: 'welcome' }), false);
  assert.equal(readsBinaryTouch({ type: 'welcome', binary: [] }), false);
  assert.equal(readsBinaryTouch({ type: 'welcome', binary: ['wheel'] }), false);
  assert.equal(readsBinaryTouch({ type: 'welcome', binary: 'touch' }), false);
  assert.equal(readsBinaryTouch(null), false);
});
