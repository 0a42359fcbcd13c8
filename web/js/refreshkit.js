// RefreshKit's page, as a module to import: what a page that embeds a list, or a control of one's own, uses.
// Everything else under js/ is the demo page's own and may change without notice; this surface is documented in
// docs/PAGE.md and changes only with it.
//
//   import { createSession } from '/js/refreshkit.js';
//   const session = createSession(document.querySelector('canvas'), { preset: 'ios' });
//   session.on('event', (ev) => console.log(ev.name, ev.edge));
import { LiveSession } from './session/liveSession.js';

export { LiveSession } from './session/liveSession.js';
export { SessionIdentity } from './session/identity.js';
export { ErrorCode, CloseCode, PROTOCOL } from './protocol.js';
export { keyAction } from './keys.js';

/** A LiveSession on `canvas` with `options` (docs/PAGE.md), connected. */
export function createSession(canvas, options = {}) {
  return new LiveSession(canvas, options).connect();
}

// The controls API: your own edge controls (docs/CONTROLS.md).
export * from './controls/api.js';
