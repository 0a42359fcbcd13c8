/// SHA-256 (FIPS 180-4) of a member's token, in lowercase hex: what a store keeps instead of the token, so
/// that reading the store does not let anyone resume a member. A token is 128 random bits, so a plain hash
/// (no salt, no stretching) is enough: nobody can search 2¹²⁸ preimages.
///
/// The round constants are derived as the standard defines them (the first 32 bits of the fractional parts
/// of the square roots of the first 8 primes, and of the cube roots of the first 64), and the result is
/// checked against the standard's test vectors (`TokenHashTests`).
enum TokenHash {
    private static let primes: [Double] = {
        var found: [Int] = []
        var candidate = 2
        while found.count < 64 {
            if found.allSatisfy({ candidate % $0 != 0 }) { found.append(candidate) }
            candidate += 1
        }
        return found.map(Double.init)
    }()

    private static func fraction32(_ value: Double) -> UInt32 {
        UInt32((value - value.rounded(.down)) * 4_294_967_296)
    }

    private static let initial: [UInt32] = primes.prefix(8).map { fraction32($0.squareRoot()) }
    private static let rounds: [UInt32] = primes.map { fraction32(cubeRoot($0)) }

    /// The real cube root of `value` > 0, by Newton's method to a fixed point (exact to the last bit or two,
    /// far finer than the 32 fractional bits taken).
    private static func cubeRoot(_ value: Double) -> Double {
        var root = value / 3 + 1
        for _ in 0..<100 {
            let next = (2 * root + value / (root * root)) / 3
            if next == root { break }
            root = next
        }
        return root
    }

    /// The hex SHA-256 of `text`'s UTF-8 bytes.
    static func hex(_ text: String) -> String {
        let digest = sha256(Array(text.utf8))
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for word in digest {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int((word >> UInt32(shift)) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func sha256(_ message: [UInt8]) -> [UInt32] {
        var bytes = message
        let bitLength = UInt64(message.count) * 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var h = initial
        var w = [UInt32](repeating: 0, count: 64)
        for block in stride(from: 0, to: bytes.count, by: 64) {
            for i in 0..<16 {
                let at = block + 4 * i
                w[i] =
                    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
                    | UInt32(bytes[at + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, k) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = k &+ s1 &+ choice &+ rounds[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (k, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (index, value) in [a, b, c, d, e, f, g, k].enumerated() { h[index] &+= value }
        }
        return h
    }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
