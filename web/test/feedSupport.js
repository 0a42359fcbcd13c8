// The feed's node tests read the example messages of web/test/fixtures/feed/ (written by the server's own encoder:
// Tests/RefreshWireTests/Messages/FeedFixtureTests.swift) and draw on a canvas stand-in that measures 7 px a character.
import { readFileSync } from 'node:fs';

/** The example message `name` (web/test/fixtures/feed/NAME.json). */
export function message(name) {
  return JSON.parse(readFileSync(new URL(`./fixtures/feed/${name}.json`, import.meta.url), 'utf8'));
}

/** A monospace measure: 7 px a character. */
export const measure7 = (s) => s.length * 7;

/** A 2D context stand-in: measures 7 px a character and records the text drawn (`texts`). */
export function fakeContext() {
  const texts = [];
  const ctx = {
    texts, font: '', fillStyle: '', textAlign: '', textBaseline: '', measures: 0,
    measureText(s) {
      ctx.measures += 1;
      return { width: measure7(s) };
    },
    fillText(s, x, y) { texts.push({ s, x, y, font: ctx.font }); },
    fillRect() {}, beginPath() {}, arc() {}, fill() {}, rect() {}, roundRect() {}, clip() {}, save() {}, restore() {},
    images: [],
    drawImage(bitmap, sx, sy, sw, sh, x, y, w, h) { ctx.images.push({ bitmap, src: [sx, sy, sw, sh], box: [x, y, w, h] }); },
  };
  return ctx;
}
