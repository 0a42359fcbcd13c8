// The seed libraries' own names for our events, per preset, so the panel can show "didStart
// (refreshControlDidStart)". The facts come from the server: `welcome.catalogue` (docs/PROTOCOL.md,
// "welcome"), written from the Swift presets, which are their one source. Pure module, no DOM: unit tested in
// web/test/seedNames.test.js.
//
// A catalogue is {preset: {library?, summary, eventNames}}. An event name's key is our event's name
// (docs/PROTOCOL.md, "event"), or `transition:<to>` for a state change that a library reports as a state of
// its own; its value is a list of names, or {refresh, loadMore} when the library names the two roles
// differently.

export { receiveCatalogue, libraryFor } from '../catalogue.js';
import { catalogueEntry } from '../catalogue.js';

function lookup(preset, key, role) {
  const table = catalogueEntry(preset)?.eventNames;
  if (!table || typeof table !== 'object' || !Object.hasOwn(table, key)) return [];
  const v = table[key];
  if (Array.isArray(v)) return v.slice();
  if (!v || typeof v !== 'object') return [];
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
