// The page: wires the connection, the input, the renderer, the chrome and the debug panel.
// The server owns every state; this only sends input and draws the latest frame.
import { Connection } from './connection.js';
import { ErrorCode } from './protocol.js';
import { Store } from './store.js';
import { Predictor, DrawnOffset } from './prediction.js';
import { InputChannel } from './inputs.js';
import { frameAt } from './edgeFollow.js';
import { attachInput } from './input.js';
import { Renderer, readTheme } from './renderer.js';
import { EdgeStateClock } from './controls/stateClock.js';
import { lastUpdatedText } from './controls/builtin/arrow.js';
import { DEFAULT_SLOT } from './controls/geometry.js';
import { ControlPicker } from './panel/controlPicker.js';
import { Panel } from './panel/panel.js';
import { keyAction, isEditable } from './keys.js';
import { announcementFor, statusText } from './ui.js';
import { Share } from './share.js';
import { TraceTools } from './trace.js';
import { FailureBanner } from './failure.js';
import { Haptics } from './haptics.js';
import { FeedMirror } from './feedMirror.js';
import { localizePage, language } from './i18n.js';

const DRAW_LOG = 1000;
const $ = (sel) => document.querySelector(sel);
localizePage(document); // <html lang> and the fixed labels in the reader's language (js/i18n.js)

const params = new URLSearchParams(location.search);
/** What the page knows of its session: written by the connection, read by everything else. */
const store = new Store({ preset: params.get('preset') || null });
/** The page's own inputs, predicted until the server acknowledges them (?predict=0 draws the server's frames only). */
const predictor = new Predictor({ enabled: params.get('predict') !== '0', configOf: () => store.config });
const drawn = new DrawnOffset(predictor);
const app = {
  stateClock: new EdgeStateClock(),
  status: { state: 'connecting' },
  dirty: true,
  taps: [],
  framesIn: [], // page times of received frames (last second)
  lastStatusAt: 0,
  shown: { x: 0, y: 0 }, // the offset drawn last
  drawLog: [],           // {t, y} of the last DRAW_LOG draws
  predictionGap: 0,      // drawn − server offset.y at the last draw
};

const canvas = $('#list');
const renderer = new Renderer(canvas);
renderer.theme = readTheme();
renderer.fit();

// The rows for screen readers and keyboards: a feed of articles mirroring the canvas (js/feedMirror.js).
const feedMirror = new FeedMirror($('#feed'), {
  scrollBy: (amount) => conn.send({ type: 'command', name: 'scrollBy', amount }),
  view: () => ({ frame: store.frame, offsetY: Number(store.frame?.offset?.y ?? 0), viewportH: renderer.cssH }),
});

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
const share = new Share({ store });

const conn = new Connection({
  store,
  onTokenChange: (session, token) => share.onTokenChange(session, token),
  hello: () => {
    const hello = { viewport: viewportSize(), dpr: renderer.dpr };
    if (store.preset) hello.preset = store.preset;
    return hello;
  },
  onMessage: handleMessage,
  onStatus: (s) => {
    app.status = { ...app.status, ...s };
    document.body.dataset.connection = s.state;
    updateStatus(performance.now(), true);
  },
});

/** The server time the page draws at, without moving the display clock's slew (js/clock.js). */
function drawingServerNow(pageNow) {
  return pageNow + (conn.clock.applied ?? conn.clock.offset);
}

/** The page's touch and wheel messages: numbered, predicted, and sent again after a resume (js/inputs.js). */
const inputs = new InputChannel({ conn, predictor, frameOf: () => store.frame, serverNowOf: drawingServerNow });

/**
 * Changes what the prediction stands on (a frame, a welcome, a refused input) without a jump on screen:
 * when the page was or is predicting, the difference goes into the blend, which fades it out.
 */
function rebase(previousFrame, change) {
  const now = performance.now();
  const result = drawn.rebase(previousFrame, () => store.frame, drawingServerNow(now), now, change);
  app.dirty = true;
  return result;
}

function handleMessage(msg, tRecv, raw, previousFrame) {
  if (msg.type === 'welcome') share.onWelcome(msg);
  else if (msg.type === 'room') share.onRoom(msg);
  else if (msg.type === 'error') share.onError(msg);
  traceTools.onMessage(msg, raw);
  panel.onMessage(msg, tRecv);
  switch (msg.type) {
    case 'welcome':
      rebase(store.frame, () => inputs.onWelcome(msg, performance.now()));
      setPresets(Array.isArray(msg.presets) ? msg.presets : [], msg.preset);
      app.dirty = true;
      break;
    case 'config':
      // An accepted configure, from this page or another device in the session: follow it.
      if (presetSelect.value !== store.preset && store.preset) presetSelect.value = store.preset;
      app.dirty = true;
      break;
    case 'frame':
      rebase(previousFrame, () => predictor.onFrame(msg, tRecv));
      app.stateClock.update(msg.edges, tRecv);
      app.framesIn.push(tRecv);
      app.dirty = true;
      break;
    case 'event':
      announce(announcementFor(msg));
      failure.onMessage(msg, performance.now(), edgeRoles());
      if (msg.name === 'feedLoaded' && edgeRoles()[msg.edge] === 'refresh') app.lastUpdated = new Date();
      haptics.onEvent(msg, {
        reducedMotion: reducedMotion.matches, sinceLocalInputMs: performance.now() - lastLocalInputAt,
      });
      break;
    case 'error':
      if (Number.isInteger(msg.seq)) rebase(store.frame, () => predictor.onError(msg));
      console.warn(`refreshkit: ${msg.code}: ${msg.message}`);
      if (msg.ref === 'configure' && msg.code === ErrorCode.unknownPreset && store.welcome) {
        store.pickPreset(store.serverPreset);
        setPresets(store.welcome.presets || [], store.serverPreset);
      }
      break;
    default:
      break;
  }
}

const traceTools = new TraceTools({ conn, notify: (text, kind) => share.notify(text, kind) });

// A tick when this device's pull arms, one when its refresh starts (js/haptics.js).
const haptics = new Haptics();
let lastLocalInputAt = -Infinity;

// A failed refresh says so under the bar, with Retry (js/failure.js).
const failure = new FailureBanner({ onRetry: (edge) => conn.send({ type: 'command', name: 'refresh', edge }) });

/** Each edge's configured role (`refresh` or `loadMore`), from the session's configuration. */
function edgeRoles() {
  const edges = store.config?.edges ?? {};
  return Object.fromEntries(Object.entries(edges).map(([edge, c]) => [edge, c.role]));
}

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
  if (current) presetSelect.value = current;
  app.dirty = true;
}

presetSelect.addEventListener('change', () => {
  const name = presetSelect.value;
  if (!name) return;
  conn.send({ type: 'configure', preset: name });
  store.pickPreset(name);
  app.dirty = true;
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
  store,
  predictor,
  onPredictionToggle: (on) => setPrediction(on),
  haptics,
});
debugToggle.addEventListener('click', () => panel.toggle());
renderer.controls.attach({ send: (msg) => conn.send(msg), onChange: () => { app.dirty = true; }, search: location.search });
new ControlPicker({ host: renderer.controls, store, send: (msg) => conn.send(msg) }).mount($('#panel [data-panel-body]'));
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
let announcing = []; // said together, so that one close behind another is not lost
function announce(text) {
  if (!text) return;
  // clear first, so that the same words twice in a row are announced twice
  announcer.textContent = '';
  announcing.push(text);
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    announcer.textContent = announcing.join('. ');
    announcing = [];
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

/** A touch or wheel message: numbered, predicted (js/prediction.js), sent or kept for the resumed session (js/inputs.js). */
function sendInput(msg) {
  const now = performance.now();
  if (!inputs.send(msg, now)) return false;
  lastLocalInputAt = now;
  return true;
}

/** ?predict=0 and the panel's switch. */
function setPrediction(on) {
  if (predictor.enabled === on) return;
  rebase(store.frame, () => {
    predictor.enabled = on;
  });
}

attachInput(canvas, {
  send: sendInput,
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
  const frame = store.frame;
  const shown = drawn.at(frame, serverNow, now);
  const busyEdges = (frame?.edges || []).some((e) => e.state === 'refreshing' || e.state === 'finishing'
    || app.stateClock.age(e.edge, now) < 400);
  if (app.dirty || shown.moving || busyEdges) {
    app.dirty = false;
    // a predicted or blended offset: the edges follow it (their states stay the server's)
    const picture = shown.predicted || shown.blending ? frameAt(frame, shown, store.config) : frame;
    const out = renderer.draw(picture, shown, {
      config: store.config,
      preset: store.preset,
      clock: now,
      serverNow,
      reducedMotion: reducedMotion.matches,
      lastUpdated: app.lastUpdated ?? null,
      stateClock: app.stateClock,
      slotFor: slotFor,
    });
    app.taps = out.taps;
    app.shown = { x: shown.x, y: shown.y };
    feedMirror.update(frame, shown.y, renderer.cssH);
    feedMirror.place(shown.y);
    app.drawLog.push({ t: now, y: shown.y });
    if (app.drawLog.length > 2 * DRAW_LOG) app.drawLog.splice(0, app.drawLog.length - DRAW_LOG);
    app.predictionGap = frame ? shown.y - Number(frame.offset?.y ?? 0) : 0;
  }
  updateStatus(now);
  panel.tick(now, serverNow, { shown: app.shown, gap: app.predictionGap });
}

/** The indicator slot depth of an edge: its configured height when the server told us, else 60 px. */
function slotFor(edge) {
  const h = store.config?.edges?.[edge]?.height;
  return Number.isFinite(h) && h > 0 ? h : DEFAULT_SLOT;
}

// ------------------------------------------------------------------ for tests and tools

window.refreshkit = Object.freeze({
  get frame() { return store.frame; },
  get events() { return store.events; },
  get errors() { return store.errors; },
  get welcome() { return store.welcome; },
  get preset() { return store.preset; },
  get config() { return store.config; },
  /** The page's language (js/i18n.js) and what the text indicators say now, per edge (the canvas's words). */
  get language() { return language(); },
  indicatorTexts: () => renderer.controls.texts(),
  /** The header's "last updated" line where the top edge's control draws one (null before the first refresh). */
  lastUpdatedText: () => (renderer.controls.drawing().top === 'arrow' ? lastUpdatedText(app.lastUpdated) : null),
  /** The edges' controls (js/controls/controlHost.js): which one draws each edge, their state, problems. */
  controls: () => ({
    drawing: renderer.controls.drawing(), status: renderer.controls.status(), calls: renderer.controls.calls(),
    areas: renderer.controls.areas(), problems: [...renderer.controls.problems],
  }),
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
    return { id: store.session, member: store.member, members: store.members, url: share.url };
  },
  requestTrace: () => traceTools.request(),
  exportTrace: () => traceTools.download(),
  playTrace: (text) => traceTools.play(text),
  get playback() { return traceTools.state; },
  serverNow: () => conn.serverNow(performance.now()),
  /** The offset drawn last, predicted or not. */
  displayedOffset: () => ({ x: app.shown.x, y: app.shown.y }),
  // measurement hooks (issue 18): the lag bench and the browser tests
  /** The last ≤ 1000 draws: t is the requestAnimationFrame time (performance.now), y the drawn offset.y. */
  drawLog: () => app.drawLog.slice(-DRAW_LOG),
  /** |predicted − server| px at each acknowledgement of an input (the prediction after it vs that frame). */
  reconciliationErrors: () => predictor.errors.list(),
  prediction: () => ({
    enabled: predictor.enabled, supported: predictor.support, active: predictor.active,
    pending: predictor.pending.length, lastAck: predictor.lastAck, nextSeq: predictor.nextSeq,
    resent: inputs.resent, // inputs sent again after resumes (js/inputs.js)
    correction: { x: drawn.blend.x, y: drawn.blend.y }, // drawn − target: what is still being blended away
    stalls: predictor.stalls, // frame gaps > 100 ms while inputs were pending
  }),
  setPrediction: (on) => setPrediction(!!on),
  /** The feed mirror (js/feedMirror.js): how often it changed the DOM. */
  get mirror() { return { updates: feedMirror.updates }; },
});

conn.start();
requestAnimationFrame(loop);
