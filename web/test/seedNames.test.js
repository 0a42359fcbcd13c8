// The seed names the panel shows beside ours come from the catalogue the server sends (welcome.catalogue);
// fixtures/catalogue.json is the seeds' catalogue as the Swift encoder writes it (CatalogueJSONTests).
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { receiveCatalogue, seedNames, seedNamesForTransition, libraryFor } from '../js/panel/seedNames.js';

const catalogue = JSON.parse(readFileSync(new URL('./fixtures/catalogue.json', import.meta.url), 'utf8'));

beforeEach(() => receiveCatalogue(catalogue));

test('the catalogue holds every seed preset', () => {
  assert.deepEqual(Object.keys(catalogue), ['ios', 'jh', 'ht', 'gv', 'ms', 'iq']);
});

test('seed names: each preset maps our events to its library\'s names', () => {
  assert.deepEqual(seedNames('ms', { name: 'armed' }), ['canEngage']);
  assert.deepEqual(seedNames('ms', { name: 'disarmed' }), ['didDisengage']);
  assert.deepEqual(seedNames('ms', { name: 'didStart' }), ['didEngage']);
  assert.deepEqual(seedNames('ms', { name: 'didEnd' }), []);
  assert.deepEqual(seedNames('ht', { name: 'willEnd' }), ['WillEndRefresh']);
  assert.deepEqual(seedNames('ht', { name: 'didEnd' }), ['DidEndRefresh']);
  assert.deepEqual(seedNames('jh', { name: 'cycleStarted' }), ['refreshControlDidStartAnimationCycle']);
  assert.deepEqual(seedNames('jh', { name: 'cycleEnded' }), ['refreshControlDidEndAnimationCycle']);
  assert.deepEqual(seedNames('iq', { name: 'transition', from: 'idle', to: 'pulling' }), ['.pulling(progress)']);
  assert.deepEqual(seedNames('iq', { name: 'armed' }), ['.eligible']);
  // IQ names the two roles differently
  assert.deepEqual(seedNames('iq', { name: 'didStart' }, 'refresh'), ['.refreshing']);
  assert.deepEqual(seedNames('iq', { name: 'didStart' }, 'loadMore'), ['loadingBegin']);
  assert.deepEqual(seedNames('iq', { name: 'didEnd' }), ['.none / loadingFinished']);
  for (const p of ['ios', 'gv']) {
    assert.deepEqual(seedNames(p, { name: 'didStart' }), ['valueChanged (beginRefreshing)']);
    assert.deepEqual(seedNames(p, { name: 'didEnd' }), ['endRefreshing']);
  }
  // a transition's companions (armed, didStart) carry the names; the transition itself does not repeat them
  assert.deepEqual(seedNames('ms', { name: 'transition', from: 'pulling', to: 'armed' }), []);
  assert.deepEqual(seedNames('nope', { name: 'didStart' }), []);
  assert.deepEqual(seedNames('ms', null), []);
  assert.deepEqual(seedNames('toString', { name: 'didStart' }), []);
  assert.equal(libraryFor('jh'), 'JHPullToRefreshKit');
  assert.equal(libraryFor('ios'), 'UIRefreshControl');
  assert.equal(libraryFor('constructor'), null);
  // the returned lists are copies
  seedNames('ms', { name: 'armed' }).push('x');
  assert.deepEqual(seedNames('ms', { name: 'armed' }), ['canEngage']);
});

test('seed names of a whole transition include the event it implies', () => {
  assert.deepEqual(seedNamesForTransition('ms', 'pulling', 'armed'), ['canEngage']);
  assert.deepEqual(seedNamesForTransition('ms', 'armed', 'pulling'), ['didDisengage']);
  assert.deepEqual(seedNamesForTransition('ht', 'armed', 'refreshing'), ['DidEngageRefresh']);
  assert.deepEqual(seedNamesForTransition('ht', 'refreshing', 'finishing'), ['WillEndRefresh']);
  assert.deepEqual(seedNamesForTransition('ht', 'finishing', 'idle'), ['DidEndRefresh']);
  assert.deepEqual(seedNamesForTransition('iq', 'armed', 'pulling'), ['.pulling(progress)']);
  assert.deepEqual(seedNamesForTransition('iq', 'idle', 'refreshing', 'loadMore'), ['loadingBegin']);
  assert.deepEqual(seedNamesForTransition('ios', 'pulling', 'idle'), []);
});

test('a preset of the server\'s own, without a library, has no names; a bad catalogue is none', () => {
  receiveCatalogue({ ...catalogue, mine: { summary: 'mine', eventNames: {} } });
  assert.equal(libraryFor('mine'), null);
  assert.deepEqual(seedNames('mine', { name: 'didStart' }), []);
  assert.equal(libraryFor('jh'), 'JHPullToRefreshKit');
  for (const bad of [null, undefined, 'x', [1], 7]) {
    receiveCatalogue(bad);
    assert.equal(libraryFor('jh'), null);
    assert.deepEqual(seedNames('jh', { name: 'didStart' }), []);
  }
  receiveCatalogue({ jh: { library: 7, eventNames: { didStart: 'no' } } });
  assert.equal(libraryFor('jh'), null);
  assert.deepEqual(seedNames('jh', { name: 'didStart' }), []);
});
