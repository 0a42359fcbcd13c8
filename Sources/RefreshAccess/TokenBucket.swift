/// A token bucket: tokens come back at `perSecond` up to `burst`, and each thing paid for takes one. The one
/// refill rule of the budgets per address (``AddressBudgets``, the session host's `AddressRates`); time is passed in
/// (µs, a monotonic clock), so tests drive it by hand.
public struct TokenBucket: Sendable, Hashable {
    public let perSecond: Double
    public let burst: Double
    public private(set) var tokens: Double
    private var updatedMicros: Int64?

    /// A full bucket.
    public init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
        tokens = burst
    }

    /// Refills for the time since the last call, then takes a token if there is one. - Returns: whether it took one.
    public mutating func take(at nowMicros: Int64) -> Bool {
        refill(at: nowMicros)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Seconds until a token is back (at least 1), for a `Retry-After`.
    public var secondsUntilToken: Int {
        max(1, Int(((1 - tokens) / perSecond).rounded(.up)))
    }

    /// Whether it would be full by `nowMicros` (then it holds nothing a new bucket would not).
    public func isFull(at nowMicros: Int64) -> Bool {
        var copy = self
        copy.refill(at: nowMicros)
        return copy.tokens >= burst
    }

    private mutating func refill(at nowMicros: Int64) {
        if let updatedMicros, nowMicros > updatedMicros {
            tokens = min(burst, tokens + Double(nowMicros - updatedMicros) * perSecond / 1_000_000)
        }
        updatedMicros = max(updatedMicros ?? nowMicros, nowMicros)
    }
}
