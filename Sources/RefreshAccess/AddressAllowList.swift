/// Which client addresses may use a privileged route (`/metrics`, `POST /feed/items`): loopback (127.0.0.0/8,
/// ::1, and IPv4 loopback mapped into IPv6), plus the addresses and networks given on the command line
/// (`--metrics-allow 10.0.0.5`, `--feed-post-allow 10.0.0.0/8`).
///
/// It judges a ``ClientAddress``: the real client, as the trusted proxies tell it (``TrustedProxies``). A client
/// that came through a proxy which did not say who it is has no address and is allowed nothing; a proxy on this
/// machine never lends its loopback to the clients behind it (docs/HARDENING.md, "Who reaches what").
public struct AddressAllowList: Sendable, Hashable {
    public private(set) var networks: [IPNetwork]

    static let loopback = [IPNetwork("127.0.0.0/8")!, IPNetwork("::1")!]

    /// Loopback only.
    public init() {
        networks = Self.loopback
    }

    private init(networks: [IPNetwork]) {
        self.networks = networks
    }

    /// Loopback and `entries` (each an IPv4 or IPv6 address, optionally with `/prefix`), or the first entry that
    /// cannot be read.
    public static func parse(_ entries: [String]) -> Result<AddressAllowList, InvalidEntry> {
        var networks = loopback
        for entry in entries {
            guard let network = IPNetwork(entry) else { return .failure(InvalidEntry(entry: entry)) }
            networks.append(network)
        }
        return .success(AddressAllowList(networks: networks))
    }

    /// An entry that is not an address or a network.
    public struct InvalidEntry: Error, Sendable, Equatable {
        public var entry: String
    }

    /// Whether `client` may use the route.
    public func allows(_ client: ClientAddress) -> Bool {
        guard let address = client.address else { return false }
        return networks.contains { $0.contains(address) }
    }

    /// Whether the directly connected peer `address` (as a transport prints it: `127.0.0.1`, `::1`,
    /// `::ffff:10.0.0.2`) may use the route.
    public func allows(_ address: String) -> Bool {
        allows(ClientAddress(peer: address))
    }
}
