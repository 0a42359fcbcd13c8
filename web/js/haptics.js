// Haptics where the device has them (`navigator.vibrate`), after IQPullToRefresh (docs/SEEDS.md §5): a selection
// tick when a pull arms and when it disarms (entering and leaving "eligible"), and an impact when a refresh starts.
// Only on the device whose finger (or wheel) is pulling, never with reduced motion, and switchable in the panel.
import { eventKind } from './protocol.js';

/** Vibration lengths, ms: a selection tick is the shortest pulse a phone renders; an impact a little longer. */
export const HAPTIC_MS = Object.freeze({ armed: 8, disarmed: 8, didStart: 18 });

/** An input from this page this recently means its user is the one pulling. */
export const LOCAL_GESTURE_MS = 400;

/** How long to vibrate for `event` (0: not at all). */
export function hapticFor(event, { enabled = true, reducedMotion = false, sinceLocalInputMs = Infinity } = {}) {
  if (!enabled || reducedMotion || event?.type !== 'event') return 0;
  if (!(sinceLocalInputMs <= LOCAL_GESTURE_MS)) return 0;
  const kind = eventKind(event);
  if (kind === 'didStart' && event.cause === 'command') return 0; // a button or key, not a pull
  return HAPTIC_MS[kind] ?? 0;
}

/** Carries `hapticFor` out with `navigator.vibrate`, where there is one. */
export class Haptics {
  constructor({ nav = globalThis.navigator, storage = globalThis.localStorage } = {}) {
    this.nav = nav;
    this.storage = storage;
    this.enabled = readSetting(storage);
    this.supported = typeof nav?.vibrate === 'function';
  }

  setEnabled(on) {
    this.enabled = on;
    try {
      this.storage?.setItem('refreshkit.haptics', on ? '1' : '0');
    } catch {
      // private mode: the switch holds for this page only
    }
  }

  onEvent(event, context) {
    const ms = this.supported ? hapticFor(event, { ...context, enabled: this.enabled }) : 0;
    if (ms > 0) this.nav.vibrate(ms);
    return ms;
  }
}

function readSetting(storage) {
  try {
    return storage?.getItem('refreshkit.haptics') !== '0';
  } catch {
    return true;
  }
}
