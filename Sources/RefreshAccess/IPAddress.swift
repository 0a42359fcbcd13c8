#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address, read from its text (`10.0.0.5`, `::1`, `[fd00::1]`, `::ffff:10.0.0.5`) or from the
/// bytes a socket gives, and what kind of network it belongs to (docs/HARDENING.md, "Who reaches what").
///
/// An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`, what a dual-stack listener reports for an IPv4 peer) is the
/// IPv4 address: one spelling per host, so a limit or a rule cannot be dodged by spelling the same host twice.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    public let bytes: [UInt8]

    /// The address of `bytes` (4 or 16 of them), nil for any other count.
    public init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4:
            self.bytes = bytes
        case 16:
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            self.bytes = mapped ? Array(bytes[12...]) : bytes
        default:
            return nil
        }
    }

    /// Reads `text` with `inet_pton`; brackets around an IPv6 address and a zone (`%eth0`) are taken off. Nil for
    /// anything that is not an address (a host name, `unknown`, an empty string).
    public init?(_ text: some StringProtocol) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        let string = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, string, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, string, &v6) == 1 else { return nil }
        self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The address as `inet_ntop` writes it (IPv6 without brackets).
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var raw = bytes
        _ = inet_ntop(isIPv4 ? AF_INET : AF_INET6, &raw, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What kind of network an address belongs to, after IANA's special-purpose address registries (RFC 6890 and
    /// its updates; the ranges are listed in docs/HARDENING.md, "Fetches that stay outside").
    public enum Scope: String, Sendable, Hashable {
        /// `0.0.0.0/8`, `::`: "this host", which a connect reaches as loopback.
        case unspecified
        /// `127.0.0.0/8`, `::1`.
        case loopback
        /// `10/8`, `172.16/12`, `192.168/16`, `100.64/10` (carrier-grade NAT), `fc00::/7`, `fec0::/10`.
        case privateNetwork = "private"
        /// `169.254/16`, `fe80::/10`: a cloud machine's metadata service lives here.
        case linkLocal = "link-local"
        /// `224/4`, `ff00::/8`, and `255.255.255.255`.
        case multicast
        /// Set aside and never a public host: `192.0.0.0/24`, documentation and benchmarking networks, `240/4`,
        /// IPv4-compatible IPv6 (`::/96`), the IPv6 documentation prefix.
        case reserved
        /// Anything else: a host on the internet.
        case global
    }

    public var scope: Scope {
        isIPv4 ? Self.scope(ipv4: bytes) : Self.scope(ipv6: bytes)
    }

    public var isLoopback: Bool { scope == .loopback }

    private static func scope(ipv4 b: [UInt8]) -> Scope {
        switch (b[0], b[1]) {
        case (0, _): return .unspecified
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): return .privateNetwork
        case (169, 254): return .linkLocal
        case (224...239, _): return .multicast
        case (240...255, _): return b == [255, 255, 255, 255] ? .multicast : .reserved
        case (192, 0) where b[2] == 0 || b[2] == 2: return .reserved  // IETF assignments, TEST-NET-1
        case (198, 18...19): return .reserved  // benchmarking
        case (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: return .reserved  // TEST-NET-2, -3
        default: return .global
        }
    }

    private static func scope(ipv6 b: [UInt8]) -> Scope {
        if b.allSatisfy({ $0 == 0 }) { return .unspecified }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
        if b[0..<12].allSatisfy({ $0 == 0 }) { return .reserved }  // IPv4-compatible, deprecated
        // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address that a gateway connects to: judge that.
        if b[0..<12] == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0][...] { return scope(ipv4: Array(b[12..<16])) }
        if b[0] == 0x20, b[1] == 0x02 { return scope(ipv4: Array(b[2..<6])) }
        if b[0] & 0xFE == 0xFC { return .privateNetwork }  // unique local
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return .linkLocal }
        if b[0] == 0xFE, b[1] & 0xC0 == 0xC0 { return .privateNetwork }  // site-local, deprecated
        if b[0] == 0xFF { return .multicast }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return .reserved }  // documentation
        return .global
    }
}

/// A network: an address and how many of its leading bits a member shares (`10.0.0.0/8`, `fd00::/8`, or one
/// address, all of its bits).
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    /// Reads `10.0.0.5`, `10.0.0.0/8` or `fd00::/8`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let written = parts[0].contains(":") ? 128 : 32  // as written: a mapped IPv4 address is folded below
        var length = address.bytes.count * 8
        if parts.count == 2 {
            guard parts[1].count <= 3, let value = Int(parts[1]), (0...written).contains(value) else { return nil }
            // A mapped IPv4 network (`::ffff:10.0.0.0/104`) is folded to IPv4 like its address.
            length = written == 128 && address.isIPv4 ? max(0, value - 96) : value
        }
        self.address = address
        prefixLength = length
    }

    public func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.bytes.count == address.bytes.count else { return false }
        var remaining = prefixLength
        for (index, byte) in address.bytes.enumerated() where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if (candidate.bytes[index] ^ byte) & mask != 0 { return false }
            remaining -= bits
        }
        return true
    }

    public var description: String { "\(address)/\(prefixLength)" }
}
