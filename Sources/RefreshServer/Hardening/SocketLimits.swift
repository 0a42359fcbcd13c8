import RefreshAccess

/// How many TCP connections one address holds, whatever they become (a page's files, a post, a WebSocket, or
/// nothing: a socket that never sends a byte), and whether one more may be accepted (docs/HARDENING.md,
/// "Descriptors").
///
/// Judged as lws accepts a connection (`LWS_CALLBACK_FILTER_NETWORK_CONNECTION`), before it reads a byte: a refused
/// socket is closed at once and costs a descriptor for that moment only. So one host's silent sockets cannot take
/// the descriptors every other client needs. The address is the socket's peer (no header has come yet); loopback
/// (unless ``limitLoopback``) and the trusted proxies are exempt: the machine itself and the proxies in front carry
/// many clients, which the WebSocket limit (``ConnectionLimits``) counts one by one.
struct SocketLimits: Sendable, Equatable {
    let maxPerAddress: Int
    let limitLoopback: Bool
    let proxies: TrustedProxies
    private var perAddress: [String: Int] = [:]

    init(maxPerAddress: Int, limitLoopback: Bool, proxies: TrustedProxies) {
        self.maxPerAddress = maxPerAddress
        self.limitLoopback = limitLoopback
        self.proxies = proxies
    }

    /// The key a socket from `peer` is counted under, or nil when it is exempt (not counted, never refused).
    func key(for peer: IPAddress?) -> String? {
        guard let peer else { return nil }
        if !limitLoopback && peer.isLoopback { return nil }
        if proxies.trusts(peer) { return nil }
        return peer.description
    }

    /// Sockets `key` holds now.
    func count(_ key: String) -> Int { perAddress[key] ?? 0 }

    /// Whether one more socket of `key` may be accepted.
    func admits(_ key: String) -> Bool { count(key) < maxPerAddress }

    mutating func opened(_ key: String) {
        perAddress[key, default: 0] += 1
    }

    mutating func closed(_ key: String) {
        guard let count = perAddress[key] else { return }
        perAddress[key] = count > 1 ? count - 1 : nil
    }
}
