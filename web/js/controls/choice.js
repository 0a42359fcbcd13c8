// Which control draws each edge (docs/CONTROLS.md, "Choosing a control"). Pure.
//
// In order: a choice made on this page (`?control=`, the gallery), then the session's configuration
// (`config.edges.<edge>.control`, set by the preset or by `configure` from any device, the panel's picker
// included), then the preset's own control as the server's catalogue names it (js/catalogue.js), then the
// built-in control of the edge below.
import { CONTROL_NAME } from './api.js';
import { presetControl } from '../catalogue.js';

export const EDGES = Object.freeze(['top', 'bottom', 'left', 'right']);

/** The built-in control of each edge, for a preset the catalogue does not describe. */
const BUILT_IN = Object.freeze({ top: 'spinner', bottom: 'footer', left: 'side', right: 'side' });

/** The control an edge falls back to: the preset's own (the catalogue's), else the edge's built-in one. */
export function defaultControl(edge, preset) {
  return presetControl(preset, edge) ?? BUILT_IN[edge] ?? 'side';
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
