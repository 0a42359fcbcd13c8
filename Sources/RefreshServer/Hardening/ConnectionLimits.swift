import RefreshAccess

/// How many WebSockets the server holds, in total and per client address, and whether one more may come in.
///
/// Checked when a client asks to upgrade (before any session exists), counted from `ESTABLISHED` to
/// `CLOSED`. A refused upgrade gets `503 Service Unavailable` with `Retry-After`. The address is the real client's
/// (``ClientAddress``: behind a trusted proxy, the one it names), so the clients behind a proxy are counted one by
/// one and none of them inherits the proxy's loopback. A client on loopback itself is exempt from the per-address
/// limit unless ``limitLoopback`` is set: the machine itself (the benchmark) is not the LAN neighbour the limit is
/// for; the total limit still applies.
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

    /// Connections currently held by `client`.
    func count(for client: ClientAddress) -> Int { perAddress[client.key] ?? 0 }

    /// Whether a connection from `client` may be accepted now.
    func check(_ client: ClientAddress) -> Decision {
        if total >= maxTotal { return .refuseTotal }
        if !limitLoopback && client.isLoopback { return .admit }
        if (perAddress[client.key] ?? 0) >= maxPerAddress { return .refusePerAddress }
        return .admit
    }

    mutating func opened(_ client: ClientAddress) {
        total += 1
        perAddress[client.key, default: 0] += 1
    }

    /// `key`: the ``ClientAddress/key`` the connection was opened with.
    mutating func closed(key: String) {
        total = max(0, total - 1)
        guard let count = perAddress[key] else { return }
        perAddress[key] = count > 1 ? count - 1 : nil
    }
}
