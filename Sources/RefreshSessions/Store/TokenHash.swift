import CLibCrypto

/// SHA-256 of a member's token, in lowercase hex: what a store keeps instead of the token, so that reading the
/// store does not let anyone resume a member. A token is 128 random bits, so a plain hash (no salt, no
/// stretching) is enough: nobody can search 2¹²⁸ preimages. The hash is OpenSSL's (Debian's libcrypto, which
/// libwebsockets already links); `TokenHashTests` checks it against FIPS 180-4's test vectors.
enum TokenHash {
    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ token: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let bytes = Array(token.utf8)
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        var text: [UInt8] = []
        text.reserveCapacity(2 * digest.count)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
