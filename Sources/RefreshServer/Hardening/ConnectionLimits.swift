/// How many WebSockets the server holds, in total and per peer address, and whether one more may come in.
///
/// Checked when a client asks to upgrade (before any session exists), counted from `ESTABLISHED` to
/// `CLOSED`. A refused upgrade gets `503 Service Unavailable` with `Retry-After`. Loopback peers are
/// exempt from the per-address limit unless ``limitLoopback`` is set: the machine itself (the benchmark, a
/// local reverse proxy) is not the LAN neighbour the limit is for; the total limit still applies.
struct ConnectionLimits: Sendable, Equatable {
    enum Decision: Equatable, Sendable {
        case admit
        /// The server holds ``ConnectionLimits/maxTotal`` connections.
        case refuseTotal
        /// This address holds ``ConnectionLimits/maxPerAddress`` connections.
        case refusePerAddress
    }

    let maxTotal: Int
    let maxPerAddress: Int
    let limitLoopback: Bool

    private(set) var total = 0
    private var perAddress: [String: Int] = [:]

    init(maxTotal: Int, maxPerAddress: Int, limitLoopback: Bool) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
        self.limitLoopback = limitLoopback
    }

    /// Connections currently held by `address`.
    func count(for address: String) -> Int { perAddress[Self.normalize(address)] ?? 0 }

    /// Whether a connection from `address` may be accepted now.
    func check(_ address: String) -> Decision {
        if total >= maxTotal { return .refuseTotal }
        let key = Self.normalize(address)
        if !limitLoopback && Self.isLoopback(key) { return .admit }
        if (perAddress[key] ?? 0) >= maxPerAddress { return .refusePerAddress }
        return .admit
    }

    mutating func opened(_ address: String) {
        total += 1
        perAddress[Self.normalize(address), default: 0] += 1
    }

    mutating func closed(_ address: String) {
        total = max(0, total - 1)
        let key = Self.normalize(address)
        guard let count = perAddress[key] else { return }
        perAddress[key] = count > 1 ? count - 1 : nil
    }

    /// One spelling per peer: an IPv4 peer of a dual-stack listener (`::ffff:10.0.0.5`) is `10.0.0.5`.
    static func normalize(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), lowered.dropFirst(7).contains(".") { return String(lowered.dropFirst(7)) }
        return lowered
    }

    static func isLoopback(_ address: String) -> Bool {
        let key = normalize(address)
        return key.hasPrefix("127.") || key == "::1" || key == "localhost"
    }
}
