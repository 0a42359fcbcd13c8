/// Base64 (RFC 4648, section 4: the standard alphabet, `=` padding), how a trace's JSON carries a
/// ``SessionSnapshot``'s bytes. Encoding is canonical, so the same bytes always give the same text.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Each letter's 6-bit value; 0xFF for a byte outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, letter) in alphabet.enumerated() { table[Int(letter)] = UInt8(index) }
        return table
    }()

    /// Appends `bytes` as base64 text to `buffer`.
    static func encode(_ bytes: [UInt8], into buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + (bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { buffer.append(alphabet[Int((word >> UInt32(shift)) & 0x3F)]) }
            index += 3
        }
        let left = bytes.count - index
        guard left > 0 else { return }
        let word = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
        buffer.append(alphabet[Int((word >> 18) & 0x3F)])
        buffer.append(alphabet[Int((word >> 12) & 0x3F)])
        buffer.append(left == 2 ? alphabet[Int((word >> 6) & 0x3F)] : UInt8(ascii: "="))
        buffer.append(UInt8(ascii: "="))
    }

    /// The bytes `text` encodes, or `nil` when it is not canonical base64 (a length not a multiple of 4, a
    /// letter outside the alphabet, padding anywhere but at the end, or padded bits that are not zero).
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        let letters = Array(text)
        guard letters.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(letters.count / 4 * 3)
        var index = 0
        while index < letters.count {
            let last = index + 4 == letters.count
            let padding =
                last
                ? (letters[index + 3] == UInt8(ascii: "=") ? 1 : 0) + (letters[index + 2] == UInt8(ascii: "=") ? 1 : 0)
                : 0
            guard padding < 2 || letters[index + 3] == UInt8(ascii: "=") else { return nil }
            var word: UInt32 = 0
            for offset in 0..<4 {
                let letter = letters[index + offset]
                let value: UInt8
                if offset >= 4 - padding {
                    value = 0
                } else {
                    value = values[Int(letter)]
                    guard value != 0xFF else { return nil }
                }
                word = word << 6 | UInt32(value)
            }
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            if padding < 2 {
                bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            } else if word & 0xFFFF != 0 {
                return nil
            }
            if padding < 1 { bytes.append(UInt8(truncatingIfNeeded: word)) } else if word & 0xFF != 0 { return nil }
            index += 4
        }
        return bytes
    }
}
