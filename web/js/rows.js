// Row geometry for rows of one height: what is drawn before the row layout (js/feed/rowLayout.js) has a width. Pure.

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
