/// When the server's one timer must fire: every period of the tick rate while some session moves, and at
/// the earliest deadline a session waits for (a refresh's end, an expiry) otherwise. Times are µs on the
/// transport's clock, passed in.
///
/// While ticking, deadlines are `origin + index · 1 s / rate`, so the period carries no rounding drift; a
/// tick that comes late skips the ticks it missed instead of bursting to catch up. The timer is only ever
/// moved earlier between ticks (an input's session may need it sooner); each tick computes the schedule anew.
public struct TickScheduler: Sendable {
    /// Ticks per second.
    public let rate: Int
    /// The time the timer is armed for; nil when it is not.
    public private(set) var armedAt: Int64?
    private var ticking = false
    private var origin: Int64 = 0
    private var index: Int64 = 0
    /// Ticks run and ticks skipped because the tick came late.
    public private(set) var ticks: UInt64 = 0
    public private(set) var skipped: UInt64 = 0

    public init(rate: Int) {
        precondition(rate > 0, "a tick rate is positive")
        self.rate = rate
    }

    /// One period, µs.
    public var period: Int64 { 1_000_000 / Int64(rate) }

    private func deadline(_ index: Int64) -> Int64 { origin + index * 1_000_000 / Int64(rate) }

    /// After an input or a hello: the timer must fire soon enough for a session that `moving` or waits for
    /// `deadline`. - Returns: the time to arm the timer at, or nil when it is armed early enough.
    public mutating func arm(moving: Bool, deadline sessionDeadline: Int64?, now: Int64) -> Int64? {
        var due: Int64?
        if moving {
            if !ticking {
                ticking = true
                origin = now
                index = 1
            }
            due = deadline(index)
        }
        if let sessionDeadline { due = min(due ?? sessionDeadline, max(sessionDeadline, now)) }
        guard let due else { return nil }
        return arm(by: due)
    }

    /// The timer must fire by `deadline`. - Returns: the time to arm it at, or nil when it already fires by then.
    public mutating func arm(by deadline: Int64) -> Int64? {
        if let armedAt, armedAt <= deadline { return nil }
        armedAt = deadline
        return deadline
    }

    /// The timer fired (it is no longer armed).
    public mutating func fired() {
        armedAt = nil
        ticks &+= 1
    }

    /// After a tick at `now`: whether any session still moves, and the earliest deadline any waits for.
    /// - Returns: the time to arm the timer at next, or nil to leave it unarmed.
    public mutating func next(anyMoving: Bool, earliestDeadline: Int64?, now: Int64) -> Int64? {
        var next: Int64?
        if anyMoving {
            if !ticking {
                ticking = true
                origin = now
                index = 0
            }
            index += 1
            if deadline(index) <= now {
                // Late: skip the missed ticks.
                let caughtUp = (now - origin) * Int64(rate) / 1_000_000 + 1
                skipped &+= UInt64(max(0, caughtUp - index))
                index = caughtUp
            }
            next = deadline(index)
        } else {
            ticking = false
        }
        if let earliestDeadline { next = min(next ?? earliestDeadline, earliestDeadline) }
        if let next { armedAt = next }
        return next
    }

    /// Nothing is scheduled any more (a shutdown).
    public mutating func stop() {
        armedAt = nil
        ticking = false
    }
}
