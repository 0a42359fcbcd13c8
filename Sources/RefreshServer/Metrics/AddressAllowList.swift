#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which peers may read `/metrics`: loopback always (127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6),
/// plus the addresses and networks given with `--metrics-allow` (`10.0.0.5`, `10.0.0.0/8`, `fd00::/8`).
///
/// The vital signs say how busy the server is and which errors it sends; on a LAN demo that is nobody else's
/// business, so a scraper on another machine must be named.
public struct AddressAllowList: Sendable, Hashable {
    /// A network: the address's bytes (4 or 16) and how many leading bits must match.
    struct Network: Sendable, Hashable {
        var bytes: [UInt8]
        var prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for (index, byte) in bytes.enumerated() where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if (address[index] ^ byte) & mask != 0 { return false }
                remaining -= bits
            }
            return true
        }
    }

    private(set) var networks: [Network]

    static let loopback = [
        Network(bytes: [127, 0, 0, 0], prefixLength: 8),
        Network(bytes: Array(repeating: 0, count: 15) + [1], prefixLength: 128),
    ]

    /// Loopback only.
    public init() {
        networks = Self.loopback
    }

    private init(networks: [Network]) {
        self.networks = networks
    }

    /// Loopback and `entries` (each an IPv4 or IPv6 address, optionally with `/prefix`), or the first entry that
    /// cannot be read.
    public static func parse(_ entries: [String]) -> Result<AddressAllowList, InvalidEntry> {
        var networks = loopback
        for entry in entries {
            guard let network = network(entry) else { return .failure(InvalidEntry(entry: entry)) }
            networks.append(network)
        }
        return .success(AddressAllowList(networks: networks))
    }

    /// An entry of `--metrics-allow` that is not an address or a network.
    public struct InvalidEntry: Error, Sendable, Equatable {
        public var entry: String
    }

    /// Whether the peer `address` (as lws prints it: `127.0.0.1`, `::1`, `::ffff:10.0.0.2`) may read.
    func allows(_ address: String) -> Bool {
        guard var bytes = Self.bytes(of: address) else { return false }
        // an IPv4 peer of a dual-stack listener arrives as ::ffff:a.b.c.d: judge it as the IPv4 address
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            bytes = Array(bytes[12...])
        }
        return networks.contains { $0.contains(bytes) }
    }

    static func network(_ entry: String) -> Network? {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = bytes(of: String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        guard parts.count == 2 else { return Network(bytes: bytes, prefixLength: bits) }
        guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
        return Network(bytes: bytes, prefixLength: length)
    }

    /// `inet_pton`: 4 bytes for IPv4, 16 for IPv6, nil for anything else.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
