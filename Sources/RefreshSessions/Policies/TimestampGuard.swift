/// Judges the page timestamps (`touch.t`, `wheel.t`) of one connection against each other and against the
/// server's clock. The engine runs on server receive time and uses page time only to estimate velocity, so
/// a bad `t` cannot move the session's clock; this guard makes a lying or broken page clock a clear error
/// instead of a silently ignored sample (PROTOCOL.md, "Clocks").
///
/// - Small reorderings are tolerated: a sample up to ``backwardsTolerance`` ms older than the newest one is
///   accepted (pointer and wheel events can carry slightly out-of-order timestamps).
/// - Going back further is `bad_field` ("touch.t went backwards by 5000 ms").
/// - Jumping ahead is judged against real time: a page that was in the background for an hour legitimately
///   sends `t` an hour later. Only a page clock that ran more than ``maximumLead`` ms ahead of the server's
///   clock since the newest accepted sample is refused ("touch.t jumped ahead by …").
///
/// A refused sample leaves the reference alone; a new `hello` starts over (``reset()``).
struct TimestampGuard: Sendable, Equatable {
    enum Verdict: Equatable, Sendable {
        case accept
        /// The sample is this many ms older than the newest accepted one.
        case backwards(milliseconds: Double)
        /// The page clock ran this many ms faster than the server's since the newest accepted sample.
        case ahead(milliseconds: Double)
    }

    var backwardsTolerance: Double = 1000
    var maximumLead: Double = 3_600_000

    /// The newest accepted page time and the server time (µs) it arrived at.
    private var newest: (page: Double, server: Int64)?

    init(backwardsTolerance: Double = 1000, maximumLead: Double = 3_600_000) {
        self.backwardsTolerance = backwardsTolerance
        self.maximumLead = maximumLead
    }

    static func == (a: TimestampGuard, b: TimestampGuard) -> Bool {
        a.backwardsTolerance == b.backwardsTolerance && a.maximumLead == b.maximumLead
            && a.newest?.page == b.newest?.page && a.newest?.server == b.newest?.server
    }

    /// Judges `pageTime` (ms, the page's `performance.now()`), received at `serverTime` (µs, the transport's clock).
    mutating func check(pageTime: Double, serverTime: Int64) -> Verdict {
        guard pageTime.isFinite else { return .backwards(milliseconds: .infinity) }
        guard let newest else {
            self.newest = (pageTime, serverTime)
            return .accept
        }
        let behind = newest.page - pageTime
        if behind > backwardsTolerance { return .backwards(milliseconds: behind) }
        let elapsed = Double(max(0, serverTime - newest.server)) / 1000
        let lead = (pageTime - newest.page) - elapsed
        if lead > maximumLead { return .ahead(milliseconds: lead) }
        if pageTime >= newest.page { self.newest = (pageTime, serverTime) }
        return .accept
    }

    mutating func reset() { newest = nil }

    /// The `bad_field` sentence for a refused `field` (`touch.t`), or nil when accepted.
    func message(for verdict: Verdict, field: String) -> String? {
        switch verdict {
        case .accept:
            return nil
        case .backwards(let milliseconds):
            return
                "\(field) went backwards by \(Self.format(milliseconds)) ms (at most \(Self.format(backwardsTolerance)) ms is tolerated)"
        case .ahead(let milliseconds):
            return
                "\(field) jumped ahead by \(Self.format(milliseconds)) ms more than the time that passed (at most \(Self.format(maximumLead)) ms)"
        }
    }

    private static func format(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        return String(Int64(value.rounded()))
    }
}
