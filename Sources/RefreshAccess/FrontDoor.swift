/// Who may reach what, as one value every transport asks: the libwebsockets server's gate and the Hummingbird
/// adapter alike (docs/HARDENING.md, "Who reaches what"). Deny by default: a route that needs a right asks here, and
/// a new transport gets the same answers by holding the same value.
///
/// - ``client(peer:forwardingHeader:)``: the real client behind the trusted proxies, which every per-address
///   rule reads;
/// - ``admitsWebSocket(origin:)``: a browser's WebSocket only from the server's own pages (cross-site WebSocket
///   hijacking);
/// - ``admitsWrite(_:from:)``: a write from an allowed address, as JSON, never from another site;
/// - ``admitsMetrics(from:)``: the vital signs to loopback and the named scrapers only.
public struct FrontDoor: Sendable, Equatable {
    public var origins: OriginPolicy
    public var proxies: TrustedProxies
    /// Who may read `/metrics`: loopback and `--metrics-allow`.
    public var metricsAllow: AddressAllowList
    /// Who may write (`POST /feed/items`, an app's own route): loopback and `--feed-post-allow`.
    public var writeAllow: AddressAllowList

    public init(
        origins: OriginPolicy, proxies: TrustedProxies = TrustedProxies(),
        metricsAllow: AddressAllowList = AddressAllowList(), writeAllow: AddressAllowList = AddressAllowList()
    ) {
        self.origins = origins
        self.proxies = proxies
        self.metricsAllow = metricsAllow
        self.writeAllow = writeAllow
    }

    /// The door of a server bound to `host` on `port`: its own origins are this machine's names on that port, with
    /// `scheme` (`https` when the server serves TLS).
    public static func local(
        boundTo host: String, port: Int, scheme: String = "http", publicPorts: [Int] = [],
        allowedOrigins: [String] = [],
        proxies: TrustedProxies = TrustedProxies(), metricsAllow: AddressAllowList = AddressAllowList(),
        writeAllow: AddressAllowList = AddressAllowList()
    ) -> FrontDoor {
        FrontDoor(
            origins: OriginPolicy(
                ownHosts: OriginPolicy.localHosts(bound: host), port: port, publicPorts: publicPorts,
                allowedOrigins: allowedOrigins, scheme: scheme),
            proxies: proxies, metricsAllow: metricsAllow, writeAllow: writeAllow)
    }

    /// The header a transport reads for ``client(peer:forwardingHeader:)``, lowercase: only the trusted proxies'
    /// one (nil when no proxy is trusted: nothing to read).
    public var forwardingHeaderName: String? { proxies.isEmpty ? nil : proxies.header.rawValue }

    /// Who sent a request that came from the socket's `peer`, with `forwardingHeader` the value of
    /// ``forwardingHeaderName`` (nil when absent).
    public func client(peer: String, forwardingHeader: String?) -> ClientAddress {
        proxies.client(peer: peer, headerValue: forwardingHeader)
    }

    /// A WebSocket handshake's `Origin` (nil: none, not a browser).
    public func admitsWebSocket(origin: String?) -> OriginPolicy.Decision {
        origins.decide(origin: origin)
    }

    /// A write request: its client first (403), then where the page came from and what it sends
    /// (``CrossSiteWrites``).
    public func admitsWrite(_ request: CrossSiteWrites.Request, from client: ClientAddress) -> CrossSiteWrites.Decision
    {
        guard writeAllow.allows(client) else {
            return .refuse(
                status: 403, code: "forbidden",
                message:
                    "writes are taken from loopback and the addresses of --feed-post-allow only (this client: \(client))"
            )
        }
        return CrossSiteWrites(origins: origins).decide(request)
    }

    public func admitsMetrics(from client: ClientAddress) -> Bool {
        metricsAllow.allows(client)
    }
}
