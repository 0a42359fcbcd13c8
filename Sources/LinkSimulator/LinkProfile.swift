/// What one direction of a simulated link does to the bytes crossing it. Both directions use the same
/// profile (each with its own random stream); stalls hold both at once. Sources for every named profile
/// are in docs/LINK.md.
public struct LinkProfile: Sendable, Equatable {
    /// The profile's name (`custom` once a flag changed a value).
    public var name: String
    /// The least one-way delay, ms: no byte crosses sooner.
    public var delayMs: Double
    /// Extra one-way delay, drawn uniformly from [0, jitterMs] per chunk (never reorders: docs/LINK.md).
    public var jitterMs: Double
    /// Probability that a chunk starts a loss burst.
    public var lossProbability: Double
    /// Probability that a burst goes on to lose the retransmission too (mean burst length 1 / (1 − this)).
    public var lossBurstContinuation: Double
    /// The retransmission timeout a loss costs, ms (Linux: at least TCP_RTO_MIN, 200 ms; docs/LINK.md).
    public var retransmissionTimeoutMs: Double
    /// The link's rate, bits per second (nil: unlimited): a chunk takes `bytes × 8 / rate` on the wire.
    public var bitsPerSecond: Double?
    /// Periodic stalls of the whole link.
    public var stalls: StallSchedule

    public init(
        name: String, delayMs: Double, jitterMs: Double = 0, lossProbability: Double = 0,
        lossBurstContinuation: Double = 0, retransmissionTimeoutMs: Double? = nil, bitsPerSecond: Double? = nil,
        stalls: StallSchedule = StallSchedule(periodMs: 0, durationMs: 0)
    ) {
        self.name = name
        self.delayMs = delayMs
        self.jitterMs = jitterMs
        self.lossProbability = lossProbability
        self.lossBurstContinuation = lossBurstContinuation
        self.retransmissionTimeoutMs = retransmissionTimeoutMs ?? Self.linuxRetransmissionTimeout(delayMs: delayMs)
        self.bitsPerSecond = bitsPerSecond
        self.stalls = stalls
    }

    /// Linux's RTO after a few quiet round trips: the smoothed round trip plus the variance term, which is
    /// floored at TCP_RTO_MIN (200 ms) — so about RTT + 200 ms (docs/LINK.md, "Loss").
    public static func linuxRetransmissionTimeout(delayMs: Double) -> Double { 2 * delayMs + 200 }

    /// 802.11's beacon interval: 100 time units of 1 024 µs (docs/LINK.md, "wifi-powersave").
    public static let beaconIntervalMs = 102.4

    /// Loopback as it is: nothing added.
    public static let loopback = LinkProfile(name: "loopback", delayMs: 0)
    /// A quiet wired or good Wi-Fi LAN.
    public static let lan = LinkProfile(name: "lan", delayMs: 1, jitterMs: 1)
    /// A phone on a home or office Wi-Fi: 30 ms round trip, link-layer retries as jitter.
    public static let wifi = LinkProfile(name: "wifi", delayMs: 15, jitterMs: 5)
    /// A phone on Wi-Fi in power save: a short round trip, and every 2 s all traffic waits for the second
    /// beacon (DTIM period 2: 204.8 ms).
    public static let wifiPowersave = LinkProfile(
        name: "wifi-powersave", delayMs: 5, jitterMs: 2,
        stalls: StallSchedule(periodMs: 2000, durationMs: 2 * beaconIntervalMs))
    /// A crowded network: long and variable delay, bursts of loss, 2 Mbit/s.
    public static let congested = LinkProfile(
        name: "congested", delayMs: 40, jitterMs: 20, lossProbability: 0.01, lossBurstContinuation: 0.3,
        bitsPerSecond: 2_000_000)

    /// Every named profile, in the order the help lists them.
    public static let all: [LinkProfile] = [loopback, lan, wifi, wifiPowersave, congested]

    /// The named profile, or nil.
    public static func named(_ name: String) -> LinkProfile? { all.first { $0.name == name } }

    /// One line for logs and the banner: `15 ms + 0–5 ms one way, …`.
    public var summary: String {
        var parts = [
            "\(Self.format(delayMs)) ms" + (jitterMs > 0 ? " + 0–\(Self.format(jitterMs)) ms" : "") + " one way"
        ]
        if lossProbability > 0 {
            let mean = 1 / (1 - lossBurstContinuation)
            parts.append(
                "loss \(Self.format(lossProbability * 100))% in bursts of \(Self.format(mean)) "
                    + "(RTO \(Self.format(retransmissionTimeoutMs)) ms)")
        }
        if let bitsPerSecond { parts.append("\(Self.format(bitsPerSecond / 1000)) kbit/s") }
        if stalls.isActive {
            parts.append("stall \(Self.format(stalls.durationMs)) ms every \(Self.format(stalls.periodMs)) ms")
        }
        return parts.joined(separator: ", ")
    }

    /// The first value that makes no sense, as a message (nil: the profile is valid).
    public var problem: String? {
        func bad(_ value: Double) -> Bool { !value.isFinite || value < 0 }
        if bad(delayMs) { return "delay must be a finite number of ms ≥ 0" }
        if bad(jitterMs) { return "jitter must be a finite number of ms ≥ 0" }
        if bad(retransmissionTimeoutMs) { return "rto must be a finite number of ms ≥ 0" }
        if !(0...1).contains(lossProbability) { return "loss must be a probability in [0, 1]" }
        if !(0..<1).contains(lossBurstContinuation) { return "loss burst continuation must be in [0, 1)" }
        if let bitsPerSecond, !(bitsPerSecond.isFinite && bitsPerSecond > 0) { return "bandwidth must be > 0" }
        if bad(stalls.periodMs) || bad(stalls.durationMs) { return "stall period and duration must be ms ≥ 0" }
        if stalls.isActive && stalls.durationMs >= stalls.periodMs {
            return "a stall must be shorter than its period"
        }
        return nil
    }

    /// At most two decimals, none for whole numbers.
    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
    }
}
