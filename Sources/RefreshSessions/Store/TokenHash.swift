import CLibCrypto

/// SHA-256 of a member's token or a share key, in lowercase hex: what a store keeps instead of the token, so that
/// reading the store does not let anyone resume a member. A token is 128 random bits, so a plain hash (no salt, no
/// stretching) is enough: nobody can search 2¹²⁸ preimages. The hash is OpenSSL's (Debian's libcrypto, which
/// libwebsockets already links); `TokenHashTests` checks it against FIPS 180-4's test vectors.
enum TokenHash {
    static func hex(_ token: String) -> String { Digest(of: token).hex }

    /// A SHA-256 held inline (four words), for what a session keeps for as long as it lives: a share key's hash
    /// in the session's own memory rather than in a string's heap block (docs/PERFORMANCE.md, "Memory per connected
    /// session").
    struct Digest: Sendable {
        private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        init(of text: String) {
            var bytes = Array(text.utf8)
            withUnsafeMutableBytes(of: &words) { output in
                bytes.withUnsafeMutableBufferPointer { input in
                    _ = SHA256(input.baseAddress, input.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self))
                }
            }
        }

        /// A digest from its 64 lowercase hex digits (as ``hex`` writes them); `nil` for anything else.
        init?(hex: String) {
            let digits = Array(hex.utf8)
            guard digits.count == 64 else { return nil }
            var failed = false
            withUnsafeMutableBytes(of: &words) { output in
                for index in 0..<32 {
                    guard let high = Hex.value(digits[2 * index]), let low = Hex.value(digits[2 * index + 1]) else {
                        failed = true
                        return
                    }
                    output[index] = high << 4 | low
                }
            }
            if failed { return nil }
        }

        /// The 64 lowercase hex digits, as a store keeps them.
        var hex: String {
            withUnsafeBytes(of: words) { Hex.text(of: $0) }
        }

        /// Whether two digests are equal, in a time that does not depend on where they differ.
        func matches(_ other: Digest) -> Bool {
            (words.0 ^ other.words.0) | (words.1 ^ other.words.1) | (words.2 ^ other.words.2)
                | (words.3 ^ other.words.3) == 0
        }
    }
}

/// Lowercase hex for the identifiers, tokens and hashes (one table for all of them).
enum Hex {
    static let digits = Array("0123456789abcdef".utf8)

    static func text(of bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: 2 * bytes.count) { output in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = digits[Int(byte >> 4)]
                output[2 * index + 1] = digits[Int(byte & 0x0f)]
            }
            return 2 * bytes.count
        }
    }

    static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
