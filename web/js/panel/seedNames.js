// The seed libraries' own names for our events, per preset, so the panel can show "didStart
// (refreshControlDidStart)". Pure module: unit tested in web/test/panel.test.js.
//
// Keys are our event names (docs/PROTOCOL.md, "event"), or `transition:<to>` for a state change that a
// library reports as a state of its own. A value is a list of names, or {refresh, loadMore} when the
// library names the two roles differently.

/** The library each preset imitates. */
export const LIBRARIES = Object.freeze({
  ios: 'UIRefreshControl',
  jh: 'JHPullToRefreshKit',
  ht: 'HTRefreshView',
  gv: 'GVRefreshControl',
  ms: 'MSPullToRefreshController',
  iq: 'IQPullToRefresh',
});

const UIKIT = Object.freeze({
  didStart: ['valueChanged (beginRefreshing)'],
  didEnd: ['endRefreshing'],
});

export const SEED_NAMES = Object.freeze({
  ms: Object.freeze({
    armed: ['canEngage'],
    disarmed: ['didDisengage'],
    didStart: ['didEngage'],
  }),
  ht: Object.freeze({
    armed: ['CanEngageRefresh'],
    disarmed: ['DidDisengageRefresh'],
    didStart: ['DidEngageRefresh'],
    willEnd: ['WillEndRefresh'],
    didEnd: ['DidEndRefresh'],
  }),
  jh: Object.freeze({
    didStart: ['refreshControlDidStart'],
    cycleStarted: ['refreshControlDidStartAnimationCycle'],
    cycleEnded: ['refreshControlDidEndAnimationCycle'],
    didEnd: ['refreshControlDidEnd'],
  }),
  iq: Object.freeze({
    'transition:pulling': ['.pulling(progress)'],
    armed: ['.eligible'],
    didStart: { refresh: ['.refreshing'], loadMore: ['loadingBegin'] },
    didEnd: { refresh: ['.none'], loadMore: ['loadingFinished'] },
  }),
  gv: UIKIT,
  ios: UIKIT,
});

/** The library a preset imitates, or null. */
export function libraryFor(preset) {
  return Object.hasOwn(LIBRARIES, preset ?? '') ? LIBRARIES[preset] : null;
}

function lookup(preset, key, role) {
  const table = Object.hasOwn(SEED_NAMES, preset ?? '') ? SEED_NAMES[preset] : null;
  if (!table || !Object.hasOwn(table, key)) return [];
  const v = table[key];
  if (Array.isArray(v)) return v.slice();
  if (role === 'refresh' || role === 'loadMore') return (v[role] || []).slice();
  // role unknown: both, as "a / b"
  return [[...(v.refresh || []), ...(v.loadMore || [])].join(' / ')];
}

/**
 * The preset's library names for one event (`{name, from?, to?}`); `role` is the edge's role when known.
 * A `transition` maps only through `transition:<to>` (its armed/didStart/… companions have their own events).
 */
export function seedNames(preset, ev, role) {
  if (!ev || typeof ev.name !== 'string') return [];
  if (ev.name === 'transition') return ev.to ? lookup(preset, `transition:${ev.to}`, role) : [];
  return lookup(preset, ev.name, role);
}

/**
 * The preset's library names for a state change seen as a whole (the timeline's rows): the transition's
 * own name plus those of the event it implies (→ armed: armed, armed → pulling: disarmed, → refreshing:
 * didStart, → finishing: willEnd, refreshing/finishing → idle: didEnd).
 */
export function seedNamesForTransition(preset, from, to, role) {
  const names = lookup(preset, `transition:${to}`, role);
  const implied = [];
  if (to === 'armed') implied.push('armed');
  if (from === 'armed' && to === 'pulling') implied.push('disarmed');
  if (to === 'refreshing') implied.push('didStart');
  if (to === 'finishing') implied.push('willEnd');
  if (to === 'idle' && (from === 'finishing' || from === 'refreshing')) implied.push('didEnd');
  for (const name of implied) for (const n of lookup(preset, name, role)) if (!names.includes(n)) names.push(n);
  return names;
}
