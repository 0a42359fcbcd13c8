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

// The controls API: your own edge controls (docs/CONTROLS.md), what they draw with and the page's words. A
// control loaded from /controls/ imports this module by the same URL as the page's own modules import theirs,
// so it shares their module instances (the registry of controls, the page's language): docs/PAGE.md, "The
// modules".
export * from './controls/api.js';
export {
  TAU, clamp01, ease, drawTicks, drawActivity, drawArrow, drawCheck, roundRectPath, setFont,
} from './draw/paint.js';
export { ellipsize } from './draw/wrap.js';
export { t, language } from './i18n.js';
