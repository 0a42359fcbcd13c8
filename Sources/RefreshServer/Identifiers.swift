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
}
