import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CloseCode, ErrorCode, NORMAL_CLOSURE, PROTOCOL } from '../js/protocol.js';

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
