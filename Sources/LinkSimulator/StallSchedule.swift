/// Periodic stalls of the whole link: every `periodMs` the link holds all traffic, both ways, for
/// `durationMs` (a phone's Wi-Fi in power save, which hears its access point only at beacons:
/// docs/LINK.md, "wifi-powersave"). The first stall starts one period after the link starts, so the
/// windows are `[k·period, k·period + duration)` for k = 1, 2, … in the link's own clock.
public struct StallSchedule: Sendable, Equatable {
    public var periodMs: Double
    public var durationMs: Double

    public init(periodMs: Double, durationMs: Double) {
        self.periodMs = periodMs
        self.durationMs = durationMs
    }

    /// Whether the schedule stalls at all.
    public var isActive: Bool { periodMs > 0 && durationMs > 0 }

    /// The earliest time ≥ `time` at which the link is not stalled: `time` itself outside a window, the
    /// window's end inside one.
    public func earliestOpen(atOrAfter time: Double) -> Double {
        guard isActive, time >= periodMs else { return time }
        let k = (time / periodMs).rounded(.down)
        let start = k * periodMs
        let end = start + durationMs
        return time < end ? end : time
    }

    /// The stall windows that begin in `[from, to)`, as (start, end) pairs, in order.
    public func windows(from: Double, to: Double) -> [(start: Double, end: Double)] {
        guard isActive, to > from else { return [] }
        var k = max(1, (from / periodMs).rounded(.up))
        var result: [(start: Double, end: Double)] = []
        while k * periodMs < to {
            result.append((k * periodMs, k * periodMs + durationMs))
            k += 1
        }
        return result
    }
}
