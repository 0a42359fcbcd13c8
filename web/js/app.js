// The page: wires the connection, the input, the renderer, the chrome and the debug panel.
// The server owns every state; this only sends input and draws the latest frame.
import { Connection } from './connection.js';
import { attachInput } from './input.js';
import { displayedOffset } from './motion.js';
import { Renderer, readTheme } from './renderer.js';
import { stylesForPreset, EdgeStateClock } from './indicators/index.js';
import { DEFAULT_SLOT } from './indicators/geometry.js';
import { Panel } from './panel.js';
import { keyAction, isEditable } from './keys.js';
import { announcementFor, statusText } from './ui.js';
import { Share } from './share.js';
import { TraceTools } from './trace.js';

const MAX_EVENTS = 200;
const $ = (sel) => document.querySelector(sel);

const params = new URLSearchParams(location.search);
const app = {
  frame: null,
  events: [],
  errors: [],
  welcome: null,
  preset: params.get('preset') || null,
  styles: stylesForPreset(params.get('preset') || ''),
  stateClock: new EdgeStateClock(),
  status: { state: 'connecting' },
  dirty: true,
  taps: [],
  framesIn: [], // page times of received frames (last second)
  draws: [],    // page times of draws (last second)
  lastStatusAt: 0,
};

const canvas = $('#list');
const renderer = new Renderer(canvas);
renderer.theme = readTheme();
renderer.fit();

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
const darkMode = window.matchMedia('(prefers-color-scheme: dark)');
darkMode.addEventListener?.('change', () => {
  renderer.theme = readTheme();
  app.dirty = true;
});

function viewportSize() {
  return { w: Math.max(1, Math.round(renderer.cssW)), h: Math.max(1, Math.round(renderer.cssH)) };
}

// ------------------------------------------------------------------ connection

// the session in the URL (?s=ID) is joined, or resumed with this tab's token (js/share.js)
const share = new Share();

const conn = new Connection({
  ...share.initial,
  onTokenChange: (session, token) => share.onTokenChange(session, token),
  hello: () => {
    const hello = { viewport: viewportSize(), dpr: renderer.dpr };
    if (app.preset) hello.preset = app.preset;
    return hello;
  },
  onMessage: handleMessage,
  onStatus: (s) => {
    app.status = { ...app.status, ...s };
    document.body.dataset.connection = s.state;
    updateStatus(performance.now(), true);
  },
});

function handleMessage(msg, tRecv, raw) {
  if (msg.type === 'welcome') share.onWelcome(msg);
  else if (msg.type === 'room') share.onRoom(msg);
  else if (msg.type === 'error') share.onError(msg);
  traceTools.onMessage(msg, raw);
  panel.onMessage(msg, tRecv);
  switch (msg.type) {
    case 'welcome':
      app.welcome = msg;
      app.config = msg.config;
      setPresets(Array.isArray(msg.presets) ? msg.presets : [], msg.preset);
      app.dirty = true;
      break;
    case 'config':
      // An accepted configure, from this page or another device in the session: follow it.
      app.config = msg.config;
      if (typeof msg.preset === 'string' && msg.preset !== app.confirmedPreset) {
        presetSelect.value = msg.preset;
        usePreset(msg.preset);
        app.confirmedPreset = msg.preset;
      }
      app.dirty = true;
      break;
    case 'frame':
      app.frame = msg;
      app.stateClock.update(msg.edges, tRecv);
      app.framesIn.push(tRecv);
      app.dirty = true;
      break;
    case 'event':
      app.events.push(msg);
      if (app.events.length > MAX_EVENTS) app.events.splice(0, app.events.length - MAX_EVENTS);
      announce(announcementFor(msg));
      break;
    case 'error':
      app.errors.push(msg);
      if (app.errors.length > 20) app.errors.shift();
      console.warn(`refreshkit: ${msg.code}: ${msg.message}`);
      if (msg.ref === 'configure' && msg.code === 'unknown_preset' && app.welcome) {
        setPresets(app.welcome.presets || [], app.confirmedPreset);
      }
      break;
    default:
      break;
  }
}

const traceTools = new TraceTools({ conn, notify: (text, kind) => share.notify(text, kind) });

// ------------------------------------------------------------------ chrome

const presetSelect = $('#preset');
function setPresets(list, current) {
  const names = list.filter((p) => typeof p === 'string');
  if (current && !names.includes(current)) names.unshift(current);
  presetSelect.replaceChildren(...names.map((p) => {
    const o = document.createElement('option');
    o.value = p;
    o.textContent = p;
    return o;
  }));
  presetSelect.disabled = names.length === 0;
  if (current) {
    presetSelect.value = current;
    usePreset(current);
    app.confirmedPreset = current;
  }
}

function usePreset(name) {
  app.preset = name;
  app.styles = stylesForPreset(name);
  app.dirty = true;
}

presetSelect.addEventListener('change', () => {
  const name = presetSelect.value;
  if (!name) return;
  conn.send({ type: 'configure', preset: name });
  usePreset(name);
  const url = new URL(location.href);
  url.searchParams.set('preset', name);
  history.replaceState(null, '', url);
});

$('#refresh').addEventListener('click', () => {
  conn.send({ type: 'command', name: 'refresh', edge: 'top' });
});

const debugToggle = $('#debug-toggle');
const panel = new Panel($('#panel'), {
  onToggle: (open) => debugToggle.setAttribute('aria-pressed', String(open)),
  send: (msg) => conn.send(msg),
  connection: conn,
  presetOf: () => app.preset,
});
debugToggle.addEventListener('click', () => panel.toggle());
$('#panel [data-panel-close]').addEventListener('click', () => panel.toggle(false));

window.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || isEditable(e.target)) return;
  const act = keyAction(e);
  if (!act) return;
  // keys on a button keep their own meaning for Enter/Space; ours are letters and navigation keys
  e.preventDefault();
  if (act.message) conn.send(act.message);
  else if (act.action === 'togglePanel') panel.toggle();
});

const announcer = $('#announcer');
let announceTimer = 0;
function announce(text) {
  if (!text) return;
  // clear first, so that the same words twice in a row are announced twice
  announcer.textContent = '';
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    announcer.textContent = text;
  }, 60);
}

const statusEl = $('#status');
const statusTextEl = $('#status-text');
function updateStatus(now, force = false) {
  if (!force && now - app.lastStatusAt < 250) return;
  app.lastStatusAt = now;
  const text = statusText({
    state: app.status.state,
    retryInMs: app.status.retryAt ? app.status.retryAt - now : null,
    rtt: conn.clock.rtt,
    framesPerSecond: countLastSecond(app.framesIn, now),
  });
  if (statusTextEl.textContent !== text) statusTextEl.textContent = text;
  if (statusEl.dataset.state !== app.status.state) statusEl.dataset.state = app.status.state;
}

function countLastSecond(list, now) {
  while (list.length && now - list[0] > 1000) list.shift();
  return list.length;
}

// ------------------------------------------------------------------ input

attachInput(canvas, {
  send: (msg) => conn.send(msg),
  onInput: () => {
    app.dirty = true;
  },
  onTap: (pt) => {
    for (const tap of app.taps) {
      const r = tap.rect;
      if (pt.x >= r.x && pt.x <= r.x + r.w && pt.y >= r.y && pt.y <= r.y + r.h) {
        conn.send(tap.message);
        return;
      }
    }
  },
  onPointerCancel: () => {
    app.pointerCancels = (app.pointerCancels || 0) + 1;
  },
});

// ------------------------------------------------------------------ size and dpr

let pendingResize = false;
function refit() {
  const before = viewportSize();
  renderer.fit();
  const after = viewportSize();
  app.dirty = true;
  if (before.w !== after.w || before.h !== after.h) pendingResize = true;
}
new ResizeObserver(refit).observe(canvas);
window.addEventListener('resize', refit);
function watchDpr() {
  const mq = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
  mq.addEventListener?.('change', () => {
    refit();
    watchDpr();
  }, { once: true });
}
watchDpr();

// ------------------------------------------------------------------ the loop

function loop(ts) {
  requestAnimationFrame(loop);
  const now = Number.isFinite(ts) ? ts : performance.now();
  if (pendingResize && conn.send({ type: 'resize', viewport: viewportSize() })) pendingResize = false;
  const serverNow = conn.displayServerNow(now);
  app.lastServerNow = { page: now, server: serverNow };
  const frame = app.frame;
  const shown = displayedOffset(frame, serverNow);
  const busyEdges = (frame?.edges || []).some((e) => e.state === 'refreshing' || e.state === 'finishing'
    || app.stateClock.age(e.edge, now) < 400);
  if (app.dirty || shown.animating || busyEdges) {
    app.dirty = false;
    const out = renderer.draw(frame, shown, {
      styles: app.styles,
      clock: now,
      serverNow,
      reducedMotion: reducedMotion.matches,
      stateClock: app.stateClock,
      slotFor: slotFor,
    });
    app.taps = out.taps;
    app.shown = shown;
    app.draws.push(now);
  }
  updateStatus(now);
  panel.tick(now, serverNow, frame);
}

/** The indicator slot depth of an edge: its configured height when the server told us, else 60 px. */
function slotFor(edge) {
  const h = app.config?.edges?.[edge]?.height;
  return Number.isFinite(h) && h > 0 ? h : DEFAULT_SLOT;
}

// ------------------------------------------------------------------ for tests and tools

window.refreshkit = Object.freeze({
  get frame() { return app.frame; },
  get events() { return app.events; },
  get errors() { return app.errors; },
  get welcome() { return app.welcome; },
  get preset() { return app.preset; },
  get state() {
    return {
      connected: conn.connected,
      status: app.status.state,
      rtt: conn.clock.rtt,
      offset: conn.clock.offset, // server clock − page clock, ms
      pointerCancels: app.pointerCancels || 0,
    };
  },
  send: (obj) => conn.send(obj),
  // sessions and traces (js/share.js, js/trace.js)
  get session() {
    return { id: conn.session, member: share.member, members: share.members, url: share.url };
  },
  requestTrace: () => traceTools.request(),
  exportTrace: () => traceTools.download(),
  playTrace: (text) => traceTools.play(text),
  get playback() { return traceTools.state; },
  serverNow: () => conn.serverNow(performance.now()),
  displayedOffset: () => {
    const pageNow = performance.now();
    const d = displayedOffset(app.frame, pageNow + (conn.clock.applied ?? conn.clock.offset));
    return { x: d.x, y: d.y };
  },
});

conn.start();
requestAnimationFrame(loop);
