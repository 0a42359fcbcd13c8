/// Stalls asked for while the link runs (`kill -USR1`, docs/LINK.md "Stalls on demand"): each holds all
/// traffic, both ways, for a while from the moment it was asked for. A pure value in the link's own clock:
/// the proxy records a request with ``stall(from:durationMs:)`` and asks ``earliestOpen(atOrAfter:)`` when a
/// queued chunk may go. Unlike ``StallSchedule``'s windows, which the shaper knows in advance, these begin
/// while chunks are already queued, so they are applied when a chunk is written: a chunk due inside a window
/// waits for its end, whether it was queued before the request or after it.
public struct OnDemandStalls: Sendable, Equatable {
    /// One stall: all traffic is held in `[start, end)`.
    public struct Window: Sendable, Equatable {
        public var start: Double
        public var end: Double

        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// The windows not yet over, in order, disjoint (a request inside a window extends it).
    public private(set) var windows: [Window] = []

    public init() {}

    /// Records a stall of `durationMs` beginning at `time`; requests come in time order. One that begins
    /// inside (or at the end of) the last window extends it instead of adding another.
    public mutating func stall(from time: Double, durationMs: Double) {
        guard durationMs > 0 else { return }
        let end = time + durationMs
        if let last = windows.last, time <= last.end {
            windows[windows.count - 1].end = max(last.end, end)
        } else {
            windows.append(Window(start: time, end: end))
        }
    }

    /// The earliest time ≥ `time` at which the link is not held: `time` itself outside every window, the
    /// window's end inside one.
    public func earliestOpen(atOrAfter time: Double) -> Double {
        windows.first { $0.start <= time && time < $0.end }?.end ?? time
    }

    /// Drops the windows over by `now`. Safe for chunks still queued: one due inside such a window would
    /// open at its end, which is ≤ `now` too, so it is released either way.
    public mutating func forget(before now: Double) {
        windows.removeAll { $0.end <= now }
    }
}

extension OnDemandStalls {
    /// The earliest time ≥ `time` at which neither these stalls nor `schedule`'s periodic ones hold the link
    /// (the end of one may fall inside the other).
    public func earliestOpen(atOrAfter time: Double, with schedule: StallSchedule) -> Double {
        var open = time
        while true {
            let next = schedule.earliestOpen(atOrAfter: earliestOpen(atOrAfter: open))
            if next == open { return open }
            open = next
        }
    }
}
