// The gallery (`/?gallery`, docs/CONTROLS.md "The gallery"): every control side by side, built in and from the
// server's `--controls` folder (/controls/index.json), so that people pick one. One session (the preset of
// `?gallery=PRESET`, jh by default: it reports armed, cycles and has an exit animation) is drawn by one list per
// control: the lists share the session's frames, so every list gets the same gesture, made on any of them. Each
// list draws its control on the edge it is made for (its `edges`, top when it names none).
import { CompareSide } from '../compare/side.js';
import { Renderer, readTheme } from '../renderer.js';
import { attachInput } from '../input.js';
import { defineControl, registerControl, registeredControl, registeredNames } from '../controls/api.js';
import { listControls, loadControl } from '../controls/loader.js';
import { t } from '../i18n.js';
import { statusText } from '../ui.js';

const $ = (sel) => document.querySelector(sel);

/** What a list shows on the edges its control is not made for: nothing, so that each list shows one control. */
const NOTHING = defineControl({ name: 'galleryNothing', label: 'Nothing', progress() {}, cycle() {} });

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** The control called `name` and the edge it is shown on; a control that does not load is shown on the top. */
async function entryFor(name) {
  let control = registeredControl(name);
  if (!control) control = await loadControl(name).catch(() => null);
  const edges = Array.isArray(control?.edges) && control.edges.length ? control.edges : ['top'];
  return { name, label: control?.label ?? name, edge: edges[0] };
}

/** A column: the control's name over a list. */
function column({ name, label, edge }) {
  const canvas = element('canvas', 'compare-list gallery-list');
  canvas.tabIndex = 0;
  canvas.setAttribute('aria-label', label);
  const stage = element('div', 'gallery-stage');
  stage.append(canvas);
  const head = element('h2', 'gallery-name', edge === 'top' ? name : `${name} (${edge})`);
  head.title = label;
  const node = element('section', 'gallery-column');
  node.dataset.control = name;
  node.append(head, stage);
  return { node, canvas };
}

/** Starts the gallery for the seed preset `preset`. */
export async function startGallery(preset = 'jh') {
  document.body.dataset.mode = 'gallery';
  const grid = element('div', 'gallery');
  grid.dataset.gallery = '';
  grid.append(element('p', 'gallery-hint', t('gallery.hint')));
  $('#stage').append(grid);

  const names = [...new Set([...registeredNames(), ...(await listControls())])];
  const found = await Promise.all(names.map(entryFor));
  // the controls of the top edge first (the gesture's), then those of the other edges
  const entries = [...found.filter((e) => e.edge === 'top'), ...found.filter((e) => e.edge !== 'top')];
  registerControl(NOTHING);
  const columns = entries.map((entry) => ({ ...entry, ...column(entry) }));
  for (const c of columns) grid.append(c.node);

  // the first list's session is everyone's; the other lists draw what it draws, each with its own control
  const theme = readTheme();
  const needed = new Set(columns.map((c) => c.edge));
  const side = new CompareSide({
    preset, canvas: columns[0].canvas, theme,
    // a control made for an edge the preset leaves off: the gallery's session turns that edge on
    onMessage: (s, msg) => {
      if (msg.type !== 'welcome') return;
      const edges = Object.fromEntries([...needed].filter((e) => s.store.config?.edges?.[e]?.enabled === false)
        .map((e) => [e, e === 'bottom' ? { enabled: true, role: 'loadMore', trigger: 'onRelease' } : { enabled: true }]));
      if (Object.keys(edges).length) s.send({ type: 'configure', edges });
    },
  });
  const lists = columns.map((c, i) => {
    const renderer = i === 0 ? side.renderer : new Renderer(c.canvas);
    renderer.theme = theme;
    renderer.fit();
    if (i > 0) renderer.controls.attach({ send: (msg) => side.send(msg), onChange: () => { side.dirty = true; } });
    for (const edge of ['top', 'bottom', 'left', 'right']) renderer.controls.choose(edge, edge === c.edge ? c.name : NOTHING.name);
    return { ...c, renderer, taps: [] };
  });
  const draw = side.renderer.draw.bind(side.renderer);
  side.renderer.draw = (picture, shown, env) => {
    const out = draw(picture, shown, env);
    for (const list of lists.slice(1)) list.taps = list.renderer.draw(picture, shown, env).taps;
    return out;
  };

  lists.forEach((list, i) => {
    attachInput(list.canvas, {
      send: (msg) => side.sendInput(msg),
      onTap: (pt) => {
        const tap = i === 0 ? side.tapAt(pt) : list.taps.find(({ rect: r }) => pt.x >= r.x && pt.x <= r.x + r.w
          && pt.y >= r.y && pt.y <= r.y + r.h)?.message;
        if (tap) side.send(tap);
      },
    });
  });
  new ResizeObserver(() => {
    side.refit();
    for (const list of lists.slice(1)) list.renderer.fit();
  }).observe(columns[0].canvas);
  $('#refresh').addEventListener('click', () => side.send({ type: 'command', name: 'refresh', edge: 'top' }));

  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  function loop(ts) {
    requestAnimationFrame(loop);
    side.tick(Number.isFinite(ts) ? ts : performance.now(), { reducedMotion: reducedMotion.matches });
    const now = Number.isFinite(ts) ? ts : performance.now();
    document.body.dataset.connection = side.status.state;
    const text = statusText({ state: side.status.state, rtt: side.conn.clock.rtt, framesPerSecond: side.framesPerSecond(now) });
    if ($('#status-text').textContent !== text) $('#status-text').textContent = text;
    $('#status').dataset.state = side.status.state;
  }

  window.refreshkit = Object.freeze({
    mode: 'gallery',
    get frame() { return side.store.frame; },
    get config() { return side.store.config; },
    get state() { return { connected: side.connected, status: side.status.state }; },
    displayedOffset: () => ({ ...side.shown }),
    send: (obj) => side.send(obj),
    /** Each list: its control, the edge it draws, what draws that edge now, its hooks' counts and problems. */
    controls: () => lists.map((list) => ({
      name: list.name, edge: list.edge, drawing: list.renderer.controls.drawing()[list.edge] ?? null,
      status: list.renderer.controls.status()[list.edge] ?? null, calls: list.renderer.controls.calls()[list.edge] ?? {},
      area: list.renderer.controls.areas()[list.edge] ?? null,
      problems: [...list.renderer.controls.problems],
    })),
  });
  side.start();
  requestAnimationFrame(loop);
  return { side, lists };
}
