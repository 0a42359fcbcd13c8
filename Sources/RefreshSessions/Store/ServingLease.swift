/// When this process may send a session's frames (docs/SCALING.md, "Fencing", "Serving only under a lease"):
/// the rule that makes two processes never serve one session at once, as a value the host drives with times
/// and the store's answers.
///
/// - **The process's lease.** Every batch stamps, in the store and by the store's clock, the moment the process
///   last renewed (`rk:renewed:INCARNATION`, with the batch's fencing notices, in one script). A batch handed
///   over at `sent` and answered "written" proves that, at a moment after `sent`, no other process had claimed
///   any session this process still holds (a claim leaves a notice that same answer carries, and the host lets
///   those sessions go in the same event). So the process may send frames until `sent + duration` by its own
///   monotonic clock (``validUntil``), and not after, whatever happens to it: a process frozen (SIGSTOP) past
///   that moment finds the lease lapsed when it thaws and sends nothing until a new batch is answered, which
///   also tells it what it lost meanwhile.
/// - **A take-over waits for the previous holder's lease.** The first write of a take-over claims the next
///   epoch (``SessionFence``), and the store's script answers how long the previous holder's lease still runs
///   by the store's clock (its last stamp + ``duration`` − now; nothing when it lapsed or was ended). The new
///   holder sends none of the session's frames until its claim is answered and that long (plus ``margin``) has
///   passed since the answer: by then the previous holder's own bound, which started before its stamp, is
///   over.
///
/// The cost: a session taken over from a process killed with SIGKILL waits out what is left of that process's
/// lease (at most ``duration``, less the time from its last renewal to the claim), and a process that cannot
/// reach the store for longer than ``duration`` stops drawing its sessions until it can.
public struct ServingLease: Sendable, Equatable {
    /// How long a renewal lets the process serve (µs), from the moment its batch was handed over: four
    /// ``renewal``s, so that a late sweep or a slow answer does not let it lapse while the store answers.
    public static let duration: Int64 = 400_000
    /// How often the host renews it (µs): with every batch, and at least once a write period
    /// (`StoreLedger.period`).
    public static let renewal: Int64 = 100_000
    /// Added to a take-over's wait (µs): frames the previous holder wrote to its socket just before its lease
    /// ended may still be on their way through the balancer.
    public static let margin: Int64 = 30_000

    /// Whether a session taken over may be served yet.
    public enum Wait: Sendable, Equatable {
        /// Its claim (the take-over's first write) is not answered yet.
        case claim
        /// Its claim went with batch `batch`, not answered yet.
        case claimSent(batch: UInt64)
        /// Claimed: its frames wait until then (µs), the previous holder's lease then over.
        case until(Int64)
    }

    /// The process may send frames until then (µs, its monotonic clock); `Int64.min`: never renewed, or ended.
    public private(set) var validUntil: Int64 = .min
    /// The batch waiting for its answer, and when it was handed over.
    public private(set) var inFlight: (batch: UInt64, sent: Int64)?
    /// When the last batch was handed over (µs).
    public private(set) var lastSent: Int64 = .min
    /// The sessions taken over whose frames wait.
    public private(set) var waits: [String: Wait] = [:]
    /// The notices the last answer read carried, cleared in the store by the next batch
    /// (``StoreBatch/noticesSeen``).
    public private(set) var noticesSeen: [StoreFence] = []
    /// The lease was ended: no answer renews it.
    public private(set) var ended = false

    public init() {}

    public static func == (lhs: ServingLease, rhs: ServingLease) -> Bool {
        lhs.validUntil == rhs.validUntil && lhs.inFlight?.batch == rhs.inFlight?.batch
            && lhs.inFlight?.sent == rhs.inFlight?.sent && lhs.lastSent == rhs.lastSent && lhs.waits == rhs.waits
            && lhs.noticesSeen == rhs.noticesSeen
            && lhs.ended == rhs.ended
    }

    /// Whether the frames of session `id` may be sent at `now`.
    public func allows(_ id: String, at now: Int64) -> Bool {
        guard now < validUntil else { return false }
        switch waits[id] {
        case nil: return true
        case .claim, .claimSent: return false
        case .until(let time): return now >= time
        }
    }

    /// Session `id` was taken over: its frames wait for its claim.
    public mutating func tookOver(_ id: String) { waits[id] = .claim }

    /// Session `id` is no longer held here (let go, or gone).
    public mutating func forget(_ id: String) { waits[id] = nil }

    /// Batch `batch`, carrying writes of `written`, was handed to the store at `now`.
    public mutating func sent(batch: UInt64, writing written: some Sequence<String>, at now: Int64) {
        inFlight = (batch, now)
        lastSent = now
        for id in written where waits[id] == .claim { waits[id] = .claimSent(batch: batch) }
    }

    /// What an answer changed for the frames waiting.
    public enum Answered: Equatable {
        /// Not the batch in flight: nothing changed.
        case ignored
        /// The lease was renewed (`wasLapsed`: it had lapsed, so frames held meanwhile may go now).
        case renewed(wasLapsed: Bool)
        /// The batch failed: no renewal; the claims it carried are made again.
        case failed
    }

    /// The store's answer to batch `batch`, at `now`: `written` (else failed), the notices it carried, and for
    /// each session whose claim it applied over another process's copy, how long that process's lease still
    /// ran (µs).
    public mutating func answered(
        batch: UInt64, written: Bool, notices: [StoreFence] = [], claims: [String: Int64] = [:], at now: Int64
    ) -> Answered {
        guard let flight = inFlight, flight.batch == batch else { return .ignored }
        inFlight = nil
        if written { noticesSeen = notices }
        for (id, wait) in waits where wait == .claimSent(batch: batch) {
            // No wait named: the previous holder's lease had lapsed or was ended (or there was none).
            waits[id] = written ? .until(claims[id].map { now + max(0, $0) + Self.margin } ?? now) : .claim
        }
        guard written, !ended else { return .failed }
        let wasLapsed = now >= validUntil
        validUntil = max(validUntil, flight.sent + Self.duration)
        return .renewed(wasLapsed: wasLapsed)
    }

    /// Whether a renewal is due at `now` (a batch with the lease, even with nothing to write).
    public func renewalDue(at now: Int64) -> Bool { lastSent == .min || now - lastSent >= Self.renewal }

    /// When the earliest wait still running ends (µs), if any.
    public var nextWaitEnd: Int64? {
        waits.values.compactMap { if case .until(let time) = $0 { time } else { nil } }.min()
    }

    /// The sessions whose wait ended by `now` (their frames may go): they wait no more.
    public mutating func waitsOver(at now: Int64) -> [String] {
        var over: [String] = []
        for (id, wait) in waits {
            if case .until(let time) = wait, now >= time { over.append(id) }
        }
        for id in over { waits[id] = nil }
        return over
    }

    /// The process ends its lease (shutting down): it serves nothing more.
    public mutating func end() {
        validUntil = .min
        ended = true
    }
}
