// Clock sync and reconnect timing (docs/PROTOCOL.md, "Clocks"). Pure: unit tested with node.

/**
 * Keeps the offset from the page clock (performance.now) to the server clock:
 * offset = serverT − (tSent + tReceived)/2, taken from the sample with the smallest round trip among the
 * last `window` samples. serverNow = pageNow + offset.
 */
export class ClockSync {
  constructor(window = 8) {
    this.window = window;
    this.samples = [];
    this.rough = null; // from welcome.serverT, before any pong
    this.applied = null; // the offset the display uses: slewed towards `offset`
    this.appliedAt = null;
  }

  reset() {
    this.samples = [];
    this.rough = null;
    this.applied = null;
    this.appliedAt = null;
  }

  /**
   * The offset for drawing: follows `offset` at most `rate` ms per ms of page time (5 %), so that a new
   * best sample never makes an animation jump; a difference beyond `snapMs` is taken at once.
   */
  displayOffset(pageNow, rate = 0.05, snapMs = 25) {
    const target = this.offset;
    if (this.applied === null || !Number.isFinite(this.appliedAt) || Math.abs(target - this.applied) > snapMs) {
      this.applied = target;
    } else {
      const step = Math.max(0, pageNow - this.appliedAt) * rate;
      const diff = target - this.applied;
      this.applied += Math.abs(diff) <= step ? diff : Math.sign(diff) * step;
    }
    this.appliedAt = pageNow;
    return this.applied;
  }

  /** A first, one-way estimate (the message's transit time counts as zero). */
  roughFromWelcome(serverT, tReceived) {
    if (Number.isFinite(serverT) && Number.isFinite(tReceived)) this.rough = serverT - tReceived;
  }

  /** Adds a ping/pong sample. Returns false (and ignores it) when it is not usable. */
  addSample(tSent, tReceived, serverT) {
    if (![tSent, tReceived, serverT].every(Number.isFinite) || tReceived < tSent) return false;
    this.samples.push({ rtt: tReceived - tSent, offset: serverT - (tSent + tReceived) / 2, at: tReceived });
    while (this.samples.length > this.window) this.samples.shift();
    return true;
  }

  best() {
    let best = null;
    for (const s of this.samples) if (!best || s.rtt < best.rtt) best = s;
    return best;
  }

  /** Server time minus page time, ms (0 until anything is known). */
  get offset() {
    const b = this.best();
    if (b) return b.offset;
    return this.rough ?? 0;
  }

  /** The latest round trip, ms (null before the first pong). */
  get rtt() {
    return this.samples.length ? this.samples[this.samples.length - 1].rtt : null;
  }

  /** The smallest recent round trip, ms. */
  get minRtt() {
    const b = this.best();
    return b ? b.rtt : null;
  }

  get synced() {
    return this.samples.length > 0;
  }

  serverNow(pageNow) {
    return pageNow + this.offset;
  }
}

/** Reconnect delay for the n-th attempt (0-based): exponential from 250 ms, capped at 5 s, with jitter. */
export function backoffDelay(attempt, random = Math.random, base = 250, cap = 5000) {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt));
  // "equal jitter": never less than half the step, never more than the step.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The WebSocket URL for a page served from `loc` (same host and port, ws or wss). */
export function socketUrl(loc) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/`;
}
