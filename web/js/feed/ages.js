// A row's age, as the timelines people use write it: "now", "3m", "2h", "5d", "2y". One rule for every row, a
// non-decreasing function of how old an item is, so a list ordered newest first reads youngest first.
// Pure: no clock of its own (the caller passes `now`), unit tested with node (web/test/feedAges.test.js).

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

