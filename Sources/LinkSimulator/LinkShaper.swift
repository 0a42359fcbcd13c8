/// When each chunk read from one side of a connection may be written to the other: the whole behaviour
/// of one direction of the simulated link, as a pure value (no sockets, no clock).
///
/// A chunk that arrives at `a` carrying `n` bytes is released at
///
///     max(previous release, wire free + delay + jitter + loss hold)  moved past any stall window
///
/// where `wire free` is when its last byte has left a link of the profile's rate, jitter is uniform in
/// [0, jitterMs], and a loss hold is one retransmission timeout per lost transmission. Taking the
/// maximum with the previous release keeps TCP's order: jitter delays, it never reorders, and a loss
/// holds everything behind it (head-of-line blocking). docs/LINK.md explains each term.
public struct LinkShaper: Sendable, Equatable {
    /// What happened to one chunk.
    public struct Release: Sendable, Equatable {
        /// When the chunk may be written, ms in the link's clock.
        public var at: Double
        /// Retransmission time this chunk itself cost (0: not lost).
        public var lossHoldMs: Double
        /// Whether a stall window moved it.
        public var stalled: Bool
    }

    public let profile: LinkProfile
    private var random: LinkRandom
    private var lastRelease = -Double.infinity
    private var wireFree = -Double.infinity

    /// `seed` fixes the jitter and losses; give each direction its own (see ``seeds(for:)``).
    public init(profile: LinkProfile, seed: UInt64) {
        self.profile = profile
        random = LinkRandom(seed: seed)
    }

    /// Two different seeds, for the two directions of a connection, from one `--seed` and the
    /// connection's number.
    public static func seeds(for seed: UInt64, connection: UInt64) -> (toUpstream: UInt64, toClient: UInt64) {
        var mixer = LinkRandom(seed: seed ^ (connection &* 0xD1B5_4A32_D192_ED03))
        return (mixer.next(), mixer.next())
    }

    /// Decides when a chunk of `bytes` that arrived at `arrival` (ms) is released. An end of stream (the
    /// peer's FIN) is a chunk of 0 bytes.
    public mutating func release(arrival: Double, bytes: Int) -> Release {
        var sent = arrival
        if let rate = profile.bitsPerSecond {
            sent = max(arrival, wireFree) + Double(bytes) * 8 / rate * 1000
            wireFree = sent
        }
        let jitter = profile.jitterMs > 0 ? random.unit() * profile.jitterMs : 0
        let hold = lossHold()
        let due = max(lastRelease, sent + profile.delayMs + jitter + hold)
        let open = profile.stalls.earliestOpen(atOrAfter: due)
        lastRelease = open
        return Release(at: open, lossHoldMs: hold, stalled: open > due)
    }

    /// 0 for a chunk that gets through; for a lost one, each lost transmission costs the RTO, doubled
    /// after every loss of the same segment (RFC 6298 §5.5): rto · (2^k − 1) for a burst of k.
    private mutating func lossHold() -> Double {
        guard profile.lossProbability > 0, random.unit() < profile.lossProbability else { return 0 }
        var hold = 0.0
        var timeout = profile.retransmissionTimeoutMs
        repeat {
            hold += timeout
            timeout *= 2
        } while hold < 60_000 && random.unit() < profile.lossBurstContinuation
        return hold
    }
}
