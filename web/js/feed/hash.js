// The rows' hash: what a row derives from its id (the simulated feed's invented content and ages, an author's
// avatar colour) without a random draw, so every page agrees. A module of its own, imported by the simulated rows
// (js/rows.js) and the feed's (js/feed/), which import each other's neither (docs/PAGE.md, "The modules").

/** A 32-bit integer hash (Murmur3 finaliser): spreads consecutive ids over the whole range. */
export function hashId(id) {
  let h = (Math.trunc(id) | 0) ^ 0x9e3779b9;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
