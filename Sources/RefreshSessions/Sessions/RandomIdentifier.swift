/// 128-bit random identifiers in lowercase hex, from the system's cryptographic generator
/// (`getrandom(2)` on Linux).
enum RandomIdentifier {
    /// 32 hex digits.
    static func make128() -> String { Bits().hex }

    /// 128 random bits held inline (two words): what a session keeps of a share key, 16 bytes rather than a
    /// 32-digit string's heap block (docs/PERFORMANCE.md, "Memory per connected session").
    struct Bits: Sendable {
        private let words: (UInt64, UInt64)

        init() {
            var generator = SystemRandomNumberGenerator()
            // big-endian, so that the hex reads in the order the bits were drawn
            words = (generator.next().bigEndian, generator.next().bigEndian)
        }

        /// The 32 lowercase hex digits a link carries.
        var hex: String {
            withUnsafeBytes(of: words) { Hex.text(of: $0) }
        }
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
