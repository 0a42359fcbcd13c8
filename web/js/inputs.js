// The page's touch and wheel inputs on their way to the server, and what becomes of them when the connection
// breaks (docs/SCALING.md, "Resending"). One mechanism with prediction (js/prediction.js): every
// input gets its `seq`, every frame acknowledges the last one applied, and a resumed `welcome.ack` says which
// of them the session has.
//
// A frame's `ack` only says the process that made it applied the input. When that process is killed, the
// session is taken over from the store, which may be up to ~100 ms behind (its write period), so the page
// keeps every input it sent in the last RESEND_WINDOW_MS, acknowledged or not, and after a resume sends again
// the ones numbered above `welcome.ack`. While the page is reconnecting to a session it had, its inputs are
// numbered, predicted and kept the same way, and go out once it is welcomed back, so the content the finger
// moved while the link was down follows it on the server too. A welcome that is not a resume (a new session,
// `session_expired`) drops them: they belonged to a session that is gone.
//
// What is not resent: inputs older than the window (a long outage's start: the content then lags the finger
// by what they moved, as before), and anything when the welcome has no `ack` (a server that does not number).

/** Inputs sent within this long (ms) are kept for a resend: well over the store's 100 ms write period and a
 * take-over's reconnection (docs/SCALING.md, "Figures": p50 ~0.22 s, max ~0.4 s). */
export const RESEND_WINDOW_MS = 1000;
/** At most this many are kept (a drag's coalesced pointer samples run at up to ~240 a second). Below the
 * server's burst of 600 messages (docs/HARDENING.md), so a resend is never rate limited. */
export const MAX_RESEND = 400;

/** The inputs of the last RESEND_WINDOW_MS, in the order they were numbered. Pure. */
export class ResendLog {
  constructor({ windowMs = RESEND_WINDOW_MS, max = MAX_RESEND } = {}) {
    this.windowMs = windowMs;
    this.max = max;
    this.entries = []; // {seq, msg, at}
  }

  /** Keeps `msg` (numbered: it has `seq`), made at page time `now`. */
  record(msg, now) {
    this.entries.push({ seq: msg.seq, msg, at: now });
    this.trim(now);
  }

  trim(now) {
    let drop = 0;
    while (drop < this.entries.length && now - this.entries[drop].at > this.windowMs) drop += 1;
    drop = Math.max(drop, this.entries.length - this.max);
    if (drop > 0) this.entries.splice(0, drop);
  }

  /**
   * A welcome at page time `now`: the inputs to send again, in order (those numbered above `welcome.ack` on a
   * resumed session). Anything else forgets them all.
   */
  onWelcome(welcome, now) {
    this.trim(now);
    if (welcome?.resumed !== true || !Number.isInteger(welcome.ack) || welcome.ack < 0) {
      this.entries = [];
      return [];
    }
    return this.entries.filter((e) => e.seq > welcome.ack).map((e) => e.msg);
  }

  get size() {
    return this.entries.length;
  }
}

/**
 * Sends the page's touch and wheel messages over `conn` (js/connection.js): numbered and predicted by
 * `predictor` against the frame `frameOf()`, at the server time `serverNowOf(pageNow)`, kept in a ResendLog.
 */
export class InputChannel {
  constructor({ conn, predictor, frameOf, serverNowOf, log = new ResendLog() }) {
    this.conn = conn;
    this.predictor = predictor;
    this.frameOf = frameOf;
    this.serverNowOf = serverNowOf;
    this.log = log;
    this.resent = 0; // inputs sent again after resumes, for the debug panel and the tests
  }

  /**
   * Sends `msg` at page time `now` (sets `msg.seq`). Returns whether it was sent or kept for the resumed
   * session; false when there is no session to send it to (it is dropped, as before a first welcome).
   */
  send(msg, now) {
    const open = this.conn.ready;
    if (!open && !this.conn.resuming) return false;
    this.predictor.stamp(msg, this.frameOf(), this.serverNowOf(now), now);
    this.log.record(msg, now);
    if (!open) return true;
    if (this.conn.send(msg)) return true;
    this.predictor.onError({ seq: msg.seq }); // not sent after all: nothing will acknowledge it
    return false;
  }

  /** A welcome at page time `now`: the prediction keeps what is sent again, which goes out now. */
  onWelcome(welcome, now) {
    const again = this.log.onWelcome(welcome, now);
    this.predictor.onWelcome(welcome, new Set(again.map((m) => m.seq)));
    for (const msg of again) {
      if (!this.conn.send(msg)) break;
      this.resent += 1;
    }
    return again.length;
  }
}
