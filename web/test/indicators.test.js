import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeBand, indicatorRect, displayedDistance, edgeLayout, nonZeroRect } from '../js/indicators/geometry.js';
import { topStyleForPreset, stylesForPreset, registerStyle, styleNames, EdgeStateClock } from '../js/indicators/index.js';
import { footerLabel, RETRY } from '../js/indicators/footer.js';
import { arrowLabel } from '../js/indicators/arrow.js';
import { cyclePeriodMs, finishingAlpha } from '../js/indicators/common.js';

const zero = { x: 0, y: 0, w: 0, h: 0 };
const frame = (y, extra = {}) => ({
  offset: { x: 0, y }, contentSize: { w: 390, h: 7200 }, viewport: { w: 390, h: 763 }, ...extra,
});
const entry = (edge, extra = {}) => ({ edge, state: 'pulling', distance: 0, progress: 0, control: zero, view: zero, ...extra });
const vp = { w: 390, h: 763 };

test('top band is the strip between the viewport top and the content top', () => {
  assert.deepEqual(edgeBand(entry('top'), frame(-80), { x: 0, y: -80 }, vp), { x: 0, y: 0, w: 390, h: 80 });
  assert.deepEqual(edgeBand(entry('top'), frame(200), { x: 0, y: 200 }, vp), { x: 0, y: 0, w: 390, h: 0 });
});

test('bottom band starts at the content bottom', () => {
  const y = 7200 - 763 + 50; // pulled 50 px past the end
  assert.deepEqual(edgeBand(entry('bottom'), frame(y), { x: 0, y }, vp), { x: 0, y: 713, w: 390, h: 50 });
});

test('left and right bands', () => {
  assert.deepEqual(edgeBand(entry('left'), frame(0), { x: -30, y: 0 }, vp), { x: 0, y: 0, w: 30, h: 763 });
  const f = frame(0, { contentSize: { w: 390, h: 7200 } });
  assert.deepEqual(edgeBand(entry('right'), f, { x: 40, y: 0 }, vp), { x: 350, y: 0, w: 40, h: 763 });
});

test('the entry control and view rects win when they are not zero', () => {
  const control = { x: 0, y: 0, w: 390, h: 120 };
  const view = { x: 0, y: 30, w: 390, h: 60 };
  const e = entry('top', { control, view });
  const l = edgeLayout(e, frame(-120), { x: 0, y: -120 }, vp);
  assert.deepEqual(l.band, control);
  assert.deepEqual(l.view, view);
  assert.equal(nonZeroRect(zero), false);
  assert.equal(nonZeroRect(view), true);
});

test('the indicator is glued to the content edge while the band is shallow, centred beyond', () => {
  const shallow = indicatorRect(entry('top'), { x: 0, y: 0, w: 390, h: 20 }, 60);
  assert.equal(shallow.y + shallow.h, 20);
  const deep = indicatorRect(entry('top'), { x: 0, y: 0, w: 390, h: 160 }, 60);
  assert.equal(deep.y, 50);
  const bottom = indicatorRect(entry('bottom'), { x: 0, y: 700, w: 390, h: 20 }, 60);
  assert.equal(bottom.y, 700);
  const left = indicatorRect(entry('left'), { x: 0, y: 0, w: 10, h: 763 }, 60);
  assert.equal(left.x + left.w, 10);
});

test('the displayed distance follows the animated offset', () => {
  const e = entry('top', { distance: 100 });
  assert.equal(displayedDistance(e, frame(-100), { x: 0, y: -90 }), 90);
  assert.equal(displayedDistance(entry('bottom', { distance: 10 }), frame(500), { x: 0, y: 520 }), 30);
  assert.equal(displayedDistance(entry('left', { distance: 10 }), frame(0), { x: -25, y: 0 }), 35);
});

test('styles are chosen by preset; unknown presets get the spinner', () => {
  assert.equal(topStyleForPreset('ios').name, 'spinner');
  assert.equal(topStyleForPreset('ms').name, 'arrow');
  assert.equal(topStyleForPreset('no-such-preset').name, 'spinner');
  assert.equal(topStyleForPreset(undefined).name, 'spinner');
  const s = stylesForPreset('ht');
  assert.equal(s.top.name, 'arrow');
  assert.equal(s.bottom.name, 'footer');
  assert.equal(s.left.name, 'side');
  assert.equal(s.right.name, 'side');
  registerStyle({ name: 'test-ring', draw() { return null; } }, ['test-preset']);
  assert.equal(topStyleForPreset('test-preset').name, 'test-ring');
  assert.ok(styleNames().includes('test-ring'));
  assert.throws(() => registerStyle({ name: 'broken' }));
});

test('labels', () => {
  assert.equal(arrowLabel('pulling'), 'Pull to refresh');
  assert.equal(arrowLabel('armed'), 'Release to refresh');
  assert.equal(arrowLabel('refreshing'), 'Loading…');
  assert.equal(footerLabel('idle'), 'Pull up to load more');
  assert.equal(footerLabel('pulling'), 'Pull up to load more');
  assert.equal(footerLabel('armed'), 'Release to load more');
  assert.equal(footerLabel('refreshing'), 'Loading…');
  assert.equal(footerLabel('noMoreData'), 'No more items');
  assert.equal(footerLabel('failed'), "Couldn't load more — tap to retry");
  assert.equal(footerLabel('disabled'), '');
  assert.deepEqual(RETRY, { type: 'command', name: 'retry', edge: 'bottom' });
});

test('edge state clock and finishing fade', () => {
  const c = new EdgeStateClock();
  c.update([{ edge: 'top', state: 'idle' }], 1000);
  assert.ok(c.age('top', 1000) > 1000);
  c.update([{ edge: 'top', state: 'armed' }], 2000);
  assert.equal(c.age('top', 2100), 100);
  assert.equal(c.prevState('top'), 'idle');
  c.update([{ edge: 'top', state: 'armed' }], 2500);
  assert.equal(c.age('top', 2600), 600, 'the same state does not restart the clock');
  assert.equal(c.age('left', 0), Infinity);

  assert.equal(finishingAlpha({ state: 'refreshing' }, { stateAge: 0 }), 1);
  assert.equal(finishingAlpha({ state: 'finishing' }, { stateAge: 150 }, 300), 0.5);
  assert.equal(finishingAlpha({ state: 'finishing', exit: { t0: 1000, duration: 0.4 } }, { serverNow: 1100 }), 0.75);
  assert.equal(cyclePeriodMs({ duration: 0.8 }, 1000), 800);
  assert.equal(cyclePeriodMs({ duration: 1200 }, 1000), 1200);
  assert.equal(cyclePeriodMs(undefined, 1000), 1000);
});

test('each preset has its own indicator style', async () => {
  const { topStyleForPreset } = await import('../js/indicators/index.js');
  assert.equal(topStyleForPreset('ios').name, 'spinner');
  assert.equal(topStyleForPreset('jh').name, 'colorCycle');
  assert.equal(topStyleForPreset('ht').name, 'arrow');
  assert.equal(topStyleForPreset('gv').name, 'ring');
  assert.equal(topStyleForPreset('iq').name, 'ring');
  assert.equal(topStyleForPreset('nope').name, 'spinner');
});

test('the colour cycle follows the server cycle: index, then progress through it', async () => {
  const { cyclePhase } = await import('../js/indicators/colorCycle.js');
  const entry = { cycle: { index: 3, t0: 1000, duration: 0.8, delay: 0 } };
  assert.deepEqual(cyclePhase(entry, 1000), { index: 3, t: 0 });
  assert.equal(cyclePhase(entry, 1400).t, 0.5);
  assert.equal(cyclePhase(entry, 5000).t, 1);
  assert.deepEqual(cyclePhase({}, 1234), { index: 0, t: 0 });
});

test('the classic header says when the list was last refreshed, in the reader\'s language', async () => {
  const { lastUpdatedText } = await import('../js/indicators/arrow.js');
  const at = new Date(2026, 10, 23, 9, 5);
  assert.equal(lastUpdatedText(at, 'en'), 'Last updated: 09:05');
  assert.equal(lastUpdatedText(at, 'zh-Hans'), '最后更新：09:05');
  assert.equal(lastUpdatedText(null, 'en'), null);
  assert.equal(lastUpdatedText(new Date(NaN), 'en'), null);
});
