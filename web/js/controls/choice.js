// Which control draws each edge (docs/CONTROLS.md, "Choosing a control"). Pure.
//
// In order: a choice made on this page (`?control=`, the gallery), then the session's configuration
// (`config.edges.<edge>.control`, set by the preset or by `configure` from any device, the panel's picker
// included), then the seed preset's built-in default below.
import { CONTROL_NAME } from './api.js';

export const EDGES = Object.freeze(['top', 'bottom', 'left', 'right']);

/** Each seed preset's top control; the other edges have one control for every preset. */
const TOP_BY_PRESET = Object.freeze({ ios: 'spinner', jh: 'colorCycle', ht: 'arrow', ms: 'arrow', gv: 'ring', iq: 'ring' });
const OTHER_EDGES = Object.freeze({ bottom: 'footer', left: 'side', right: 'side' });

/** The built-in control an edge gets when its configuration names none. */
export function defaultControl(edge, preset) {
  if (edge === 'top') return TOP_BY_PRESET[preset] ?? 'spinner';
  return OTHER_EDGES[edge] ?? 'side';
}

/**
 * `?control=` as `{edge: name}`: `NAME` is the top edge's, `EDGE:NAME` another's; several are separated by
 * commas (`?control=bubbles,bottom:htFooter`). A malformed part is left out (and named in `refused`).
 */
export function parseControlParam(value) {
  const edges = {};
  const refused = [];
  for (const part of String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [a, b] = part.includes(':') ? part.split(':', 2) : ['top', part];
    if (EDGES.includes(a) && CONTROL_NAME.test(b)) edges[a] = b;
    else refused.push(part);
  }
  return { edges, refused };
}

/** The control of each edge: the page's own choice, else the configuration's, else the preset's default. */
export function chooseControls(config, preset, overrides = {}) {
  const out = {};
  for (const edge of EDGES) {
    const configured = config?.edges?.[edge]?.control;
    out[edge] = overrides[edge]
      ?? (typeof configured === 'string' && CONTROL_NAME.test(configured) ? configured : defaultControl(edge, preset));
  }
  return out;
}
