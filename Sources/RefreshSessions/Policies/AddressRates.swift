import RefreshAccess

/// The message budget one client address shares across all its connections (docs/HARDENING.md, "Budgets per
/// address"): a token bucket per address, beside each connection's own (``RateLimiter``).
///
/// A budget per connection alone is no budget: an address may hold 64 connections, 300 messages a second each. So
/// every message of a connection is paid for from its address's bucket too, and a flood from one address is refused
/// as a flood (`rate_limited`, then 1008) while every other address goes on at its own pace. The address is the
/// connection's peer as the transport gives it: the real client behind the trusted proxies (``ClientAddress/key``).
/// Loopback is exempt unless the operator asks (the benchmark opens 2 000 sessions from 127.0.0.1).
struct AddressRates {
    /// The bucket of one address, shared by its connections (each holds it), freed with the last of them.
    final class Bucket {
        private var tokens: TokenBucket
        fileprivate var connections = 0

        fileprivate init(ratePerSecond: Double, burst: Double) {
            tokens = TokenBucket(perSecond: ratePerSecond, burst: burst)
        }

        /// One message at `now` (µs): whether the address may send it.
        func admit(at now: Int64) -> Bool { tokens.take(at: now) }
    }

    let ratePerSecond: Int
    let limitLoopback: Bool
    private var buckets: [String: Bucket] = [:]

    init(ratePerSecond: Int, limitLoopback: Bool) {
        self.ratePerSecond = ratePerSecond
        self.limitLoopback = limitLoopback
    }

    /// Addresses with a bucket now.
    var count: Int { buckets.count }

    /// A connection from `peer` opened: its address's bucket, nil when the address is exempt (loopback) or there is
    /// no budget (a rate of 0).
    mutating func join(_ peer: String) -> Bucket? {
        guard ratePerSecond > 0 else { return nil }
        if !limitLoopback, IPAddress(peer)?.isLoopback == true { return nil }
        let bucket =
            buckets[peer] ?? Bucket(ratePerSecond: Double(ratePerSecond), burst: Double(ratePerSecond) * 2)
        bucket.connections += 1
        buckets[peer] = bucket
        return bucket
    }

    /// A connection from `peer` that joined closed.
    mutating func leave(_ peer: String) {
        guard let bucket = buckets[peer] else { return }
        bucket.connections -= 1
        if bucket.connections <= 0 { buckets[peer] = nil }
    }
}
