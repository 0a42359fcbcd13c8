// The phases a control draws, as functions of the server's clock (docs/CONTROLS.md, "Time"): every device of a
// session and a replayed trace draw the same cycle at the same server time. Pure.
//
// A frame's edge entry carries `cycle: {index, t0, duration, delay, kind}` while refreshing (t0 in server ms,
// duration and delay in seconds, docs/PROTOCOL.md) and `exit: {t0, duration}` while finishing.

export const clamp01 = (v) => (v < 0 ? 0 : v > 1 ? 1 : Number.isFinite(v) ? v : 0);
const seconds = (v) => (Number.isFinite(v) && v > 0 ? v * 1000 : 0);

/**
 * Where the animation cycle is at `serverNow`: `{index, t, period, delay, startedAt, kind}` with `t` in 0…1
 * (0 during the cycle's delay). Past the cycle the frame announced, the next ones follow at the same period
 * (the server's next frame confirms them). Without a cycle (an edge whose preset animates none) cycles of
 * `fallbackMs` run from server time 0.
 */
export function cyclePhase(cycle, serverNow, fallbackMs = 1000) {
  if (cycle && Number.isFinite(cycle.t0) && seconds(cycle.duration) > 0) {
    const period = seconds(cycle.duration);
    const delay = seconds(cycle.delay);
    const since = Math.max(0, serverNow - cycle.t0);
    const k = Math.floor(since / (period + delay));
    const local = since - k * (period + delay);
    return {
      index: (Number.isInteger(cycle.index) ? cycle.index : 0) + k,
      t: clamp01((local - delay) / period),
      period, delay, startedAt: cycle.t0 + k * (period + delay), kind: cycle.kind || 'default',
    };
  }
  const period = fallbackMs > 0 ? fallbackMs : 1000;
  const k = Math.floor(serverNow / period);
  return { index: k, t: clamp01((serverNow - k * period) / period), period, delay: 0, startedAt: k * period, kind: 'default' };
}

/**
 * How far the exit animation is at `serverNow`: `{t, duration}` (ms). Without the frame's `exit` the exit runs
 * `fallbackMs` from the state change the page saw (`stateAge`, page ms).
 */
export function exitPhase(exit, serverNow, stateAge, fallbackMs = 300) {
  if (exit && Number.isFinite(exit.t0) && seconds(exit.duration) > 0) {
    const duration = seconds(exit.duration);
    return { t: clamp01((serverNow - exit.t0) / duration), duration };
  }
  return { t: clamp01(stateAge / fallbackMs), duration: fallbackMs };
}
