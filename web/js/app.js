// The normal page: one live session (js/session/liveSession.js) on #list, and the page around it: the bar (preset
// picker, Refresh, status line, Share), the debug panel (with its control picker), keys, announcements, the failure
// banner, haptics. The server owns every state; the session sends input and draws the latest frame, this wires
// the chrome to it.
import { LiveSession } from './session/liveSession.js';
import { SessionIdentity } from './session/identity.js';
import { ErrorCode } from './protocol.js';
import { Panel } from './panel/panel.js';
import { ControlPicker } from './panel/controlPicker.js';
import { keyAction, isEditable } from './keys.js';
import { announcementFor, statusText } from './ui.js';
import { NoticeBar } from './noticeBar.js';
import { SharePopover } from './sharePopover.js';
import { TraceTools } from './trace.js';
import { FailureBanner } from './failure.js';
import { Haptics } from './haptics.js';
import { localizePage } from './i18n.js';
import { exposePageHook } from './pageHook.js';
import { NewItemsPill } from './feed/newItemsPill.js';
import { RoleBadge } from './roleBadge.js';
import { roleMay } from './protocol.js';

const $ = (sel) => document.querySelector(sel);
localizePage(document); // <html lang> and the fixed labels in the reader's language (js/i18n.js)

const params = new URLSearchParams(location.search);
// the session in the URL (?s=ID) is joined, or resumed with this tab's token (js/session/identity.js);
// ?predict=0 draws the server's frames only
const session = new LiveSession($('#list'), {
  preset: params.get('preset'),
  predict: params.get('predict') !== '0',
  identity: new SessionIdentity(),
  mirror: $('#feed'), // the rows for screen readers and keyboards (js/feedMirror.js)
  drawLog: 1000,
});
const { store } = session;

const notices = new NoticeBar();
notices.follow(session);
const notify = (text, kind) => notices.show(text, kind);
const share = new SharePopover({ session, notify });
const traceTools = new TraceTools({ conn: session.connection, notify });
// A tick when this device's pull arms, one when its refresh starts (js/haptics.js).
const haptics = new Haptics();
// A failed refresh says so over the top of the list, with Retry (js/failure.js).
const failure = new FailureBanner({
  onRetry: (edge) => session.refresh(edge), // waits for a failed refresh's exit to end (js/session/refreshAsks.js)
  errorOf: (edge) => session.feed.errorFor(session.roleOf(edge) ?? 'refresh'), // the source's reason (js/feed/)
});
// "N new" over the list when the feed source has newer items (js/feed/newItemsPill.js)
const newItems = new NewItemsPill(session, { parent: $('#notices') });

const debugToggle = $('#debug-toggle');
const panel = new Panel($('#panel'), {
  onToggle: (open) => {
    debugToggle.setAttribute('aria-pressed', String(open));
    session.keepAwake(open); // its plots scroll with time, also at rest
  },
  send: (msg) => session.send(msg),
  connection: session.connection,
  store,
  predictor: session.predictor,
  onPredictionToggle: (on) => session.setPrediction(on),
  haptics,
  feed: session.feed,
});
debugToggle.addEventListener('click', () => panel.toggle());
$('#panel [data-panel-close]').addEventListener('click', () => panel.toggle(false));
// ?control= chooses this page's controls; the panel's picker chooses the session's (docs/CONTROLS.md)
session.controls.attach({ search: location.search });
const controlPicker = new ControlPicker({ host: session.controls, store, send: (msg) => session.send(msg) });
controlPicker.mount($('#panel [data-panel-body]'));

// ------------------------------------------------------------------ the session's messages

session.on('message', (msg, tRecv, raw) => {
  traceTools.onMessage(msg, raw);
  panel.onMessage(msg, tRecv);
  if (msg.type === 'feed_request') failure.sayWhy();
});
// What this member may do (welcome.role, docs/PROTOCOL.md "Roles"): a badge in the bar for a drive or watch
// page, and only the owner configures (the preset picker, the panel's fields and control picker).
const roleBadge = new RoleBadge($('#role-badge'));
let mayConfigure = true;
session.on('welcome', (msg) => {
  mayConfigure = roleMay(store.role, 'configure');
  roleBadge.show(store.role);
  controlPicker.setEnabled(mayConfigure, 'params-locked');
  const refresh = $('#refresh'); // a command: not a watch page's
  refresh.disabled = !roleMay(store.role, 'command');
  if (refresh.disabled) refresh.setAttribute('aria-describedby', 'role-badge');
  else refresh.removeAttribute('aria-describedby');
  setPresets(Array.isArray(msg.presets) ? msg.presets : [], msg.preset);
  controlPicker.listEdges();
});
session.on('config', () => {
  controlPicker.listEdges(); // a preset's edges, or an edge turned on
  // An accepted configure, from this page or another device in the session: follow it.
  if (presetSelect.value !== store.preset && store.preset) presetSelect.value = store.preset;
});
session.on('event', (msg) => {
  const now = performance.now();
  announce(announcementFor(msg));
  failure.onMessage(msg, now, session.edgeRoles());
  haptics.onEvent(msg, { reducedMotion: session.reducedMotion, sinceLocalInputMs: now - session.lastInputAt });
});
session.on('error', (msg) => {
  // the session showed the server's preset again (js/session/liveSession.js): so does the picker
  if (msg.ref === 'configure' && msg.code === ErrorCode.unknownPreset && store.welcome) {
    setPresets(store.welcome.presets || [], store.serverPreset);
  }
});
session.on('status', (status) => {
  document.body.dataset.connection = status.state;
  updateStatus(performance.now(), true);
});
session.on('tick', (now, serverNow) => {
  updateStatus(now);
  panel.tick(now, serverNow, session.view);
});

// ------------------------------------------------------------------ the bar

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
  presetSelect.disabled = names.length === 0 || !mayConfigure;
  if (mayConfigure) presetSelect.removeAttribute('aria-describedby');
  else presetSelect.setAttribute('aria-describedby', 'role-badge');
  if (current) presetSelect.value = current;
}

presetSelect.addEventListener('change', () => {
  const name = presetSelect.value;
  if (!name) return;
  session.pickPreset(name);
  const url = new URL(location.href);
  url.searchParams.set('preset', name);
  history.replaceState(null, '', url);
});

$('#refresh').addEventListener('click', () => {
  session.send({ type: 'command', name: 'refresh', edge: 'top' });
});

window.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || isEditable(e.target)) return;
  const act = keyAction(e);
  if (!act) return;
  // keys on a button keep their own meaning for Enter/Space; ours are letters and navigation keys
  e.preventDefault();
  if (act.message) session.send(act.message);
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
let lastStatusAt = 0;
function updateStatus(now, force = false) {
  if (!force && now - lastStatusAt < 250) return;
  lastStatusAt = now;
  const state = session.status.state;
  const text = statusText({
    state,
    retryInMs: session.status.retryAt ? session.status.retryAt - now : null,
    rtt: session.connection.clock.rtt,
    framesPerSecond: session.framesPerSecond(now),
  });
  if (statusTextEl.textContent !== text) statusTextEl.textContent = text;
  if (statusEl.dataset.state !== state) statusEl.dataset.state = state;
}

// ------------------------------------------------------------------ for tests and tools

exposePageHook({ session, share, traceTools, newItems });
session.connect();
