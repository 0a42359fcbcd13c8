// The gallery (`/?gallery`, docs/CONTROLS.md "The gallery"): every control side by side, built in and from the
// server's `--controls` folder (/controls/index.json), so that people pick one. One session (the preset of
// `?gallery=PRESET`, jh by default: it reports armed, cycles and has an exit animation) is drawn by one list per
// control: the lists share the session's frames, so every list gets the same gesture, made on any of them. Each
// list draws its control on the edge it is made for (its `edges`, top when it names none). The session
// (js/session/liveSession.js) draws on the first list's canvas; after each of its draws, every other list (a
// js/session/listCanvas.js with its own control host) draws the same picture.
import { LiveSession } from '../session/liveSession.js';
import { ListCanvas } from '../session/listCanvas.js';
import { readTheme } from '../renderer.js';
import { attachInput } from '../pointerInput.js';
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
  const session = new LiveSession(columns[0].canvas, { preset, theme, input: false, label: 'gallery' });
  const { store } = session;
  // a control made for an edge the preset leaves off: the gallery's session turns that edge on
  session.on('welcome', () => {
    const edges = Object.fromEntries([...needed].filter((e) => store.config?.edges?.[e]?.enabled === false)
      .map((e) => [e, e === 'bottom' ? { enabled: true, role: 'loadMore', trigger: 'onRelease' } : { enabled: true }]));
    if (Object.keys(edges).length) session.send({ type: 'configure', edges });
  });
  const abort = new AbortController();
  const lists = columns.map((c, i) => {
    const list = i === 0 ? session.listCanvas : new ListCanvas(c.canvas, { theme });
    if (i > 0) {
      list.controls.attach({ send: (msg) => session.send(msg), onChange: () => { session.dirty = true; } });
      list.watch(abort.signal, () => { session.dirty = true; });
    }
    for (const edge of ['top', 'bottom', 'left', 'right']) list.controls.choose(edge, edge === c.edge ? c.name : NOTHING.name);
    return { ...c, list };
  });
  session.on('draw', (now, picture, shown, env) => {
    for (let i = 1; i < lists.length; i++) lists[i].list.draw(picture, shown, env);
  });

  for (const { canvas, list } of lists) {
    attachInput(canvas, {
      send: (msg) => session.sendInput(msg),
      onTap: (pt) => {
        const message = list.tapAt(pt);
        if (message) session.send(message);
      },
      signal: abort.signal,
    });
  }
  $('#refresh').addEventListener('click', () => session.send({ type: 'command', name: 'refresh', edge: 'top' }),
    { signal: abort.signal });

  session.on('tick', (now) => {
    const { state } = session.status;
    document.body.dataset.connection = state;
    const text = statusText({ state, rtt: session.connection.clock.rtt, framesPerSecond: session.framesPerSecond(now) });
    if ($('#status-text').textContent !== text) $('#status-text').textContent = text;
    $('#status').dataset.state = state;
  });

  window.refreshkit = Object.freeze({
    mode: 'gallery',
    get frame() { return store.frame; },
    get config() { return store.config; },
    get state() { return { connected: session.connected, status: session.status.state }; },
    displayedOffset: () => ({ ...session.view.shown }),
    send: (obj) => session.send(obj),
    /** Each list: its control, the edge it draws, what draws that edge now, its hooks' counts and problems. */
    controls: () => lists.map(({ name, edge, list: { controls } }) => ({
      name, edge, drawing: controls.drawing()[edge] ?? null, status: controls.status()[edge] ?? null,
      calls: controls.calls()[edge] ?? {}, area: controls.areas()[edge] ?? null, problems: [...controls.problems],
    })),
  });
  session.connect();
  return {
    session,
    lists,
    /** Closes the session and lets go of every list's listeners and controls. */
    stop() {
      abort.abort();
      for (let i = 1; i < lists.length; i++) lists[i].list.controls.destroy();
      session.dispose();
    },
  };
}
