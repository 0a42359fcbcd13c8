import RefreshWire
import Testing

/// The digest of update messages (`FrameDigest.Kind.deltas`) follows its documented words exactly, whatever the
/// message's length: recorded traces replay against digests taken this way.
@Suite("Update digests")
struct UpdateDigestTests {
    /// The digest as docs/TRACE.md describes it, one step at a time: the length, then the bytes 8 to a word,
    /// little-endian, zero-padded, each word mixed by FNV-1a's step with the high half folded down.
    private func reference(_ messages: [[UInt8]]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ word: UInt64) {
            let product = (hash ^ word) &* 0x0000_0100_0000_01b3
            hash = product ^ (product >> 32)
        }
        for message in messages {
            mix(UInt64(message.count))
            for start in stride(from: 0, to: message.count, by: 8) {
                var word: UInt64 = 0
                for (k, byte) in message[start..<min(start + 8, message.count)].enumerated() {
                    word |= UInt64(byte) << UInt64(8 * k)
                }
                mix(word)
            }
        }
        return hash
    }

    @Test func everyLengthIsDigestedAsDocumented() {
        var messages: [[UInt8]] = []
        var digest = FrameDigest(kind: .deltas)
        for length in 0..<41 {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: 31 &* $0 &+ length) }
            messages.append(message)
            message.withUnsafeBytes { digest.addUpdate($0) }
            #expect(digest.value == reference(messages), "after a message of \(length) bytes")
        }
        #expect(digest.count == 41)
    }
}
