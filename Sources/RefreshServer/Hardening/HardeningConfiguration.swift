import RefreshAccess
import RefreshSessions

/// The defences against hostile clients that can be tuned (docs/HARDENING.md): connection limits, the
/// WebSocket Origin policy, and the test-only echo protocol. The per-connection message rate is the session
/// host's rule, so it is set in its configuration (``ServerConfiguration/sessions``).
public struct HardeningConfiguration: Sendable, Hashable {
    /// WebSockets held at once; one more gets `503` with `Retry-After`. The default fits the loopback
    /// benchmark (2 000 dragging sessions, 5 000 idle connections).
    public var maxConnections: Int
    /// WebSockets one peer address may hold at once (loopback exempt unless ``limitLoopback``).
    public var maxConnectionsPerAddress: Int
    /// TCP connections one address may hold at once, whatever they carry (a socket that never sends a byte
    /// included): more are closed as they are accepted (docs/HARDENING.md, "Descriptors"). Loopback (unless
    /// ``limitLoopback``) and the trusted proxies are exempt. Above ``maxConnectionsPerAddress``: a page's
    /// WebSockets are TCP connections too.
    public var maxSocketsPerAddress: Int
    /// Applies ``maxConnectionsPerAddress`` and ``maxSocketsPerAddress`` to loopback peers too.
    public var limitLoopback: Bool
    /// Origins allowed besides the server's own (`https://example.org`, `http://10.0.0.2:3000`).
    public var allowedOrigins: [String]
    /// Ports on which a proxy on this machine (`refreshkit link`) serves the page: this machine's own
    /// names on these ports are own origins too.
    public var publicPorts: [Int]
    /// The proxy on ``publicPorts`` terminates TLS (`--public-tls`: HAProxy of `make cluster TLS=1`): pages come from
    /// `https://` origins on those ports, and share links say `https://` (docs/HTTPS.md, "Behind a balancer").
    public var publicTLS: Bool
    /// Also serve `autobahn-echo`, an echo subprotocol made the default for clients that ask for none
    /// (`refreshkit serve --echo-protocol`, for the Autobahn conformance run only).
    public var echoProtocol: Bool
    /// Addresses and networks (`10.0.0.5`, `10.0.0.0/8`) that may read `/metrics` besides loopback.
    public var metricsAllow: [String]
    /// The proxies in front of the server (`--trusted-proxy`: `127.0.0.1`, `10.0.0.0/8`): only from these peers
    /// is the client's address read from ``clientAddressHeader``; every other peer is the client itself
    /// (docs/HARDENING.md, "Proxies").
    public var trustedProxies: [String]
    /// The header the trusted proxies name the client in (`--client-address-header`).
    public var clientAddressHeader: TrustedProxies.Header

    public init(
        maxConnections: Int = 10_000,
        maxConnectionsPerAddress: Int = 64,
        maxSocketsPerAddress: Int = 96,
        limitLoopback: Bool = false,
        allowedOrigins: [String] = [],
        publicPorts: [Int] = [],
        publicTLS: Bool = false,
        echoProtocol: Bool = false,
        metricsAllow: [String] = [],
        trustedProxies: [String] = [],
        clientAddressHeader: TrustedProxies.Header = .xForwardedFor
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.maxSocketsPerAddress = maxSocketsPerAddress
        self.limitLoopback = limitLoopback
        self.allowedOrigins = allowedOrigins
        self.publicPorts = publicPorts
        self.publicTLS = publicTLS
        self.echoProtocol = echoProtocol
        self.metricsAllow = metricsAllow
        self.trustedProxies = trustedProxies
        self.clientAddressHeader = clientAddressHeader
    }

    /// The trusted proxies, read (``validate()`` refuses entries that cannot be).
    public var proxies: TrustedProxies {
        (try? TrustedProxies.parse(trustedProxies, header: clientAddressHeader).get()) ?? TrustedProxies()
    }

    public func validate() throws(ServerError) {
        guard (1...1_000_000).contains(maxConnections) else {
            throw .invalidConfiguration("max connections must be between 1 and 1000000 (got \(maxConnections))")
        }
        guard (1...1_000_000).contains(maxConnectionsPerAddress) else {
            throw .invalidConfiguration(
                "max connections per address must be between 1 and 1000000 (got \(maxConnectionsPerAddress))")
        }
        guard (maxConnectionsPerAddress...1_000_000).contains(maxSocketsPerAddress) else {
            throw .invalidConfiguration(
                "max sockets per address must be between max connections per address (\(maxConnectionsPerAddress)) "
                    + "and 1000000 (got \(maxSocketsPerAddress))")
        }
        if case .failure(let bad) = AddressAllowList.parse(metricsAllow) {
            throw .invalidConfiguration(
                "--metrics-allow needs an IPv4 or IPv6 address or network (10.0.0.5, 10.0.0.0/8), got '\(bad.entry)'")
        }
        if case .failure(let bad) = TrustedProxies.parse(trustedProxies) {
            throw .invalidConfiguration(
                "--trusted-proxy needs an IPv4 or IPv6 address or network (127.0.0.1, 10.0.0.0/8), got '\(bad.entry)'")
        }
        if let port = publicPorts.first(where: { !(1...65535).contains($0) }) {
            throw .invalidConfiguration("--public-port must be between 1 and 65535 (got \(port))")
        }
        if publicTLS && publicPorts.isEmpty {
            throw .invalidConfiguration("--public-tls needs --public-port: the port of the proxy that terminates TLS")
        }
        let invalid = OriginPolicy.invalidOrigins(allowedOrigins)
        guard invalid.isEmpty else {
            throw .invalidConfiguration(
                "--allow-origin needs scheme://host[:port] (e.g. https://example.org), got '\(invalid[0])'")
        }
    }
}
