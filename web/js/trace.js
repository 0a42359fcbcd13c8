// Input traces (docs/TRACE.md): export the session's recording as a JSON file, and play one back by
// opening a fresh session with the trace's start (preset, viewport, dpr, seed) and re-sending each
// recorded message at its recorded time. Playback is visual: it runs on this page's clock and the network,
// so it is not bit-identical — `refreshkit replay` is the exact one.
// The pure helpers at the top are unit tested with node.

import { t } from './i18n.js';

export const TRACE_FORMAT = 'refreshkit.trace.v2';
/** The format before it, still played back (docs/TRACE.md, "Versions"). */
export const TRACE_FORMAT_V1 = 'refreshkit.trace.v1';
const REQUEST_TIMEOUT_MS = 15000;
const MESSAGE_PREFIX = '{"type":"trace","trace":';

/** The trace's own JSON out of the raw `trace` message, byte for byte when it has the server's layout. */
export function traceText(raw, msg) {
  if (typeof raw === 'string' && raw.startsWith(MESSAGE_PREFIX) && raw.endsWith('}')) {
    return raw.slice(MESSAGE_PREFIX.length, -1);
  }
  return JSON.stringify(msg?.trace ?? null);
}

/** The download's file name: a short prefix of the id only (the full id would let the file's reader in). */
export function traceFileName(session, date = new Date()) {
  const id = typeof session === 'string' && session ? session.slice(0, 8) : 'session';
  const stamp = date.toISOString().replace(/[:]/g, '').replace(/\..*$/, '');
  return `refreshkit-trace-${id}-${stamp}.json`;
}

/** Checks a parsed trace enough to play it back; returns an error sentence, or null. */
export function traceProblem(trace) {
  if (!trace || typeof trace !== 'object') return 'not a JSON object';
  if (trace.format !== TRACE_FORMAT && trace.format !== TRACE_FORMAT_V1) return `not a ${TRACE_FORMAT} trace`;
  if (!trace.viewport || !(trace.viewport.w > 0) || !(trace.viewport.h > 0)) return 'no viewport';
  if (!(trace.dpr > 0)) return 'no dpr';
  if (!Number.isFinite(trace.start)) return 'no start time';
  if (!Array.isArray(trace.ops)) return 'no ops';
  return null;
}

/**
 * The messages to send, with their delays (ms after the session opens): each recorded `apply` at its time
 * since the trace's start — or, for a trace that starts from a snapshot (docs/TRACE.md, "Snapshots"), since its
 * first timed operation: the page cannot rebuild the state before it, so it plays the messages after it from a
 * fresh session. Touch pointers of other members are kept apart (member · 65536 + id), since the playback sends
 * everything as one member. The messages go without their recorded `seq`: that was the recording page's numbering,
 * and the playing page numbers inputs of its own in the new session (its rows' `measure`s), so a recorded number
 * could come after a higher one of the page's and be refused as `already_applied` (docs/PROTOCOL.md,
 * "Prediction and acknowledgement"): a lost `end` left the played list dragging.
 */
export function playbackPlan(trace) {
  const plan = [];
  const first = trace.ops.find((op) => op && Number.isFinite(op.t));
  const origin = typeof trace.snapshot === 'string' && first ? first.t : trace.start;
  for (const op of trace.ops) {
    if (!op || typeof op !== 'object' || !op.apply || typeof op.apply !== 'object') continue;
    if (!Number.isFinite(op.t)) continue;
    const { seq: _recorded, ...message } = op.apply;
    const member = Number.isInteger(op.member) ? op.member : 0;
    if (message.type === 'touch' && member !== 0) message.id = member * 65536 + (Number.isInteger(message.id) ? message.id : 0);
    plan.push({ delay: Math.max(0, (op.t - origin) / 1000), message });
  }
  return plan;
}

/** The hello fields that recreate the trace's session. */
export function playbackHello(trace) {
  const hello = { viewport: { w: trace.viewport.w, h: trace.viewport.h }, dpr: trace.dpr };
  if (typeof trace.preset === 'string') hello.preset = trace.preset;
  if (Number.isSafeInteger(trace.seed) && trace.seed >= 0) hello.seed = trace.seed;
  return hello;
}

/**
 * Wires "Export trace" and "Load trace…" (the buttons js/sharePopover.js puts in the Share popover) to the
 * connection. `notify(text, kind)` reports progress.
 */
export class TraceTools {
  constructor({ conn, notify = () => {}, doc = document, win = window } = {}) {
    this.conn = conn;
    this.notify = notify;
    this.doc = doc;
    this.win = win;
    this.waiting = [];
    this.playback = null; // {plan, timers, sent, fired, armed, done}
    this.lastExport = null;
    doc.getElementById?.('trace-export')?.addEventListener('click', () => {
      this.download().catch((err) => this.notify(t('trace.exportFailed', { error: err.message }), 'warning'));
    });
    const file = doc.getElementById?.('trace-file');
    doc.getElementById?.('trace-load')?.addEventListener('click', () => file?.click());
    file?.addEventListener('change', async () => {
      const chosen = file.files?.[0];
      file.value = '';
      if (!chosen) return;
      try {
        this.play(await chosen.text());
      } catch (err) {
        this.notify(t('trace.cannotPlay', { error: err.message }), 'warning');
      }
    });
  }

  /** Every message of the page's session passes here (js/app.js); `trace` replies resolve the pending requests. */
  onMessage(msg, raw) {
    if (msg.type === 'trace') {
      const text = traceText(raw, msg);
      for (const w of this.waiting.splice(0)) {
        this.win.clearTimeout(w.timer);
        w.resolve(text);
      }
    } else if (msg.type === 'welcome' && this.playback && !this.playback.armed) {
      this.startPlayback();
    }
  }

  /** The session's trace as JSON text (a Promise). */
  request() {
    return new Promise((resolve, reject) => {
      if (!this.conn.send({ type: 'trace' })) {
        reject(new Error('not connected'));
        return;
      }
      const entry = { resolve, timer: 0 };
      entry.timer = this.win.setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== entry);
        reject(new Error('the server did not answer'));
      }, REQUEST_TIMEOUT_MS);
      this.waiting.push(entry);
    });
  }

  /** Requests the trace and saves it as a file. Resolves to the file name. */
  async download() {
    const text = await this.request();
    const name = traceFileName(this.conn.session);
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = this.doc.createElement('a');
    a.href = url;
    a.download = name;
    a.hidden = true;
    this.doc.body.appendChild(a);
    a.click();
    a.remove();
    this.win.setTimeout(() => URL.revokeObjectURL(url), 60000);
    this.lastExport = { name, bytes: text.length };
    this.notify(t('trace.exported', { name }), 'info');
    return name;
  }

  /** Plays back a trace (its JSON text): a fresh session, then its messages at their times. */
  play(text) {
    const trace = typeof text === 'string' ? JSON.parse(text) : text;
    const problem = traceProblem(trace);
    if (problem) throw new Error(problem);
    this.stop();
    const plan = playbackPlan(trace);
    this.playback = { plan, timers: [], sent: 0, fired: 0, armed: false, done: false };
    this.notify(t('trace.playing', { count: plan.length }), 'info');
    this.conn.restart({ hello: playbackHello(trace) });
  }

  startPlayback() {
    const pb = this.playback;
    pb.armed = true;
    for (const step of pb.plan) {
      pb.timers.push(this.win.setTimeout(() => {
        if (this.playback !== pb) return;
        if (this.conn.send(step.message)) pb.sent += 1;
        pb.fired += 1;
        this.maybeFinish(pb);
      }, step.delay));
    }
    this.maybeFinish(pb);
  }

  maybeFinish(pb) {
    if (pb.done || pb.fired < pb.plan.length) return;
    pb.done = true;
    this.notify(t('trace.played', { sent: pb.sent, total: pb.plan.length }), 'info');
  }

  stop() {
    if (!this.playback) return;
    for (const id of this.playback.timers) this.win.clearTimeout(id);
    this.playback = null;
  }

  get state() {
    const pb = this.playback;
    return pb ? { messages: pb.plan.length, sent: pb.sent, done: pb.done, armed: pb.armed } : null;
  }
}
