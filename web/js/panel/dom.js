// Small DOM helpers shared by the panel's sections (nothing inline: no style="" attributes, no HTML strings).

/** Creates an element with a class and children (strings become text). */
export function el(tag, className, children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (children !== undefined) {
    for (const c of Array.isArray(children) ? children : [children]) {
      if (c == null || c === false) continue;
      node.append(typeof c === 'string' ? document.createTextNode(c) : c);
    }
  }
  return node;
}

/** Sets textContent only when it changed (no layout work for unchanged figures). */
/** One figure of a pane: a label over a value and a small line under it, kept in `tiles[key]` for updates. */
export function figureTile(tiles, key, label) {
  const value = el('span', 'fig-value');
  const sub = el('span', 'fig-sub');
  const node = el('div', 'fig', [el('span', 'fig-label', label), value, sub]);
  node.dataset.figure = key;
  tiles[key] = { value, sub, node };
  return node;
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** A number with `d` decimals, a minus sign that is one, or "–". */
export function fmt(v, d = 1) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '–';
  const s = v.toFixed(d);
  return s.startsWith('-') ? (Number(s) === 0 ? s.slice(1) : `−${s.slice(1)}`) : s;
}

/** A collapsible panel section: <details open><summary>title</summary>…</details>. */
export function section(title, key, body, { open = true, extra } = {}) {
  const summary = el('summary', 'panel-summary', [el('span', 'panel-summary-title', title)]);
  if (extra) summary.append(extra);
  const details = el('details', 'panel-section', [summary, body]);
  details.open = open;
  details.dataset.section = key;
  return details;
}

/** The state colours, read from CSS custom properties (css/panel.css owns them, dark mode included). */
export const STATES = ['idle', 'pulling', 'armed', 'refreshing', 'finishing', 'noMoreData', 'failed', 'disabled'];

export function readStateColours(root = document.documentElement) {
  const cs = getComputedStyle(root);
  const out = {};
  for (const s of STATES) out[s] = cs.getPropertyValue(`--rk-state-${s}`).trim() || '#8e8e93';
  for (const k of ['grid', 'plot-y', 'plot-x', 'plot-vy', 'plot-vx', 'plot-text', 'plot-zero']) {
    out[k] = cs.getPropertyValue(`--rk-${k}`).trim() || '#8e8e93';
  }
  out.font = cs.getPropertyValue('--rk-mono').trim() || 'monospace';
  return out;
}

/** Fits a canvas's backing store to its CSS box × devicePixelRatio; returns {w, h, dpr} in CSS px. */
export function fitCanvas(canvas) {
  const dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
  const w = Math.max(1, canvas.clientWidth);
  const h = Math.max(1, canvas.clientHeight);
  const bw = Math.round(w * dpr), bh = Math.round(h * dpr);
  if (canvas.width !== bw) canvas.width = bw;
  if (canvas.height !== bh) canvas.height = bh;
  return { w, h, dpr };
}

/**
 * Opens or closes a panel drawer (`force`: the state to take; otherwise it flips), marks the page with it and
 * calls the panel's `onToggle`. Returns whether it is open.
 */
export function toggleDrawer(panel, force) {
  const open = typeof force === 'boolean' ? force : panel.root.hidden;
  panel.root.hidden = !open;
  document.body.dataset.panel = open ? 'open' : 'closed';
  panel.lastText = -Infinity;
  panel.onToggle?.(open);
  return open;
}
