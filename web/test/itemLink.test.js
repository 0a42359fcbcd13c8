// An item's title and link on the page (js/feed/itemLink.js, docs/PAGE.md "Titles and links"): the heading a row
// draws above its text, its height, the link drawn for an item with neither title nor text, which addresses a tap
// may open, and when a tap opens one (never after a drag, a fling or a pull: js/pointerInput.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeLink, linkText, headingOf, tapLink, LINK_TEXT_MAX } from '../js/feed/itemLink.js';
import { layoutRow, textBox, MIN_ROW, MAX_HEADING_LINES } from '../js/feed/rowLayout.js';
import { TITLE_BASELINE, TEXT_BASELINE, LINE_HEIGHT, HEADING_LINE_HEIGHT } from '../js/feed/rowText.js';
import { TouchTracker } from '../js/pointerInput.js';
import { t, setLanguage } from '../js/i18n.js';
import { articleContent } from '../js/feedMirror.js';
import { measure7 } from './feedSupport.js';

const tw = textBox(390).w;
const row = (item) => layoutRow({ id: 'x', time: 0, ...item }, tw, measure7, measure7);

test('only http and https addresses are links a tap or the mirror may follow', () => {
  assert.equal(safeLink('https://example.test/a'), 'https://example.test/a');
  assert.equal(safeLink('http://example.test'), 'http://example.test/');
  assert.equal(safeLink('  HTTPS://Example.TEST/a b  '), 'https://example.test/a%20b');
  for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,<b>x</b>',
    'vbscript:x', 'file:///etc/passwd', 'mailto:a@b.test', 'ftp://example.test/', '/relative/path', '//example.test/a',
    'example.test', 'https://', '', '   ', null, undefined, 42, {}]) {
    assert.equal(safeLink(bad), null, String(bad));
  }
});

test('an untitled, textless item is drawn by its link: host and path, shortened', () => {
  assert.equal(linkText('https://www.example.test/posts/2024/hello/?utm=x#top'), 'example.test/posts/2024/hello');
  assert.equal(linkText('https://example.test/'), 'example.test');
  assert.equal(linkText('http://example.test:8080/a'), 'example.test:8080/a');
  assert.equal(linkText('https://example.test/caf%C3%A9'), 'example.test/café');
  assert.equal(linkText('https://example.test/%E0%A4%A'), 'example.test/%E0%A4%A', 'a bad escape as it is');
  const long = linkText(`https://example.test/${'segment/'.repeat(20)}end`);
  assert.equal([...long].length, LINK_TEXT_MAX);
  assert.ok(long.startsWith('example.test/segment/') && long.endsWith('…'));
  assert.equal(linkText('javascript:alert(1)'), '');
});

test("a row's heading: the title; for neither title nor text the link, else Untitled (in the reader's language)", () => {
  assert.equal(headingOf({ text: 'body', title: '  A   title ' }), 'A title');
  assert.equal(headingOf({ text: 'body' }), null, 'no title: the row as it always was');
  assert.equal(headingOf({ text: 'body', url: 'https://example.test/a' }), null);
  assert.equal(headingOf({ text: '', url: 'https://example.test/a' }), 'example.test/a');
  assert.equal(headingOf({ text: ' ', title: '', url: 'javascript:alert(1)' }), 'Untitled');
  assert.equal(headingOf({ text: '' }), 'Untitled');
  setLanguage('zh-Hans');
  try {
    assert.equal(headingOf({ text: '' }), '无标题');
    assert.equal(t('feed.untitled'), '无标题');
  } finally {
    setLanguage('en');
  }
});

test('the title is drawn above the text in its own lines, and the row is taller by them', () => {
  const plain = row({ author: 'Ann', text: 'Some words of text' });
  const titled = row({ author: 'Ann', text: 'Some words of text', title: 'A title' });
  assert.deepEqual(plain.heading, []);
  assert.equal(plain.textY, TEXT_BASELINE, 'no title: the text under the author, as before');
  assert.deepEqual(titled.heading, ['A title']);
  assert.equal(titled.headingY, TITLE_BASELINE + HEADING_LINE_HEIGHT, 'under the author line');
  assert.equal(titled.textY, titled.headingY + TEXT_BASELINE - TITLE_BASELINE, 'the text under the title');
  assert.deepEqual(titled.lines, plain.lines);
  assert.equal(titled.byline, 'Ann');
  // a one-line text under a title: past the 72 px floor, by the title's line
  const longer = row({ author: 'Ann', text: 'One two three four', title: 'T' });
  assert.equal(longer.height, Math.max(MIN_ROW, longer.textY + 6 + 12));
  assert.ok(longer.height > plain.height, `${longer.height} > ${plain.height}`);
  // without an author the title starts on the first line, beside the age
  const noAuthor = row({ text: 'text', title: 'Heading' });
  assert.equal(noAuthor.headingY, TITLE_BASELINE);
  assert.equal(noAuthor.textY, TEXT_BASELINE);
  assert.equal(row({ text: 'text' }).textY, TITLE_BASELINE, 'neither author nor title: as before');
});

test('a long title wraps like the text, at most three lines ending in "…"; every line adds to the height', () => {
  const words = (n) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  const one = row({ author: 'A', text: 'x', title: words(2) });
  const two = row({ author: 'A', text: 'x', title: words(8) });
  const long = row({ author: 'A', text: 'x', title: words(200) });
  assert.equal(one.heading.length, 1);
  assert.equal(two.heading.length, 2);
  assert.ok(two.heading.every((l) => measure7(l) <= tw));
  assert.equal(long.heading.length, MAX_HEADING_LINES);
  assert.ok(long.heading.at(-1).endsWith('…'));
  assert.equal(two.height - one.height, HEADING_LINE_HEIGHT);
  assert.equal(long.textY, long.headingY + (MAX_HEADING_LINES - 1) * HEADING_LINE_HEIGHT + TEXT_BASELINE - TITLE_BASELINE);
  const text = row({ author: 'A', text: words(20), title: words(2) });
  assert.ok(text.lines.length > 1);
  assert.equal(text.height, text.textY + (text.lines.length - 1) * LINE_HEIGHT + 6 + 12);
});

test('an item with only a link, or nothing, is one heading line; with only a title, no text lines', () => {
  const linkOnly = row({ text: '', url: 'https://www.example.test/notes/42' });
  assert.deepEqual(linkOnly.heading, ['example.test/notes/42']);
  assert.deepEqual(linkOnly.lines, []);
  assert.equal(linkOnly.height, MIN_ROW);
  assert.notEqual(linkOnly.initials, '·');
  assert.deepEqual(row({ text: '' }).heading, ['Untitled']);
  const titleOnly = row({ text: '', title: 'Only a title', author: 'Ann' });
  assert.deepEqual(titleOnly.heading, ['Only a title']);
  assert.deepEqual(titleOnly.lines, []);
});

test('the mirror names an article by its title and carries its safe link', () => {
  const state = (item) => ({ rows: { item: () => ({ id: '1', time: null, ...item }) } });
  const c = (item) => articleContent(null, 0, state(item));
  assert.deepEqual(c({ text: 'body', author: 'Ann', title: 'T', url: 'https://example.test/a' }),
    { title: 'T', byline: 'Ann', subtitle: 'body', time: '', link: 'https://example.test/a' });
  assert.deepEqual(c({ text: 'body', author: 'Ann' }), { title: 'Ann', byline: '', subtitle: 'body', time: '', link: '' });
  assert.deepEqual(c({ text: 'body' }), { title: 'body', byline: '', subtitle: '', time: '', link: '' });
  assert.equal(c({ text: '', url: 'https://example.test/b' }).title, 'example.test/b');
  assert.equal(c({ text: '', url: 'javascript:alert(1)' }).title, 'Untitled');
  assert.equal(c({ text: 'x', title: 'T', url: 'javascript:alert(1)' }).link, '', 'never an unsafe href');
});

test('a tap opens the row\'s link; a drag, a fling, a pull, a tap on a control or one that stops the list does not', () => {
  const item = { id: '1', text: 'x', url: 'https://example.test/a' };
  const gesture = (moves, ms = 80) => {
    const tracker = new TouchTracker();
    tracker.start(1, 100, 200, 0);
    let y = 200;
    for (const dy of moves) {
      y += dy;
      tracker.move(1, [{ x: 100, y, t: 10 }], 10);
    }
    return tracker.finish(1, 100, y, ms).tap;
  };
  const tap = gesture([]);
  assert.ok(tap);
  assert.equal(tapLink({ tap, atRest: true, target: null, item }), 'https://example.test/a');
  assert.equal(tapLink({ tap: gesture([3, -2]), atRest: true, target: null, item }), 'https://example.test/a',
    'a finger that shakes a little still taps');
  assert.equal(gesture([30, 40, 60]), null, 'a drag (or a pull) is no tap');
  assert.equal(gesture([8, 8]), null, 'a short fling is no tap');
  assert.equal(gesture([], 900), null, 'a long press is no tap');
  assert.equal(tapLink({ tap: null, atRest: true, target: null, item }), null);
  assert.equal(tapLink({ tap, atRest: false, target: null, item }), null, 'a tap that stops a fling only stops it');
  assert.equal(tapLink({ tap, atRest: true, target: { type: 'command' }, item }), null, "a control's target wins");
  assert.equal(tapLink({ tap, atRest: true, target: null, item: { ...item, url: 'javascript:alert(1)' } }), null);
  assert.equal(tapLink({ tap, atRest: true, target: null, item: { id: '2', text: 'x' } }), null);
  assert.equal(tapLink({ tap, atRest: true, target: null, item: null }), null);
});
