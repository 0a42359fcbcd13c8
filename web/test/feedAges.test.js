import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ageText, durationText } from '../js/feed/ages.js';
import { articleContent } from '../js/feedMirror.js';
import { FeedState } from '../js/feed/feedState.js';
import { message } from './feedSupport.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

/** How old a label says, in minutes, for comparing labels of different units. */
function minutesOf(label) {
  if (label === 'now') return 0;
  const n = Number.parseInt(label, 10);
  return n * { m: 1, h: 60, d: 1440, y: 525600 }[label.at(-1)];
}

test('ages are written as timelines write them: now, 3m, 2h, 5d, 2y', () => {
  const now = 1732480100000;
  assert.equal(ageText(now, now), 'now');
  assert.equal(ageText(now - 59 * S, now), 'now');
  assert.equal(ageText(now - 60 * S, now), '1m');
  assert.equal(ageText(now - 3 * M - 30 * S, now), '3m');
  assert.equal(ageText(now - 59 * M, now), '59m');
  assert.equal(ageText(now - 2 * H - 5 * M, now), '2h');
  assert.equal(ageText(now - 23 * H, now), '23h');
  assert.equal(ageText(now - 5 * D, now), '5d');
  assert.equal(ageText(now - 800 * D, now), '2y');
  assert.equal(ageText(now + 5 * M, now), 'now', 'a time ahead of the page clock');
  assert.equal(durationText(NaN), 'now');
});

test("an external source's rows read youngest first, newest first (the fixtures' items)", () => {
  const feed = new FeedState();
  feed.receive(message('welcome'));
  for (const name of ['rows-replace', 'rows-prepend', 'rows-append']) feed.receive(message(name));
  const now = 1732480100000;
  const ages = feed.rows.items.map((item) => ageText(item.time, now));
  assert.deepEqual(ages, ['now', 'now', '1m', '3m', '1h', '1d', '1y']);
  const minutes = ages.map(minutesOf);
  for (let i = 1; i < minutes.length; i++) assert.ok(minutes[i] >= minutes[i - 1], `${ages[i - 1]} above ${ages[i]}`);
  // the screen reader's articles say the same
  assert.deepEqual(articleContent({ count: 7 }, 0, feed, now), {
    title: 'device A', byline: '', subtitle: 'posted from device A', time: 'now', link: '',
  });
  assert.equal(articleContent({ count: 7 }, 4, feed, now).title.startsWith('Never put off'), true, 'no author: the text names it');
  assert.deepEqual(articleContent({ count: 7 }, 9, feed, now), { title: '', byline: '', subtitle: '', time: '', link: '' });
});

