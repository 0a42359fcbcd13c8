/// Who is on the other end of a request: the peer that connected, or, when that peer is a trusted proxy, the
/// client it says it forwards (``TrustedProxies/client(peer:headers:)``).
///
/// Every per-address rule reads this value, never the socket's peer: behind `refreshkit link` or HAProxy every
/// socket comes from the proxy, and its address (often loopback) is not the client's.
public struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    /// The client's address; nil when a trusted proxy forwarded the request without saying whose it is (no
    /// header, `unknown`, an obfuscated name). Such a client is allowed nothing that needs an address.
    public let address: IPAddress?
    /// The trusted proxy the request came through, nil for a direct connection.
    public let proxy: IPAddress?
    /// The peer's text when it is not an address at all (a Unix socket, lws's `?`).
    private let unreadable: String?

    /// A direct connection from `peer`, as a transport prints it (`127.0.0.1`, `::ffff:10.0.0.2`).
    public init(peer: String) {
        address = IPAddress(peer)
        proxy = nil
        unreadable = address == nil ? peer : nil
    }

    /// A client forwarded by the trusted proxy `proxy`; `address` nil when it was not named.
    public init(forwarded address: IPAddress?, by proxy: IPAddress) {
        self.address = address
        self.proxy = proxy
        unreadable = nil
    }

    /// One key per client for the per-address budgets: its address; the clients a proxy did not name share one
    /// key per proxy (`unnamed@127.0.0.1`), so they are limited together rather than not at all.
    public var key: String {
        if let address { return address.description }
        if let proxy { return "unnamed@\(proxy)" }
        return unreadable ?? "?"
    }

    /// The address of a direct connection from this machine. A client behind a proxy on this machine is not.
    public var isLoopback: Bool { address?.isLoopback ?? false }

    /// `10.0.0.9`, or `10.0.0.9 via 127.0.0.1` for a forwarded one: what the log shows.
    public var description: String {
        guard let proxy else { return key }
        return "\(address.map(\.description) ?? "unnamed") via \(proxy)"
    }
}
