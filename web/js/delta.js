// Delta frames (docs/PROTOCOL.md, "delta"): the page asks for them in hello (`"frames":"delta"`), gets a
// whole `frame` first, then `delta`s that it applies to the frame it holds. What comes out is exactly the
// `frame` message the server would have sent, so nothing downstream knows the difference. Pure.

/** Lengths have at most 3 decimals on the wire, so the follow rule's arithmetic is exact in thousandths. */
const SCALE = 1000;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * RFC 7386 JSON Merge Patch: objects merge member by member, `null` removes a member, anything else
 * (arrays included) replaces. Returns a new value; `target` is never modified, so a frame already handed to
 * the renderer or the panel stays as it was.
 */
export function mergePatch(target, patch) {
  if (!isObject(patch)) return patch;
  const result = isObject(target) ? { ...target } : {};
  for (const key of Object.keys(patch)) {
    if (key === '__proto__') continue;
    const value = patch[key];
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/**
 * The follow rule: an edge's `distance` and `velocity` are the scroll position and velocity seen from the
 * edge, so a delta leaves them out when they moved with the offset. `distance` moves by the offset's change
 * along the edge's axis (against it for top and left), computed in thousandths so that the result is the
 * very number the server would have written; `velocity` is the frame's velocity along the axis, negated for
 * top and left.
 */
export function followScroll(entry, base, next) {
  const axis = entry.edge === 'left' || entry.edge === 'right' ? 'x' : 'y';
  const leading = entry.edge === 'top' || entry.edge === 'left';
  const followed = { ...entry };
  const was = base.offset?.[axis];
  const now = next.offset?.[axis];
  if (Number.isFinite(entry.distance) && Number.isFinite(was) && Number.isFinite(now)) {
    const moved = Math.round(now * SCALE) - Math.round(was * SCALE);
    const d = Math.round(entry.distance * SCALE);
    const k = leading ? d - moved : d + moved;
    followed.distance = k === 0 ? 0 : k / SCALE; // never −0: the server writes 0
  }
  const v = next.velocity?.[axis];
  if (Number.isFinite(v)) followed.velocity = leading ? 0 - v : v;
  return followed;
}

/**
 * The frame a `delta` turns `base` (a whole frame: the last `frame` received, with every delta since
 * applied) into: a `frame` message equal to the one the server would have sent.
 */
export function applyDelta(base, delta) {
  const { type: _type, edges, ...rest } = delta;
  const next = mergePatch(base, rest);
  next.type = 'frame';
  if (Array.isArray(edges)) {
    next.edges = edges; // the edge set changed: whole
  } else if (Array.isArray(base.edges)) {
    next.edges = base.edges.map((entry) => {
      const followed = followScroll(entry, base, next);
      const patch = isObject(edges) ? edges[entry.edge] : undefined;
      return patch === undefined ? followed : mergePatch(followed, patch);
    });
  }
  return next;
}
