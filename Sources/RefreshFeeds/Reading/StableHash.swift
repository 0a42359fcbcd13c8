/// FNV-1a, 64 bits: the id of an entry that has neither an id nor a link (docs/FEEDS.md, "Reading feeds").
///
/// A fixed algorithm, not Swift's `Hasher`, which is seeded anew in every process: the same entry must get the
/// same id in every process and every run, so a list that reloads a feed recognises the entries it holds.
struct StableHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds `text`'s UTF-8 bytes, then a zero byte, so that ("ab", "c") and ("a", "bc") differ.
    mutating func add(_ text: String?) {
        for byte in (text ?? "").utf8 { mix(byte) }
        mix(0)
    }

    private mutating func mix(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01b3
    }

    /// The hash as 16 lowercase hexadecimal digits.
    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
