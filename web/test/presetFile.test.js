// The panel's preset-file pure parts: the file made from the live configuration, the problems read from the
// server's refusal, the file's text parsed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { presetFileOf, problemsOf, parseFile } from '../js/panel/presetFile.js';

const catalogue = JSON.parse(readFileSync(new URL('./fixtures/catalogue.json', import.meta.url), 'utf8'));
const presets = Object.keys(catalogue);

test('an exported file is the live config, named and based on the preset the session is on', () => {
  const config = { edges: { top: { triggerDistance: 90 } }, insets: {}, feed: {}, physics: {} };
  assert.deepEqual(presetFileOf(config, { preset: 'jh', presets, catalogue }), {
    name: 'jh', base: 'jh', library: 'JHPullToRefreshKit', summary: catalogue.jh.summary, config,
  });
  // a preset the server does not offer (a file the page loaded) is no base: the file stands alone
  assert.deepEqual(presetFileOf(config, { preset: 'my-gv', presets, catalogue }),
    { name: 'my-gv', summary: '', config });
  // no name, or one a file cannot have: "mine"
  assert.equal(presetFileOf(config, { preset: null }).name, 'mine');
  assert.equal(presetFileOf(config, { preset: 'a b' }).name, 'mine');
  assert.equal(presetFileOf(config, { preset: 'constructor', presets, catalogue }).library, undefined);
});

test('the problems of a refusal are listed one by one; other errors are not a file\'s', () => {
  assert.deepEqual(
    problemsOf('configure.presetFile is refused (2 problems): feed.pageSize must be between 1 and 1000, got 0\n'
      + 'feed.rowHeight must be a finite number; got a string'),
    ['feed.pageSize must be between 1 and 1000, got 0', 'feed.rowHeight must be a finite number; got a string']);
  assert.equal(problemsOf('edges.top.height must be between 1 and 10000, got 0.0'), null);
  assert.equal(problemsOf(undefined), null);
});

test('a file that is not JSON is said so, and nothing is sent', () => {
  assert.deepEqual(parseFile('{"name": "x"}'), { file: { name: 'x' } });
  assert.match(parseFile('{"name": ').problem, /^not JSON: /);
});
