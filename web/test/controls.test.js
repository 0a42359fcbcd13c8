import { test } from 'node:test';
import assert from 'node:assert/strict';
// The control API's pure parts: where an edge's control draws (geometry), which control an edge gets
// (choice), the phases of the cycle and the exit (phase), the API's checks, the built-ins' words.
import { edgeBand, indicatorRect, displayedDistance, edgeLayout, nonZeroRect } from '../js/controls/geometry.js';
import { EdgeStateClock } from '../js/controls/stateClock.js';
import { chooseControls, defaultControl, parseControlParam } from '../js/controls/choice.js';
import { receiveCatalogue } from '../js/catalogue.js';
import { readFileSync } from 'node:fs';
import { cyclePhase, exitPhase } from '../js/controls/phase.js';
import { defineControl, registerControl, registeredControl, registeredNames, controlProblem, ControlError } from '../js/controls/api.js';
import { BUILT_IN } from '../js/controls/builtin/index.js';
import { footerLabel, RETRY } from '../js/controls/builtin/footer.js';
import { arrowLabel } from '../js/controls/builtin/arrow.js';

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

test('each edge gets the configured control, else its preset\'s own (the catalogue\'s); the page\'s own choice first', () => {
  receiveCatalogue({});
  assert.equal(defaultControl('top', 'jh'), 'spinner', 'before any welcome: the edge\'s built-in control');
  assert.equal(defaultControl('right', 'ht'), 'side');
  receiveCatalogue(JSON.parse(readFileSync(new URL('./fixtures/catalogue.json', import.meta.url), 'utf8')));
  assert.equal(defaultControl('top', 'ios'), 'spinner');
  assert.equal(defaultControl('top', 'jh'), 'colorCycle');
  assert.equal(defaultControl('top', 'ht'), 'arrow');
  assert.equal(defaultControl('top', 'ms'), 'arrow');
  assert.equal(defaultControl('top', 'gv'), 'ring');
  assert.equal(defaultControl('top', 'iq'), 'ring');
  assert.equal(defaultControl('top', 'nope'), 'spinner');
  assert.deepEqual(chooseControls(null, 'ht'), { top: 'arrow', bottom: 'footer', left: 'side', right: 'side' });
  const config = { edges: { top: { control: 'bubbles' }, bottom: { control: 'bad name!' } } };
  assert.deepEqual(chooseControls(config, 'ios'), { top: 'bubbles', bottom: 'footer', left: 'side', right: 'side' });
  assert.equal(chooseControls(config, 'ios', { top: 'ring' }).top, 'ring');
});

test('?control= names the top edge, or EDGE:NAME another; malformed parts are refused', () => {
  assert.deepEqual(parseControlParam('bubbles'), { edges: { top: 'bubbles' }, refused: [] });
  assert.deepEqual(parseControlParam('google,bottom:htFooter'), { edges: { top: 'google', bottom: 'htFooter' }, refused: [] });
  assert.deepEqual(parseControlParam('middle:x,../evil'), { edges: {}, refused: ['middle:x', '../evil'] });
  assert.deepEqual(parseControlParam(null), { edges: {}, refused: [] });
});

test('the cycle phase is a function of server time: the frame\'s cycle, then the ones after it', () => {
  const cycle = { index: 3, t0: 1000, duration: 0.8, delay: 0, kind: 'default' };
  assert.deepEqual(cyclePhase(cycle, 1000), { index: 3, t: 0, period: 800, delay: 0, startedAt: 1000, kind: 'default' });
  assert.equal(cyclePhase(cycle, 1400).t, 0.5);
  assert.equal(cyclePhase(cycle, 2200).index, 4, 'past the announced cycle the next one follows');
  assert.equal(cyclePhase(cycle, 2200).t, 0.5);
  const delayed = { index: 0, t0: 0, duration: 1, delay: 0.5 };
  assert.equal(cyclePhase(delayed, 250).t, 0, 'no movement during the delay');
  assert.equal(cyclePhase(delayed, 1000).t, 0.5);
  assert.equal(cyclePhase(delayed, 1600).index, 1);
  // without a cycle: fixed cycles from server time 0, the same on every device
  assert.deepEqual(cyclePhase(null, 2500, 1000), { index: 2, t: 0.5, period: 1000, delay: 0, startedAt: 2000, kind: 'default' });
  assert.deepEqual(exitPhase({ t0: 1000, duration: 0.4 }, 1100, 0), { t: 0.25, duration: 400 });
  assert.deepEqual(exitPhase(undefined, 0, 150, 300), { t: 0.5, duration: 300 });
});

test('defineControl checks the hooks and names the one at fault', () => {
  const ok = defineControl({ name: 'test-ok', progress() {}, cycle() {} });
  assert.ok(Object.isFrozen(ok));
  assert.equal(ok.cycleMs, 1000);
  assert.throws(() => defineControl({ name: 'no-cycle', progress() {} }), (e) => e instanceof ControlError && e.hook === 'cycle' && /no-cycle/.test(e.message));
  assert.throws(() => defineControl({ name: 'bad exit', progress() {}, cycle() {} }), (e) => e.hook === 'name');
  assert.equal(controlProblem({ name: 'x', progress() {}, cycle() {}, exit: 3 }).hook, 'exit');
  assert.equal(controlProblem(undefined).hook, 'load');
  registerControl({ name: 'test-registered', progress() {}, cycle() {} });
  assert.equal(registeredControl('test-registered').name, 'test-registered');
  assert.equal(registeredControl('nope'), null);
});

test('the built-in controls are registered on the public API under the agreed names', () => {
  assert.deepEqual(BUILT_IN.map((c) => c.name), ['spinner', 'colorCycle', 'arrow', 'ring', 'footer', 'side']);
  for (const name of ['spinner', 'colorCycle', 'arrow', 'ring', 'footer', 'side']) {
    assert.ok(registeredNames().includes(name));
    assert.equal(controlProblem(registeredControl(name)), null);
  }
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

test('edge state clock', () => {
  const c = new EdgeStateClock();
  c.update([{ edge: 'top', state: 'idle' }], 1000);
  assert.ok(c.age('top', 1000) > 1000);
  c.update([{ edge: 'top', state: 'armed' }], 2000);
  assert.equal(c.age('top', 2100), 100);
  assert.equal(c.prevState('top'), 'idle');
  c.update([{ edge: 'top', state: 'armed' }], 2500);
  assert.equal(c.age('top', 2600), 600, 'the same state does not restart the clock');
  assert.equal(c.age('left', 0), Infinity);
});

test('the classic header says when the list was last refreshed, in the reader\'s language', async () => {
  const { lastUpdatedText } = await import('../js/controls/builtin/arrow.js');
  const at = new Date(2026, 10, 23, 9, 5);
  assert.equal(lastUpdatedText(at, 'en'), 'Last updated: 09:05');
  assert.equal(lastUpdatedText(at, 'zh-Hans'), '最后更新：09:05');
  assert.equal(lastUpdatedText(null, 'en'), null);
  assert.equal(lastUpdatedText(new Date(NaN), 'en'), null);
});

test('every example control is at most 150 lines, named as its file, and says what it draws (docs/CONTROLS.md)', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const folder = new URL('../../examples/controls/', import.meta.url);
  const files = (await readdir(folder)).filter((f) => f.endsWith('.js')).sort();
  assert.deepEqual(files, ['bubbles.js', 'colors.js', 'google.js', 'gvStretch.js', 'htFooter.js', 'htHeader.js',
    'iqLabel.js', 'rainbow.js', 'yahoo.js']);
  for (const file of files) {
    const text = await readFile(new URL(file, folder), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 150, `${file}: ${lines} lines`);
    assert.match(text, /^\/\/ .*\n(\/\/.*\n)*/, `${file} opens with its header`);
    assert.match(text.split('import')[0], /docs\/CONTROLS\.md/, `${file}'s header cites docs/CONTROLS.md`);
    assert.match(text, new RegExp(`name: '${file.slice(0, -3)}'`), `${file} is called as its file`);
    assert.match(text, /defineControl\(/);
  }
});
