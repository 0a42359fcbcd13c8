#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which pages may open a WebSocket: the server's own origin, reached by any of its own names or
/// addresses (loopback, LAN, host name) on its own port or on a port given with `--public-port` (pages
/// that reach it through a proxy on this machine, such as `refreshkit link`), plus the origins given with
/// `--allow-origin`.
///
/// A browser always sends `Origin` with a WebSocket handshake, so this stops another site open in a
/// phone's browser from driving sessions on the LAN server (cross-site WebSocket hijacking). Matching the
/// Origin against the request's own `Host` header is deliberately not enough: a DNS-rebinding page has
/// `Origin == Host == evil.example`. A handshake without `Origin` is not from a browser and is accepted
/// (such a client can send any header it likes; the connection limits still apply). `Origin: null`
/// (sandboxed frames, `file://` pages) is refused.
public struct OriginPolicy: Sendable, Equatable {
    /// An origin reduced to `scheme://host:port`, lower-case, with the port always explicit.
    public struct Origin: Hashable, Sendable, CustomStringConvertible {
        public var scheme: String
        public var host: String
        public var port: Int

        public var description: String { "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

        /// Parses an `Origin` header value (RFC 6454 serialisation: `scheme "://" host [ ":" port ]`).
        /// Anything else (a path, user info, `null`, an empty or over-long value) is nil.
        public init?(_ text: String) {
            guard text.utf8.count <= 1024 else { return nil }
            let lowered = text.lowercased()
            guard let colon = lowered.firstIndex(of: ":"), lowered[colon...].hasPrefix("://") else { return nil }
            let scheme = String(lowered[..<colon])
            let defaultPort: Int
            switch scheme {
            case "http", "ws": defaultPort = 80
            case "https", "wss": defaultPort = 443
            default: return nil
            }
            var rest = lowered[lowered.index(colon, offsetBy: 3)...]
            if rest.hasSuffix("/") { rest = rest.dropLast() }  // tolerated, though browsers never send it
            var host: Substring
            var portText: Substring?
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { return nil }
                    portText = after.dropFirst()
                }
                guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            } else {
                if let colon = rest.firstIndex(of: ":") {
                    host = rest[..<colon]
                    portText = rest[rest.index(after: colon)...]
                } else {
                    host = rest
                }
                let allowed = host.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }
                guard !host.isEmpty, allowed, !host.hasPrefix("."), !host.hasPrefix("-") else { return nil }
            }
            var port = defaultPort
            if let portText {
                guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isNumber),
                    let value = Int(portText),
                    (1...65535).contains(value)
                else { return nil }
                port = value
            }
            self.scheme = scheme == "ws" ? "http" : scheme == "wss" ? "https" : scheme
            self.host = String(host)
            self.port = port
        }
    }

    public enum Decision: Equatable, Sendable {
        case accept
        case refuse(reason: String)
    }

    /// Names and addresses of this machine (lower-case; IPv6 without brackets).
    public private(set) var ownHosts: Set<String>
    /// The port the page is served on.
    public let port: Int
    /// Ports of this machine's proxies in front of the server (`--public-port`): the page's origin has
    /// the proxy's port, and the proxy's addresses are this machine's.
    public let publicPorts: Set<Int>
    /// `--allow-origin` values, parsed.
    public private(set) var allowed: Set<Origin>

    /// The scheme of this server's own pages: `https` when it serves TLS (docs/HTTPS.md), else `http`.
    public let scheme: String
    /// The scheme of the pages on ``publicPorts``: `https` behind a proxy that terminates TLS, else ``scheme``.
    public let publicScheme: String

    public init(
        ownHosts: Set<String>, port: Int, publicPorts: [Int] = [], allowedOrigins: [String], scheme: String = "http",
        publicScheme: String? = nil
    ) {
        self.scheme = scheme
        self.publicScheme = publicScheme ?? scheme
        self.ownHosts = Set(ownHosts.map { $0.lowercased() })
        self.port = port
        self.publicPorts = Set(publicPorts)
        allowed = Set(allowedOrigins.compactMap(Origin.init))
    }

    /// Whether every value is a valid origin (the command line refuses a bad `--allow-origin`).
    public static func invalidOrigins(_ origins: [String]) -> [String] {
        origins.filter { Origin($0) == nil }
    }

    /// Judges the `Origin` header of a WebSocket handshake (nil: no header).
    public func decide(origin: String?) -> Decision {
        guard let origin else { return .accept }
        guard let parsed = Origin(origin) else {
            return .refuse(reason: origin == "null" ? "opaque origin (null)" : "malformed origin")
        }
        if allowed.contains(parsed) { return .accept }
        let ownPort = parsed.port == port && parsed.scheme == scheme
        let publicPort = publicPorts.contains(parsed.port) && parsed.scheme == publicScheme
        if ownPort || publicPort, ownHosts.contains(parsed.host) {
            return .accept
        }
        return .refuse(reason: "not this server's origin and not allowed with --allow-origin or --public-port")
    }

    /// This machine's names: `localhost`, its host name (and `<name>.local`), and every interface
    /// address, IPv4 and IPv6 (link-local IPv6 is left out: browsers need a zone to reach it).
    public static func localHosts(bound host: String) -> Set<String> {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "::1"]
        if !host.isEmpty, !["0.0.0.0", "::", "[::]"].contains(host) {
            hosts.insert(host.lowercased().trimmingBrackets())
        }
        var name = [CChar](repeating: 0, count: 256)
        if gethostname(&name, name.count - 1) == 0 {
            let hostName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .lowercased()
            if !hostName.isEmpty {
                hosts.insert(hostName)
                hosts.insert(hostName + ".local")
            }
        }
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return hosts }
        defer { freeifaddrs(first) }
        var cursor = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var raw = ipv6.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            default:
                continue
            }
            let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !string.isEmpty && !string.hasPrefix("fe80:") { hosts.insert(string.lowercased()) }
        }
        return hosts
    }
}

extension String {
    fileprivate func trimmingBrackets() -> String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
