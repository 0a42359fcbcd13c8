import Testing

@testable import RefreshServer
@testable import RefreshSessions

/// A turn's pieces reach the host as lws delivered them: in order, each with its own connection, flags, bytes and
/// time; and what a turn holds at once is bounded.
@Suite struct TurnInputsTests {
    private func connection(_ id: UInt64) -> Connection {
        Connection(id: id, peer: "127.0.0.1", now: 0, limits: .init())
    }

    /// Where lws's memory of `connection` would keep its ``InputMemory``: an address the pieces carry, never read.
    private static func memory(of connection: Connection) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: 0x10_000 + 0x100 * Int(connection.id))!
    }

    private func hold(
        _ text: String, on connection: Connection, binary: Bool = false, isLast: Bool = true,
        at time: Int64, in inputs: TurnInputs
    ) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            inputs.hold(
                UnsafeRawBufferPointer(raw), binary: binary, isLast: isLast, on: Unmanaged.passUnretained(connection),
                memory: Self.memory(of: connection), at: time)
        }
        bytes = []  // the caller's buffer is gone (lws reuses its own): the pieces were copied
    }

    @Test func piecesAreHandedOverInTheOrderTheyWereReadWithTheirOwnBytesFlagsAndTimes() {
        let (a, b) = (connection(1), connection(2))
        let inputs = TurnInputs()
        hold("{\"type\":\"touch\"", on: a, isLast: false, at: 10, in: inputs)
        hold("}", on: a, at: 11, in: inputs)
        hold("{\"type\":\"ping\",\"t\":1}", on: b, at: 12, in: inputs)
        hold("\u{1}\u{2}", on: b, binary: true, at: 13, in: inputs)
        var seen: [(UInt64, String, Bool, Bool, Int64)] = []
        var memories: [UnsafeMutableRawPointer] = []
        inputs.handOver { bytes, piece in
            memories.append(piece.memory)
            seen.append(
                (
                    piece.connection.takeUnretainedValue().id, String(decoding: bytes, as: UTF8.self), piece.binary,
                    piece.isLast, piece.time
                ))
        }
        #expect(seen.map(\.0) == [1, 1, 2, 2])
        #expect(seen.map(\.1) == ["{\"type\":\"touch\"", "}", "{\"type\":\"ping\",\"t\":1}", "\u{1}\u{2}"])
        #expect(seen.map(\.2) == [false, false, false, true])
        #expect(seen.map(\.3) == [false, true, true, true])
        #expect(seen.map(\.4) == [10, 11, 12, 13])
        #expect(memories == [a, a, b, b].map(Self.memory(of:)), "each piece names where its connection's memory is")
        #expect(inputs.isEmpty)
        var again = 0
        inputs.handOver { _, _ in again += 1 }
        #expect(again == 0, "a hand-over forgets what it handed over")
    }

    @Test func aLongPieceOrAFullTurnIsNotHeld() {
        let inputs = TurnInputs()
        #expect(inputs.canHold(TurnInputs.largestPiece))
        #expect(!inputs.canHold(TurnInputs.largestPiece + 1))
        let a = connection(1)
        let text = String(repeating: "x", count: TurnInputs.largestPiece)
        var held = 0
        while inputs.canHold(text.utf8.count) {
            hold(text, on: a, at: Int64(held), in: inputs)
            held += 1
        }
        #expect(held * TurnInputs.largestPiece == TurnInputs.heldBytesLimit)
        var handed = 0
        inputs.handOver { bytes, _ in
            #expect(bytes.count == TurnInputs.largestPiece)
            handed += 1
        }
        #expect(handed == held)
        #expect(inputs.canHold(TurnInputs.largestPiece), "the turn's bound starts again after a hand-over")
    }

    @Test func aTurnOfEmptyPiecesIsBoundedToo() {
        let inputs = TurnInputs()
        let a = connection(1)
        var held = 0
        while inputs.canHold(0) {
            hold("", on: a, at: 0, in: inputs)
            held += 1
        }
        #expect(held == TurnInputs.heldPiecesLimit)
        var handed = 0
        inputs.handOver { bytes, _ in
            #expect(bytes.isEmpty)
            handed += 1
        }
        #expect(handed == held && inputs.canHold(0))
    }

    @Test func aHandOverFromInsideAHandOverFindsNothing() {
        let inputs = TurnInputs()
        let a = connection(1)
        hold("{}", on: a, at: 1, in: inputs)
        hold("[]", on: a, at: 2, in: inputs)
        var outer: [Int64] = []
        var inner = 0
        inputs.handOver { _, piece in
            #expect(inputs.isHandingOver)
            outer.append(piece.time)
            inputs.handOver { _, _ in inner += 1 }
        }
        #expect(outer == [1, 2] && inner == 0 && !inputs.isHandingOver)
    }
}
