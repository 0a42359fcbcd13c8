/// 128-bit random identifiers in lowercase hex, from the system's cryptographic generator
/// (`getrandom(2)` on Linux).
enum RandomIdentifier {
    private static let digits = Array("0123456789abcdef".utf8)

    /// 32 hex digits.
    static func make128() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(digits[Int((word >> UInt64(shift)) & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether two identifiers are equal, in a time that depends only on their lengths (a token check
    /// must not tell an attacker how many leading characters were right).
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
