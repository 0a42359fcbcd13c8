import Testing

@testable import RefreshWire

/// ``MessageBuffer``'s own rules: a message longer than its estimate is written again with more room, the
/// headroom is never written, and emptying keeps the headroom and the memory. (That it holds exactly what
/// the `[UInt8]` encoders append is `FrameDeltaTests.aMessageBufferHoldsWhatAnArrayDoes`.)
@Suite struct MessageBufferTests {
    /// Appends `count` digits, claiming a bound of `bound` bytes.
    private func append(_ count: Int, bound: Int, to buffer: inout MessageBuffer) {
        buffer.appendJSON(bound: bound) { w in
            for k in 0..<count { w.digits(UInt64(k % 10)) }
        }
    }

    private func digits(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(ascii: "0") + UInt8($0 % 10) } }

    @Test func aMessageLongerThanItsBoundIsWrittenWhole() {
        var buffer = MessageBuffer(headroom: 8, capacity: 16)
        append(10, bound: 16, to: &buffer)
        append(5_000, bound: 1, to: &buffer)  // beyond the bound, and the memory, several times over
        #expect(buffer.count == 5_010)
        #expect(buffer.bytes == digits(10) + digits(5_000))
        buffer.withUnsafeMutableBytesIncludingHeadroom { all in
            #expect(all.count == 8 + 5_010)
            #expect(all.prefix(8).allSatisfy { $0 == 0 })
        }
    }

    @Test func emptyingKeepsTheHeadroom() {
        var buffer = MessageBuffer(headroom: 4, capacity: 0)
        append(100, bound: 64, to: &buffer)
        buffer.removeAll()
        #expect(buffer.isEmpty && buffer.count == 0 && buffer.bytes.isEmpty)
        buffer.withUnsafeMutableBytesIncludingHeadroom { #expect($0.count == 4) }
        append(3, bound: 64, to: &buffer)
        #expect(buffer.bytes == digits(3))
    }
}
