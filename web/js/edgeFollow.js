// The edges of a predicted frame: while the page predicts the offset (js/prediction.js), each edge's pull
// distance, progress and rectangles follow the predicted offset the way the server's would, and its state
// stays the server's (the page never shows a state the server did not send). Pure: unit tested with node.
//
// distance follows the offset as in docs/PROTOCOL.md's follow rule; progress is EdgeControl.progress (the pull
// past the prompting inset, `preload` early, over triggerDistance; an onReachEdge footer's count up to its
// start), clamped to 0…1; the rectangles are Sources/RefreshKit/Refresh/EdgeGeometry.swift's, from the base
// line the server measured (the combined inset without the edge's own layer, EdgeControl.layer).

const AXIS = { top: 'y', bottom: 'y', left: 'x', right: 'x' };
const LEADING = { top: true, left: true, bottom: false, right: false };
const num = (v, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** The inset layer an edge control holds in a state (EdgeControl.layer). */
export function layerOf(conf, state) {
  if (!conf || state === 'disabled') return 0;
  const resting = num(conf.restingInset), prompting = num(conf.promptingInset);
  if (conf.role === 'loadMore') {
    return state === 'refreshing' || state === 'noMoreData' || state === 'failed' ? Math.max(resting, prompting) : prompting;
  }
  return state === 'refreshing' ? resting : 0;
}

/**
 * EdgeControl.progress at `distance`: an onReachEdge control counts the last triggerDistance before its start
 * point (`preload` before the edge); one started by a pull counts its pull past its prompting inset (a
 * load-more control's; a refresh control keeps none), `preload` early (EdgeControl.thresholdPull). 0…1.
 */
export function progressOf(distance, conf) {
  const length = num(conf?.triggerDistance);
  const preload = num(conf?.preload);
  let pull;
  if (conf?.trigger === 'onReachEdge') {
    pull = distance + preload + length;
    if (!(length > 0)) return pull >= 0 ? 1 : 0;
  } else {
    pull = distance - (conf?.role === 'loadMore' ? num(conf?.promptingInset) : 0) + preload;
    if (!(length > 0)) return pull > 0 ? 1 : 0;
  }
  return Math.min(1, Math.max(0, pull / length));
}

function bandRect(edge, start, length, viewport) {
  switch (edge) {
    case 'top': return { x: 0, y: start, w: viewport.w, h: length };
    case 'bottom': return { x: 0, y: viewport.h - start - length, w: viewport.w, h: length };
    case 'left': return { x: start, y: 0, w: length, h: viewport.h };
    default: return { x: viewport.w - start - length, y: 0, w: length, h: viewport.h };
  }
}

/** EdgeGeometry.init: the control and view rectangles and the view's scale. */
export function edgeGeometry(edge, conf, distance, viewport, baseInset) {
  const pull = Math.max(0, Number.isFinite(distance) ? distance : 0);
  const height = num(conf.height, 60);
  const contentEdge = baseInset + pull;
  const stretched = pull > height;
  const controlLength = stretched ? pull : height;
  const controlStart = stretched || conf.presentation === 'background' ? baseInset : contentEdge - height;
  const centred = controlStart + (controlLength - height) / 2;
  // GVRefreshControl's visible percentage, the pull over the height, unclamped (docs/SEEDS.md §4.2)
  const visible = height > 0 ? pull / height : 1;
  let viewStart = centred;
  let scale = 1;
  if (conf.viewBehaviour === 'anchored') {
    // JHPullToRefreshKit's anchor, never scaled (docs/SEEDS.md §1.3); GV's behaviours ignore it
    if (conf.anchor === 'top') viewStart = controlStart;
    else if (conf.anchor === 'bottom') viewStart = controlStart + controlLength - height;
  } else if (conf.viewBehaviour === 'stretches') scale = Math.max(0.01, visible);
  else if (conf.viewBehaviour === 'fixedTop') {
    if (visible < 1) scale = Math.max(0.01, visible);
    else viewStart = baseInset;
  } else if (conf.viewBehaviour === 'fixedBottom') viewStart = contentEdge - height;
  return {
    control: bandRect(edge, controlStart, controlLength, viewport),
    view: bandRect(edge, viewStart, height, viewport),
    scale,
  };
}

/** One edge entry seen at `offset` instead of `frame.offset`. */
export function followEdge(entry, frame, offset, conf) {
  const axis = AXIS[entry.edge];
  if (!axis) return entry;
  const moved = num(offset[axis]) - num(frame.offset?.[axis]);
  if (moved === 0 || !Number.isFinite(entry.distance)) return entry;
  const distance = LEADING[entry.edge] ? entry.distance - moved : entry.distance + moved;
  const out = { ...entry, distance };
  if (!conf) return out; // no config yet: distance only (the renderer places the rest from it)
  out.progress = progressOf(distance, conf);
  const inset = num(frame.insets?.[entry.edge]) - layerOf(conf, entry.state);
  const viewport = { w: num(frame.viewport?.w), h: num(frame.viewport?.h) };
  Object.assign(out, edgeGeometry(entry.edge, conf, distance, viewport, inset));
  return out;
}

/**
 * The frame as it would be at `offset`: the same frame (states, feed, everything) with `offset` and every
 * edge following it. `config` is the session's (welcome.config / config messages). Returns `frame` itself
 * when the offset is the frame's.
 */
export function frameAt(frame, offset, config) {
  if (!frame || !frame.offset) return frame;
  if (num(frame.offset.x) === offset.x && num(frame.offset.y) === offset.y) return frame;
  const edges = Array.isArray(frame.edges)
    ? frame.edges.map((e) => followEdge(e, frame, offset, config?.edges?.[e.edge]))
    : frame.edges;
  return { ...frame, offset: { x: offset.x, y: offset.y }, edges };
}
