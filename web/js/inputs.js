// The page's touch and wheel inputs on their way to the server, and what becomes of them when the connection
// breaks (docs/SCALING.md, "Resending"). One mechanism with prediction (js/prediction.js): every
// input gets its `seq`, every frame acknowledges the last one applied, and a resumed `welcome.ack` says which
// of them the session has.
//
// A frame's `ack` only says the process that made it applied the input. When that process is killed, the
// session is taken over from the store, which may be behind it by a write period, and a process frozen or cut
// off may have applied what the session that lives on never saw. So the page keeps its last MAX_KEPT inputs,
// acknowledged or not, however long ago it sent them, and after a resume sends again the ones numbered above
// `welcome.ack`. While the page is reconnecting to a session it had, its inputs are numbered, predicted and kept
// the same way, and go out once it is welcomed back, so the content the finger moved while the link was down
// follows it on the server too. A welcome that is not a resume (a new session, `session_expired`) drops them:
// they belonged to a session that is gone.
//
// The bound is a count, not a time: a page offline so long that its finger did more than MAX_KEPT inputs has
// lost the oldest of them. The welcome then shows a gap between its `ack` and the first input kept; the page
// sends what it kept (the finger's latest motion), counts the inputs missed, and says so (the notice bar, the
// debug panel): from there the content follows the finger again from where the session has it.
import { roleMay } from './protocol.js';

/** At most this many inputs are kept (a drag's coalesced pointer samples run at up to ~240 a second, a plain
 * touchmove at 60–120: 2 to 8 s of a finger). Below the server's burst of 600 messages on a new connection
 * (docs/HARDENING.md), so a resend is never rate limited. */
export const MAX_KEPT = 512;

/** The page's last MAX_KEPT inputs, in the order they were numbered. Pure. */
export class ResendLog {
  constructor({ max = MAX_KEPT } = {}) {
    this.max = max;
    this.entries = []; // numbered messages, oldest first
  }

  /** Keeps `msg` (numbered: it has `seq`). */
  record(msg) {
    this.entries.push(msg);
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
  }

  /**
   * A welcome: `again`, the inputs to send again in order (those numbered above `welcome.ack` on a resumed
   * session), and `missed`, how many inputs above that `ack` the log no longer has (it reached its bound).
   * Anything but a resume with an `ack` forgets them all.
   */
  onWelcome(welcome) {
    if (welcome?.resumed !== true || !Number.isInteger(welcome.ack) || welcome.ack < 0) {
      this.entries = [];
      return { again: [], missed: 0 };
    }
    const again = this.entries.filter((m) => m.seq > welcome.ack);
    const missed = again.length ? Math.max(0, again[0].seq - 1 - welcome.ack) : 0;
    return { again, missed };
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
    this.missed = 0; // inputs the last welcome's session will never have (past the log's bound)
    this.missedTotal = 0; // the same, over every welcome
  }

  /**
   * Sends `msg` at page time `now` (sets `msg.seq`). Returns whether it was sent or kept for the resumed
   * session; false when there is no session to send it to (it is dropped, as before a first welcome).
   */
  send(msg, now) {
    // what this member's role may not send is neither predicted nor kept (a watch page: docs/PROTOCOL.md, "Roles")
    if (!roleMay(this.conn.store?.role, msg.type)) return false;
    const open = this.conn.ready;
    if (!open && !this.conn.resuming) return false;
    this.predictor.stamp(msg, this.frameOf(), this.serverNowOf(now), now);
    this.log.record(msg);
    if (!open) return true;
    if (this.conn.send(msg)) return true;
    this.predictor.onError({ seq: msg.seq }); // not sent after all: nothing will acknowledge it
    return false;
  }

  /**
   * A welcome: the prediction keeps what is sent again, which goes out now. Returns how many inputs were sent
   * again; `missed` then says how many the session will never have (the log's bound was reached while offline).
   */
  onWelcome(welcome) {
    const { again, missed } = this.log.onWelcome(welcome);
    this.missed = missed;
    this.missedTotal += missed;
    this.predictor.onWelcome(welcome, new Set(again.map((m) => m.seq)));
    for (const msg of again) {
      if (!this.conn.send(msg)) break;
      this.resent += 1;
    }
    return again.length;
  }
}
