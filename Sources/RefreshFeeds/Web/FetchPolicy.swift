import Foundation
import RefreshAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which addresses the server's fetches may connect to (docs/FEEDS.md, "What is fetched, and what is refused").
///
/// A feed's author chooses what the server fetches: its items' images, its next page, its redirects. So that choice
/// must not make the server a client of the services on its own machine and network. ``CurlFetcher`` asks the
/// policy about every connection it opens, with the address it is about to connect to (after DNS, for the first
/// request and for every redirect), so no host name, spelling of an address or redirect gets around it:
///
/// - an address on the internet (`IPAddress.Scope.global`) is reached;
/// - the operator's own feed address as written (``allowing(hostOf:)``): the addresses its host names, on its port,
///   whatever their scope, so a feed served on loopback or on the LAN is still read, with its images and next
///   pages on the same host and port;
/// - any other address (loopback, private, link-local, multicast, unspecified, reserved) is refused, unless
///   ``allowsPrivate`` (`serve --feed-allow-private`) lifts the check for every address.
public struct FetchPolicy: Sendable, Hashable {
    /// Whether every address may be reached, inside too (`serve --feed-allow-private`).
    public var allowsPrivate: Bool
    /// The operator's feed addresses' hosts, each reached on its port whatever its scope.
    public var feedHosts: [FeedHost]

    /// A host and port that the operator wrote in a feed's address (`--feed jsonfeed:http://127.0.0.1:8000/…`).
    public struct FeedHost: Sendable, Hashable, CustomStringConvertible {
        /// An address (`127.0.0.1`, `::1`, without brackets) or a name (`localhost`, `feeds.lan`), lowercased.
        public var host: String
        /// The port as written, else the scheme's (80 for http, 443 for https).
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host.lowercased()
            self.port = port
        }

        /// The host and port of an http or https `url`; nil for anything else.
        public init?(url: String) {
            guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
                scheme == "http" || scheme == "https", var host = parts.host, !host.isEmpty
            else { return nil }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            self.init(host: host, port: parts.port ?? (scheme == "https" ? 443 : 80))
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// What a connection to an address gets.
    public enum Decision: Sendable, Hashable {
        case allowed
        /// Refused: the address is in this scope, which only `--feed-allow-private` opens.
        case refused(IPAddress.Scope)
    }

    /// Addresses on the internet only.
    public static let outsideOnly = FetchPolicy()

    public init(allowsPrivate: Bool = false, feedHosts: [FeedHost] = []) {
        self.allowsPrivate = allowsPrivate
        self.feedHosts = feedHosts
    }

    /// This policy, also reaching the host of `url` on its port (the operator's own feed address); itself when `url`
    /// is not an http or https address, or its host is allowed already.
    public func allowing(hostOf url: String) -> FetchPolicy {
        guard let host = FeedHost(url: url), !feedHosts.contains(host) else { return self }
        var wider = self
        wider.feedHosts.append(host)
        return wider
    }

    /// Whether a connection to `address` on `port` may be opened; `resolve` gives the addresses a feed host names
    /// (asked only for an address that is not on the internet, and only for the hosts on that port).
    public func decide(
        _ address: IPAddress, port: Int, resolve: (String) -> [IPAddress] = FetchPolicy.addresses(of:)
    ) -> Decision {
        let scope = address.scope
        if scope == .global || allowsPrivate { return .allowed }
        for feedHost in feedHosts where feedHost.port == port {
            if resolve(feedHost.host).contains(address) { return .allowed }
        }
        return .refused(scope)
    }

    /// The addresses `host` names: itself when it is an address; `127.0.0.1` and `::1` for `localhost` and the
    /// names under it, as libcurl resolves them (itself, without asking); else what the system's resolver answers
    /// now (`getaddrinfo`: `/etc/hosts`, then DNS), none when it answers nothing.
    public static func addresses(of host: String) -> [IPAddress] {
        if let address = IPAddress(host) { return [address] }
        let name = host.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") {
            return [IPAddress(bytes: [127, 0, 0, 1]), IPAddress(bytes: Array(repeating: 0, count: 15) + [1])]
                .compactMap { $0 }
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &found) == 0 else { return [] }
        defer { freeaddrinfo(found) }
        var addresses: [IPAddress] = []
        var next = found
        while let entry = next {
            if let address = entry.pointee.ai_addr, let (ip, _) = endpoint(UnsafeRawPointer(address)) {
                addresses.append(ip)
            }
            next = entry.pointee.ai_next
        }
        return addresses
    }

    /// The address and port of a `sockaddr_in` or `sockaddr_in6` at `pointer`; nil for another family.
    static func endpoint(_ pointer: UnsafeRawPointer) -> (IPAddress, Int)? {
        let family = pointer.loadUnaligned(as: sockaddr.self).sa_family
        switch Int32(family) {
        case AF_INET:
            var v4 = pointer.loadUnaligned(as: sockaddr_in.self)
            let bytes = withUnsafeBytes(of: &v4.sin_addr) { Array($0) }
            return IPAddress(bytes: bytes).map { ($0, Int(UInt16(bigEndian: v4.sin_port))) }
        case AF_INET6:
            var v6 = pointer.loadUnaligned(as: sockaddr_in6.self)
            let bytes = withUnsafeBytes(of: &v6.sin6_addr) { Array($0) }
            return IPAddress(bytes: bytes).map { ($0, Int(UInt16(bigEndian: v6.sin6_port))) }
        default:
            return nil
        }
    }
}
