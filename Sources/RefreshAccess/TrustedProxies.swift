/// The proxies whose word about the client is taken (`--trusted-proxy ADDR…`), and the one header they write it
/// in (`--client-address-header`); docs/HARDENING.md, "Proxies".
///
/// Only a peer in ``networks`` is asked who the client is. Its header is read from the right: each hop that is a
/// trusted proxy too is skipped, and the first one that is not is the client. Anything to its left was written
/// by the client itself and proves nothing, so a client cannot claim to be loopback by sending
/// `X-Forwarded-For: 127.0.0.1`. Any other peer's headers are ignored: it is the client.
///
/// Exactly one header is read. A proxy that writes `X-Forwarded-For` passes a `Forwarded` header from the client
/// on untouched, so reading both would let the client pick its own address.
public struct TrustedProxies: Sendable, Hashable {
    /// The header the trusted proxies write the client into.
    public enum Header: String, Sendable, Hashable, CaseIterable {
        /// `X-Forwarded-For: client, proxy1, …` (HAProxy's `option forwardfor`, `refreshkit link`, nginx).
        case xForwardedFor = "x-forwarded-for"
        /// RFC 7239's `Forwarded: for=client, for=proxy1`.
        case forwarded
    }

    public let networks: [IPNetwork]
    public let header: Header

    /// No proxy is trusted: every peer is the client.
    public init() {
        networks = []
        header = .xForwardedFor
    }

    public init(networks: [IPNetwork], header: Header = .xForwardedFor) {
        self.networks = networks
        self.header = header
    }

    /// The proxies of `entries` (addresses or networks: `127.0.0.1`, `10.0.0.0/8`), or the first entry that
    /// cannot be read.
    public static func parse(_ entries: [String], header: Header = .xForwardedFor) -> Result<
        TrustedProxies, AddressAllowList.InvalidEntry
    > {
        var networks: [IPNetwork] = []
        for entry in entries {
            guard let network = IPNetwork(entry) else { return .failure(.init(entry: entry)) }
            networks.append(network)
        }
        return .success(TrustedProxies(networks: networks, header: header))
    }

    public var isEmpty: Bool { networks.isEmpty }

    public func trusts(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// Who sent a request that came from `peer` (the socket's address, as the transport prints it), with
    /// `headerValue` the value of ``header`` (all its lines joined with commas, as HTTP allows), nil when absent.
    public func client(peer: String, headerValue: String?) -> ClientAddress {
        guard let proxy = IPAddress(peer), trusts(proxy) else { return ClientAddress(peer: peer) }
        let hops = headerValue.map { header == .forwarded ? Self.forwardedHops($0) : Self.listHops($0) } ?? []
        guard !hops.isEmpty else { return ClientAddress(forwarded: nil, by: proxy) }
        for hop in hops.reversed() {
            guard let address = IPAddress(hop), trusts(address) else {
                return ClientAddress(forwarded: IPAddress(hop), by: proxy)
            }
        }
        // Every hop is a trusted proxy: the request began at the first of them (a health check, a local client).
        return ClientAddress(forwarded: IPAddress(hops[0]), by: proxy)
    }

    /// `X-Forwarded-For: 203.0.113.7, 10.0.0.2` → its hops, ports taken off.
    static func listHops(_ value: String) -> [Substring] {
        value.split(separator: ",").map { hostOnly($0.trimmingCharacters()) }
    }

    /// `Forwarded: for=192.0.2.43;proto=https, for="[2001:db8::17]:4711"` → the `for` of each element (an element
    /// without one is a hop nobody named: `unknown`).
    static func forwardedHops(_ value: String) -> [Substring] {
        value.split(separator: ",").map { element in
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters().lowercased() == "for" else { continue }
                var node = parts[1].trimmingCharacters()
                if node.hasPrefix("\""), node.hasSuffix("\""), node.count >= 2 { node = node.dropFirst().dropLast() }
                return hostOnly(node)
            }
            return "unknown"
        }
    }

    /// A node without its port: `[::1]:80` → `::1`, `10.0.0.2:80` → `10.0.0.2`; anything else as it is.
    static func hostOnly(_ node: Substring) -> Substring {
        if node.hasPrefix("["), let close = node.firstIndex(of: "]") {
            return node[node.index(after: node.startIndex)..<close]
        }
        if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") { return node[..<colon] }
        return node
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
