// Compare mode (`/?compare=ms,ht`, `&events=library` for each library's own event names): two presets side by side, each its own session, driven by the same gesture.
// Every input the person makes on either list (touch, mouse, wheel, keys, the Refresh button, a tap target) goes
// to both sessions; each side draws its own frames with its own controls, under its preset's name, and the
// debug panel shows both sides' timelines. The page's own elements (the bar, the stage, the panel) are reused;
// the single list (#list, #feed) is hidden while compare mode runs and shown again when it is left.
//
// `startCompare` opens both sessions and says, through `outcome`, whether the server took both presets: a hello
// naming a preset the server does not know is refused (`unknown_preset`), and the caller (js/main.js) then
// leaves compare mode (`stop`) for the normal page.
import { CompareSide } from './compareSide.js';
import { ComparePanel } from './comparePanel.js';
import { withoutCompare } from './request.js';
import { attachInput } from '../pointerInput.js';
import { keyAction, isEditable } from '../keys.js';
import { statusText } from '../ui.js';
import { t, language } from '../i18n.js';
import { libraryFor } from '../catalogue.js';

const $ = (sel) => document.querySelector(sel);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** A side's column: its label (preset, library, the state of its busiest edge) over its canvas. */
function sideColumn(preset, index) {
  const name = element('h2', 'compare-name', preset);
  name.id = `compare-name-${index}`;
  const state = element('span', 'state-badge compare-state', '');
  const head = element('div', 'compare-head');
  const libraryEl = element('span', 'compare-library', '');
  head.append(name, libraryEl, state);
  const canvas = element('canvas', 'compare-list');
  canvas.tabIndex = 0;
  // the library comes with the welcome's catalogue (showLibrary)
  const showLibrary = () => {
    const library = libraryFor(preset);
    libraryEl.textContent = library ?? '';
    canvas.setAttribute('aria-label', t('compare.listLabel', { preset, library: library ?? preset }));
  };
  showLibrary();
  const column = element('section', 'compare-side');
  column.dataset.side = String(index);
  column.dataset.preset = preset;
  column.setAttribute('aria-labelledby', name.id);
  column.append(head, canvas);
  return { column, canvas, state, showLibrary };
}

/**
 * Starts compare mode for `presets` (two names). Returns `{outcome, stop}`: `outcome` resolves to `{ok: true}`
 * once both sessions are welcomed, or to `{ok: false, preset, code, message}` when the server refused a side's
 * hello; `stop()` closes both sessions and gives the page back its single list.
 */
export function startCompare(presets, { predict = true, events = null } = {}) {
  const abort = new AbortController();
  const { signal } = abort;
  const body = document.body;
  body.dataset.mode = 'compare';
  const stage = $('#stage');
  const grid = element('div', 'compare');
  grid.dataset.compare = '';
  stage.append(grid);

  // the bar: the preset picker gives way to a way back to the single list
  const exit = element('a', 'button button-plain compare-exit', t('compare.exit'));
  exit.href = withoutCompare(location.href);
  exit.title = t('compare.exit.title');
  $('.bar-actions').prepend(exit);

  const columns = [];
  let finish; // resolves `outcome` (the first answer counts: a promise settles once)
  const outcome = new Promise((resolve) => {
    finish = resolve;
  });

  const status = { lastAt: 0 };
  const sides = presets.map((preset, index) => {
    const col = sideColumn(preset, index);
    grid.append(col.column);
    const side = new CompareSide({
      preset, canvas: col.canvas, predict,
      onMessage: (s, msg) => onMessage(index, s, msg),
      onStatus: () => updateStatus(performance.now(), true),
    });
    columns.push(col);
    return side;
  });

  function onMessage(index, side, msg) {
    if (msg.type === 'event') panel.addEvent(index, msg);
    if (msg.type === 'error' && side.refused) {
      finish({ ok: false, preset: side.preset, code: side.refused.code, message: side.refused.message });
    }
    if (msg.type === 'welcome') {
      columns[index]?.showLibrary();
      panel.showLibrary(index);
      // `?events=library`: each side's events as its library tells its app, so a start and an end show how
      // the two libraries differ (docs/PAGE.md, "Compare mode").
      if (events && msg.config?.events !== events) side.session.send({ type: 'configure', events });
    }
    if (msg.type === 'welcome' && sides.every((s) => s.session.connection.welcomed)) finish({ ok: true });
  }

  // ---------------------------------------------------------------- input: every input goes to both sides

  // each side numbers, predicts and sends its own copy (its own `seq`)
  const sendInput = (msg) => {
    let sent = false;
    for (const side of sides) sent = side.session.sendInput({ ...msg }) || sent;
    return sent;
  };
  const sendToBoth = (msg) => sides.map((side) => side.session.send(msg)).some(Boolean);

  sides.forEach((side) => {
    attachInput(side.canvas, {
      send: sendInput,
      onTap: (pt) => {
        const message = side.session.tapAt(pt);
        if (message) sendToBoth(message);
      },
      signal,
    });
  });

  $('#refresh').addEventListener('click', () => sendToBoth({ type: 'command', name: 'refresh', edge: 'top' }), { signal });

  const debugToggle = $('#debug-toggle');
  const panel = new ComparePanel($('#panel'), sides, {
    onToggle: (open) => debugToggle.setAttribute('aria-pressed', String(open)),
    signal,
  });
  debugToggle.addEventListener('click', () => panel.toggle(), { signal });
  $('#panel [data-panel-close]').addEventListener('click', () => panel.toggle(false), { signal });

  window.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || isEditable(e.target)) return;
    const act = keyAction(e);
    if (!act) return;
    e.preventDefault();
    if (act.message) sendToBoth(act.message);
    else if (act.action === 'togglePanel') panel.toggle();
  }, { signal });

  // ---------------------------------------------------------------- status: both sessions in one line

  const statusEl = $('#status');
  const statusTextEl = $('#status-text');
  function updateStatus(now, force = false) {
    if (signal.aborted) return; // compare mode was left: the closing sockets report to nobody
    if (!force && now - status.lastAt < 250) return;
    status.lastAt = now;
    const states = sides.map((s) => s.session.status.state);
    const state = states.every((s) => s === 'connected') ? 'connected'
      : states.includes('reconnecting') ? 'reconnecting' : states.includes('closed') ? 'closed' : 'connecting';
    body.dataset.connection = state;
    const rtts = sides.map((s) => s.session.connection.clock.rtt)
      .filter((r) => typeof r === 'number' && Number.isFinite(r));
    const retryAt = Math.max(0, ...sides.map((s) => s.session.status.retryAt ?? 0));
    const text = statusText({
      state,
      retryInMs: retryAt ? retryAt - now : null,
      rtt: rtts.length ? Math.max(...rtts) : null,
      framesPerSecond: Math.min(...sides.map((s) => s.session.framesPerSecond(now))),
    });
    if (statusTextEl.textContent !== text) statusTextEl.textContent = text;
    if (statusEl.dataset.state !== state) statusEl.dataset.state = state;
  }

  // ---------------------------------------------------------------- the loop

  let raf = 0;
  function loop(ts) {
    raf = requestAnimationFrame(loop);
    const now = Number.isFinite(ts) ? ts : performance.now();
    const serverNows = sides.map((side) => side.session.drawFrame(now));
    sides.forEach((side, i) => {
      const headline = side.headline();
      const badge = columns[i].state;
      const text = headline ? (headline.edge === 'top' ? headline.state : `${headline.edge}: ${headline.state}`) : '';
      if (badge.textContent !== text) badge.textContent = text;
      if (badge.dataset.state !== (headline?.state ?? '')) badge.dataset.state = headline?.state ?? '';
    });
    updateStatus(now);
    panel.tick(now, serverNows);
  }

  // ---------------------------------------------------------------- for tests and tools

  window.refreshkit = Object.freeze({
    mode: 'compare',
    /** Each side, left (or upper) first: its preset, the offset drawn last, its edges' states, the events seen. */
    compare: () => sides.map((side) => side.snapshot()),
    get language() { return language(); },
    get state() {
      return { connected: sides.every((s) => s.session.connected), status: body.dataset.connection ?? 'connecting' };
    },
    /** Sends `obj` on both sessions (as the page's own commands are). */
    send: (obj) => sendToBoth(obj),
  });

  for (const side of sides) side.session.connect();
  raf = requestAnimationFrame(loop);

  function stop() {
    cancelAnimationFrame(raf);
    abort.abort();
    for (const side of sides) side.session.dispose();
    panel.clear();
    grid.remove();
    exit.remove();
    delete body.dataset.mode;
    if (window.refreshkit?.mode === 'compare') window.refreshkit = undefined;
  }

  return { outcome, stop, sides };
}
