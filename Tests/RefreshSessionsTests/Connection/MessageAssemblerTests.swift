import Testing

@testable import RefreshSessions

@Suite struct MessageAssemblerTests {
    private func take(_ assembler: inout MessageAssembler, _ text: String, binary: Bool = false, last: Bool)
        -> MessageAssembler.Piece
    {
        Array(text.utf8).withUnsafeBytes { assembler.take($0, binary: binary, isLast: last) }
    }

    @Test func aMessageInOnePieceIsReadInPlace() {
        var assembler = MessageAssembler(limit: 100)
        let piece = take(&assembler, "{}", last: true)
        #expect(piece == .inPiece)
    }

    @Test func piecesAreJoinedInOrder() {
        var assembler = MessageAssembler(limit: 100)
        let first = take(&assembler, #"{"type""#, last: false)
        let second = take(&assembler, #":"ping","t":1}"#, last: true)
        let next = take(&assembler, "{}", last: true)
        #expect(first == .partial && second == .assembled(Array(#"{"type":"ping","t":1}"#.utf8), binary: false))
        #expect(next == .inPiece, "the next message starts afresh")
    }

    @Test func theLimitCountsEveryPieceBinaryIncluded() {
        var assembler = MessageAssembler(limit: 10)
        let first = take(&assembler, "123456", binary: true, last: false)
        let second = take(&assembler, "123456", binary: true, last: true)
        let next = take(&assembler, "1234", binary: true, last: true)
        #expect(first == .partial && second == .tooLarge(bytes: 12) && next == .inPiece)
    }

    @Test func aBinaryMessageInPiecesIsJoinedAndSaysSo() {
        var assembler = MessageAssembler(limit: 100)
        let first = take(&assembler, "1234", binary: true, last: false)
        let second = take(&assembler, "5678", binary: true, last: true)
        #expect(first == .partial && second == .assembled(Array("12345678".utf8), binary: true))
    }
}
