/// What one client address may spend, per kind of request, shared by all its connections (docs/HARDENING.md,
/// "Budgets per address"): a token bucket per address and kind, refilled at its rate up to its burst.
///
/// A budget per connection is no budget: an address may open 64 connections. So each request of a kind is paid for
/// from the client's bucket (``ClientAddress/key``: the real client behind the trusted proxies), and a flood from one
/// address is refused (`429`, with the seconds until a token comes back) while every other address is served as
/// before. The machine itself is exempt unless the operator asks (`--limit-loopback`): the benchmark and the tests
/// speak from loopback.
///
/// Memory is bounded: a bucket that has refilled is the same as none, so the full ones are forgotten when the table
/// reaches ``maxAddresses``; if the table is still full then, the new address is refused rather than the table grown
/// (an attacker who controls that many addresses meets the connection limits too).
public struct AddressBudgets: Sendable {
    /// The kinds of request that are paid for.
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        /// Any HTTP request (a page's files, `/metrics`, an upgrade).
        case request
        /// `POST /feed/items`, or an app's own write route.
        case post
        /// `GET /qr.svg`.
        case qrCode
        /// `GET /feed/image`.
        case image
    }

    /// A refill rate and the most that can be saved up.
    public struct Rate: Sendable, Hashable {
        public var perSecond: Double
        public var burst: Double

        public init(perSecond: Double, burst: Double) {
            self.perSecond = perSecond
            self.burst = burst
        }
    }

    /// The default rates: a page's first load asks for about 140 files at once (its modules), a feed page for a few
    /// dozen images; a person posts now and then and opens the Share popover a few times.
    public static let defaultRates: [Kind: Rate] = [
        .request: Rate(perSecond: 100, burst: 400),
        .post: Rate(perSecond: 1, burst: 10),
        .qrCode: Rate(perSecond: 2, burst: 20),
        .image: Rate(perSecond: 50, burst: 200),
    ]

    /// The answer to a request.
    public enum Decision: Sendable, Equatable {
        case spend
        /// Over budget: try again after this many seconds (at least 1).
        case refuse(retryAfterSeconds: Int)
    }

    private struct Key: Hashable {
        var client: String
        var kind: Kind
    }

    public let rates: [Kind: Rate]
    public let limitLoopback: Bool
    public let maxAddresses: Int
    private var buckets: [Key: TokenBucket] = [:]

    public init(rates: [Kind: Rate] = defaultRates, limitLoopback: Bool = false, maxAddresses: Int = 65_536) {
        self.rates = rates
        self.limitLoopback = limitLoopback
        self.maxAddresses = maxAddresses
    }

    /// Buckets held now (for the metrics and the tests).
    public var count: Int { buckets.count }

    /// Pays for one request of `kind` by `client` at `nowMicros` (a monotonic clock).
    public mutating func spend(_ kind: Kind, by client: ClientAddress, at nowMicros: Int64) -> Decision {
        guard let rate = rates[kind], rate.perSecond > 0 else { return .spend }
        if !limitLoopback && client.isLoopback { return .spend }
        let key = Key(client: client.key, kind: kind)
        var bucket = buckets[key] ?? TokenBucket(perSecond: rate.perSecond, burst: rate.burst)
        guard bucket.take(at: nowMicros) else {
            buckets[key] = bucket
            return .refuse(retryAfterSeconds: bucket.secondsUntilToken)
        }
        if buckets[key] == nil, buckets.count >= maxAddresses {
            forgetFull(at: nowMicros)
            guard buckets.count < maxAddresses else { return .refuse(retryAfterSeconds: 1) }
        }
        buckets[key] = bucket
        return .spend
    }

    /// Drops the buckets that would be full by now: they hold nothing a new bucket would not.
    public mutating func forgetFull(at nowMicros: Int64) {
        buckets = buckets.filter { !$0.value.isFull(at: nowMicros) }
    }
}
