// Indicator styles, chosen by preset. A style is {name, label, draw(ctx, entry, layout, env)} and draws one
// edge from that edge's frame entry alone; draw may return {tap: {rect, message}} for a tappable area.
// Add a style: create a module next to this one and registerStyle(style, ['presetName', …]).
import spinner from './spinner.js';
import arrow from './arrow.js';
import footer from './footer.js';
import side from './side.js';
import colorCycle from './colorCycle.js';
import ring from './ring.js';

const styles = new Map();
const presetToStyle = new Map();

export function registerStyle(style, presets = []) {
  if (!style || typeof style.name !== 'string' || typeof style.draw !== 'function') {
    throw new TypeError('a style needs a name and a draw function');
  }
  styles.set(style.name, style);
  for (const p of presets) presetToStyle.set(p, style.name);
}

registerStyle(spinner, ['ios']);
registerStyle(colorCycle, ['jh']);
registerStyle(arrow, ['ht', 'ms']);
registerStyle(ring, ['gv', 'iq']);
registerStyle(footer);
registerStyle(side);

export function styleNames() {
  return [...styles.keys()];
}

/** The top edge's style for a preset; unknown presets get the spinner. */
export function topStyleForPreset(preset) {
  return styles.get(presetToStyle.get(preset)) || spinner;
}

/** The style that draws each edge for a preset. */
export function stylesForPreset(preset) {
  return { top: topStyleForPreset(preset), bottom: footer, left: side, right: side };
}

/**
 * Remembers, per edge, when its state last changed (page clock), so that styles can run short local
 * transitions (arrow turn, fade) from the entries alone.
 */
export class EdgeStateClock {
  constructor() {
    this.edges = new Map();
  }

  update(entries, now) {
    for (const e of entries || []) {
      const prev = this.edges.get(e.edge);
      if (!prev) this.edges.set(e.edge, { state: e.state, prevState: null, since: now - 1e6 });
      else if (prev.state !== e.state) this.edges.set(e.edge, { state: e.state, prevState: prev.state, since: now });
    }
  }

  age(edge, now) {
    const s = this.edges.get(edge);
    return s ? now - s.since : Infinity;
  }

  prevState(edge) {
    const s = this.edges.get(edge);
    return s ? s.prevState : null;
  }
}
