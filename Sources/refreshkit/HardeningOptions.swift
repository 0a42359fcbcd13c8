import ArgumentParser
import RefreshAccess
import RefreshServer
import RefreshSessions

/// `refreshkit serve`'s options against hostile clients (docs/HARDENING.md).
struct HardeningOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "An origin allowed to open the WebSocket besides the server's own (repeatable).",
            valueName: "scheme://host[:port]"))
    var allowOrigin: [String] = []

    @Option(
        help: ArgumentHelp(
            "Pages reach this server through a proxy on this machine on this port (`refreshkit link`): its "
                + "own names on that port are own origins too, and share links in the log use the first (repeatable).",
            valueName: "port"))
    var publicPort: [Int] = []

    @Flag(
        help: "The --public-port proxy terminates TLS (HAProxy of `make cluster TLS=1`): pages there are https://.")
    var publicTLS = false

    @Option(
        help: ArgumentHelp(
            "An address or network that may read /metrics besides loopback (repeatable).",
            valueName: "address[/prefix]"))
    var metricsAllow: [String] = []

    @Option(
        help: ArgumentHelp(
            "A proxy in front of the server (`refreshkit link`, HAProxy, nginx): only from these peers is the client's "
                + "address read from --client-address-header; anyone else is the client (repeatable).",
            valueName: "address[/prefix]"))
    var trustedProxy: [String] = []

    @Option(help: "The header the trusted proxies name the client in: x-forwarded-for or forwarded (RFC 7239).")
    var clientAddressHeader: TrustedProxies.Header = .xForwardedFor

    @Option(help: "WebSockets held at once; one more is refused with 503.")
    var maxConnections = HardeningConfiguration().maxConnections

    @Option(help: "WebSockets one peer address may hold at once (loopback is exempt unless --limit-loopback).")
    var maxConnectionsPerAddress = HardeningConfiguration().maxConnectionsPerAddress

    @Option(
        help: ArgumentHelp(
            "TCP connections one address may hold at once, silent ones included; more are closed as accepted "
                + "(loopback and trusted proxies exempt unless --limit-loopback)."))
    var maxSocketsPerAddress = HardeningConfiguration().maxSocketsPerAddress

    @Option(
        help:
            "Sessions kept at most (connected or waiting out their grace); past it the idle one closest to expiry goes."
    )
    var maxSessions = SessionHost.Configuration.production.maxSessions

    @Option(
        help: ArgumentHelp(
            "Sessions one address may have made and hold; past it its own idle one closest to expiry goes, never "
                + "another address's (loopback exempt unless --limit-loopback)."))
    var maxSessionsPerAddress = SessionHost.Configuration.production.maxSessionsPerAddress

    @Flag(help: "Apply --max-connections-per-address and --max-sockets-per-address to loopback peers too.")
    var limitLoopback = false

    @Option(
        help: ArgumentHelp(
            "Messages per second one connection may send (bursts of twice that); a flood is closed with 1008.",
            valueName: "messages/s"))
    var rateLimit = SessionHost.Configuration.production.messagesPerSecond

    @Option(
        help: ArgumentHelp(
            "Messages per second all the connections of one address may send together (bursts of twice that; 0: no "
                + "limit; loopback exempt unless --limit-loopback).", valueName: "messages/s"))
    var rateLimitPerAddress = SessionHost.Configuration.production.messagesPerSecondPerAddress

    @Option(
        help: ArgumentHelp(
            "Seconds without a pong before a WebSocket is dropped; it is pinged after half of it.",
            valueName: "seconds"))
    var idleTimeout = SessionHost.Configuration.production.hangupSeconds

    @Flag(help: .hidden)
    var echoProtocol = false

    /// Sets the hardening part of `configuration` (and the session host's rate limit, and its ping/hang-up times
    /// from --idle-timeout).
    func apply(to configuration: inout ServerConfiguration) {
        configuration.hardening = HardeningConfiguration(
            maxConnections: maxConnections, maxConnectionsPerAddress: maxConnectionsPerAddress,
            maxSocketsPerAddress: maxSocketsPerAddress,
            limitLoopback: limitLoopback, allowedOrigins: allowOrigin, publicPorts: publicPort,
            publicTLS: publicTLS,
            echoProtocol: echoProtocol, metricsAllow: metricsAllow, trustedProxies: trustedProxy,
            clientAddressHeader: clientAddressHeader)
        configuration.sessions.messagesPerSecond = rateLimit
        configuration.sessions.messagesPerSecondPerAddress = rateLimitPerAddress
        configuration.sessions.limitLoopback = limitLoopback
        configuration.sessions.maxSessions = maxSessions
        configuration.sessions.maxSessionsPerAddress = maxSessionsPerAddress
        configuration.sessions.hangupSeconds = idleTimeout
        configuration.sessions.pingIntervalSeconds = max(1, idleTimeout / 2)
    }
}

extension TrustedProxies.Header: ExpressibleByArgument {}
