// Where an edge's indicator goes. Pure: every rectangle derives from the frame's edges[] entry, the frame's
// geometry and the offset on screen (which may be ahead of the frame while a segment chain animates).

export const DEFAULT_SLOT = 60; // px: the indicator's slot across the edge (height for top/bottom)

const isVertical = (edge) => edge === 'top' || edge === 'bottom';

export function nonZeroRect(r) {
  return !!r && Number.isFinite(r.x) && Number.isFinite(r.y) && r.w > 0 && r.h > 0;
}

/**
 * The pull distance on screen: the entry's distance corrected by how far the displayed offset has moved
 * since the frame (zero when not animating).
 */
export function displayedDistance(entry, frame, shown) {
  const d = Number.isFinite(entry.distance) ? entry.distance : 0;
  const o = frame.offset || { x: 0, y: 0 };
  switch (entry.edge) {
    case 'top': return d + (o.y - shown.y);
    case 'bottom': return d + (shown.y - o.y);
    case 'left': return d + (o.x - shown.x);
    case 'right': return d + (shown.x - o.x);
    default: return d;
  }
}

/**
 * The band an edge owns: the entry's `control` rect when it has one, otherwise the strip between the
 * viewport's edge and the content's edge (for top: height max(0, −offset.y)).
 */
export function edgeBand(entry, frame, shown, viewport) {
  if (nonZeroRect(entry.control)) return { ...entry.control };
  const vw = viewport.w, vh = viewport.h;
  const cs = frame.contentSize || { w: vw, h: 0 };
  switch (entry.edge) {
    case 'top': return { x: 0, y: 0, w: vw, h: Math.max(0, -shown.y) };
    case 'bottom': {
      const bottom = cs.h - shown.y;
      return { x: 0, y: bottom, w: vw, h: Math.max(0, vh - bottom) };
    }
    case 'left': return { x: 0, y: 0, w: Math.max(0, -shown.x), h: vh };
    case 'right': {
      const right = (cs.w || vw) - shown.x;
      return { x: right, y: 0, w: Math.max(0, vw - right), h: vh };
    }
    default: return { x: 0, y: 0, w: 0, h: 0 };
  }
}

/**
 * The indicator's own rect: the entry's `view` rect when it has one; otherwise a slot `slot` px deep,
 * glued to the content's edge while the band is shallower than the slot, centred in the band beyond.
 */
export function indicatorRect(entry, band, slot = DEFAULT_SLOT) {
  if (nonZeroRect(entry.view)) return { ...entry.view };
  if (isVertical(entry.edge)) {
    let y;
    if (band.h >= slot) y = band.y + (band.h - slot) / 2;
    else y = entry.edge === 'top' ? band.y + band.h - slot : band.y;
    return { x: band.x, y, w: band.w, h: slot };
  }
  let x;
  if (band.w >= slot) x = band.x + (band.w - slot) / 2;
  else x = entry.edge === 'left' ? band.x + band.w - slot : band.x;
  return { x, y: band.y, w: slot, h: band.h };
}

export function intersects(r, viewport) {
  return r.w > 0 && r.h > 0 && r.x < viewport.w && r.y < viewport.h && r.x + r.w > 0 && r.y + r.h > 0;
}

/** Everything a style needs to draw one edge. */
export function edgeLayout(entry, frame, shown, viewport, slot = DEFAULT_SLOT) {
  const band = edgeBand(entry, frame, shown, viewport);
  const view = indicatorRect(entry, band, slot);
  return { band, view, distance: displayedDistance(entry, frame, shown) };
}
