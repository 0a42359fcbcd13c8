// Row content and row geometry of the simulated feed. Pure: the same id (under the same top item) always gives the
// same row, on every page. Its ages follow the order (js/feed/ages.js); an external source's rows: js/feed/.
import { simulatedAge } from './feed/ages.js';
import { hashId } from './feed/hash.js';

const FIRST = ['Morning', 'Quiet', 'Bright', 'Late', 'Early', 'Small', 'Open', 'Fresh', 'Silver', 'Northern',
  'Golden', 'Hidden', 'Rapid', 'Gentle', 'Distant', 'Urban'];
const SECOND = ['notes on the harbour', 'update from the team', 'photos from the trip', 'thoughts on springs',
  'release checklist', 'weekend plans', 'design review', 'field report', 'reading list', 'recipe swap',
  'train timetable', 'garden diary', 'build results', 'meeting minutes', 'travel log', 'market prices'];

/** What a row shows under the top item `newest`: title, subtitle, its age, the avatar's hue and initials. */
export function rowContent(id, newest = id) {
  const h = hashId(id);
  const hue = h % 360;
  const first = FIRST[(h >>> 9) % FIRST.length];
  const second = SECOND[(h >>> 14) % SECOND.length];
  return {
    id,
    title: `Item ${id}`,
    subtitle: `${first} ${second}`,
    time: simulatedAge(id, newest),
    hue,
    initials: `${first[0]}${second[0].toUpperCase()}`,
  };
}

/**
 * Indices of the rows that intersect the viewport when row i is drawn at y = i·rowHeight − offsetY.
 * Returns {first, last} (inclusive), or null when no row is visible.
 */
export function visibleRows(offsetY, viewportH, rowHeight, count) {
  if (!(rowHeight > 0) || !(count > 0) || !(viewportH > 0)) return null;
  const first = Math.max(0, Math.floor(offsetY / rowHeight));
  const last = Math.min(count - 1, Math.ceil((offsetY + viewportH) / rowHeight) - 1);
  if (last < first) return null;
  return { first, last };
}
