// A row's age, as the timelines people use write it: "now", "3m", "2h", "5d", "2y". One rule for every row, a
// non-decreasing function of how old an item is, so a list ordered newest first reads youngest first.
// Pure: no clock of its own (the caller passes `now`), unit tested with node (web/test/feedAges.test.js).
import { hashId } from './hash.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** The age label of an item made at `timeMs` (ms since 1970), seen at `nowMs`. A time in the future is "now". */
export function ageText(timeMs, nowMs) {
  return durationText(nowMs - timeMs);
}

/** The label of an age of `ms` milliseconds: whole units, rounded down (a 59 s old item is "now", 119 s is "1m"). */
export function durationText(ms) {
  if (!(ms >= MINUTE)) return 'now'; // NaN and negative ages too
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)}m`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)}h`;
  if (ms < YEAR) return `${Math.floor(ms / DAY)}d`;
  return `${Math.floor(ms / YEAR)}y`;
}

/**
 * The simulated feed's invented age of item `id` when `newest` is the top item, in minutes: the top item is
 * 1 minute old and each older id is 3 to 11 minutes older than the next newer one (a step of 7 minutes with a
 * jitter of 0–4 from the id's hash), so an older item is never younger. Deterministic: every page agrees.
 */
export function simulatedMinutes(id, newest) {
  return 1 + inventedTime(newest) - inventedTime(id);
}

/** The simulated feed's age label of item `id` under the top item `newest`. */
export function simulatedAge(id, newest) {
  return durationText(simulatedMinutes(id, newest) * MINUTE);
}

/** A made-up creation time in minutes, strictly increasing with the id: 7·id + (0…4). */
function inventedTime(id) {
  return 7 * Math.trunc(id) + (hashId(id) % 5);
}
