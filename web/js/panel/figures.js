// Connection figures: round trip, frames/s, bytes/s, coalesced frames (gaps in `seq`).
// The counters are pure (unit tested in web/test/panel.test.js); `Figures` is the panel section.
import { Ring } from '../ringBuffer.js';
import { el, figureTile, fmt, setText } from './dom.js';

/**
 * Counts frames the server coalesced for this connection: `seq` grows by one per frame the session
 * produced, so a jump from 41 to 44 means 2 frames were merged into the 44th. A `seq` that does not grow
 * (a new session) starts over without counting; so does `rebase()` (call it on every welcome: frames a
 * resumed session produced while the page was away were not coalesced, they were missed).
 */
export class SeqGapCounter {
  constructor(historySize = 256) {
    this.last = null;
    this.total = 0;      // frames coalesced since the panel started
    this.frames = 0;     // frames received
    this.restarts = 0;   // seq went backwards (a new session)
    this.gaps = new Ring(historySize); // {t, n}
  }

  /** Adds a received frame's seq at page time `t`; returns the number of frames coalesced before it. */
  add(seq, t = 0) {
    if (typeof seq !== 'number' || !Number.isFinite(seq)) return 0;
    this.frames += 1;
    let gap = 0;
    if (this.last !== null) {
      if (seq > this.last + 1) {
        gap = seq - this.last - 1;
        this.total += gap;
        this.gaps.push({ t, n: gap });
      } else if (seq <= this.last) {
        this.restarts += 1;
      }
    }
    this.last = seq;
    return gap;
  }

  /** The next frame starts a new count (no gap is counted against the previous seq). */
  rebase() {
    this.last = null;
  }

  /** Frames coalesced in the last `windowMs` before page time `now`. */
  recent(now, windowMs = 5000) {
    let n = 0;
    for (let i = this.gaps.length - 1; i >= 0; i--) {
      const g = this.gaps.at(i);
      if (g.t < now - windowMs) break;
      n += g.n;
    }
    return n;
  }
}

/** A rate from samples of a growing total (bytes received, frames received) over a sliding window. */
export class CounterRate {
  constructor(windowMs = 1000, capacity = 64) {
    this.windowMs = windowMs;
    this.samples = new Ring(capacity); // {t, total}
  }

  sample(t, total) {
    const last = this.samples.last;
    if (last && t <= last.t) return;
    this.samples.push({ t, total });
  }

  /** Per second, over the newest sample and the newest one at least `windowMs` older (else the oldest). */
  rate() {
    const n = this.samples.length;
    if (n < 2) return 0;
    const newest = this.samples.at(n - 1);
    let base = this.samples.at(0);
    for (let i = n - 2; i >= 0; i--) {
      const s = this.samples.at(i);
      if (newest.t - s.t >= this.windowMs) {
        base = s;
        break;
      }
    }
    const dt = newest.t - base.t;
    return dt > 0 ? ((newest.total - base.total) * 1000) / dt : 0;
  }
}

/** "812 B", "24.1 kB", "1.20 MB" (decimal units). */
export function formatBytes(n) {
  if (!Number.isFinite(n) || n < 0) return '–';
  if (n < 1000) return `${Math.round(n)} B`;
  if (n < 1e6) return `${(n / 1000).toFixed(n < 1e4 ? 2 : 1)} kB`;
  return `${(n / 1e6).toFixed(2)} MB`;
}

/** The section: four tiles. */
export class Figures {
  constructor() {
    this.seq = new SeqGapCounter();
    this.frameRate = new CounterRate();
    this.byteRate = new CounterRate();
    this.messageRate = new CounterRate();
    this.tiles = {};
    const tile = (key, label) => figureTile(this.tiles, key, label);
    this.root = el('div', 'figs', [
      tile('rtt', 'Round trip'),
      tile('fps', 'Frames'),
      tile('bps', 'Received'),
      tile('coalesced', 'Coalesced'),
    ]);
  }

  onWelcome() {
    this.seq.rebase();
  }

  onFrame(frame, tRecv) {
    const gap = this.seq.add(frame.seq, tRecv);
    return gap;
  }

  /** At most ~10 times a second. `conn` is the Connection (clock, bytesIn, messagesIn). */
  render(now, conn) {
    this.frameRate.sample(now, this.seq.frames);
    if (typeof conn.bytesIn === 'number') this.byteRate.sample(now, conn.bytesIn);
    if (typeof conn.messagesIn === 'number') this.messageRate.sample(now, conn.messagesIn);
    const clock = conn.clock;
    const t = this.tiles;
    const rtt = clock.rtt;
    setText(t.rtt.value, rtt == null ? '–' : `${fmt(rtt, rtt < 10 ? 1 : 0)} ms`);
    setText(t.rtt.sub, `min ${fmt(clock.minRtt, 1)} · clock ${clock.synced ? signed(clockSkew(clock.offset)) : '–'}`);
    setText(t.fps.value, `${Math.round(this.frameRate.rate())}/s`);
    setText(t.fps.sub, `seq ${this.seq.last ?? '–'} · ${this.seq.frames} in`);
    setText(t.bps.value, typeof conn.bytesIn === 'number' ? `${formatBytes(this.byteRate.rate())}/s` : '–');
    setText(t.bps.sub, `${Math.round(this.messageRate.rate())} msg/s · ${formatBytes(conn.bytesIn)}`);
    const recent = this.seq.recent(now);
    setText(t.coalesced.value, String(this.seq.total));
    setText(t.coalesced.sub, `${recent} in the last 5 s`);
    t.coalesced.node.dataset.hot = String(recent > 0);
  }
}

/**
 * How far the server's clock is ahead of this device's wall clock (ms). The server's time counts from 1970
 * (docs/PROTOCOL.md, "Clocks"), the page's `performance.now()` from the page's load, so the offset between them
 * is about 1.8·10¹² ms; less the page's time origin on the wall clock, what is left is the two machines'
 * clocks' difference (a few ms when both follow NTP), plus the sync's own error.
 */
export function clockSkew(offset, timeOrigin = globalThis.performance?.timeOrigin ?? 0) {
  return offset - timeOrigin;
}

function signed(v) {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  const s = a >= 1e5 ? `${(a / 1000).toFixed(0)} s` : `${a.toFixed(1)} ms`;
  return `${v < 0 ? '−' : '+'}${s}`;
}
