import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A connection or session that once needed a large buffer goes back to its quiet size: it keeps nothing of
/// a large message it received, of the welcome, of a trace it was sent, or of a frame (docs/PERFORMANCE.md,
/// "Memory per connected session").
@Suite struct QuietMemoryTests {
    /// A `touch` of 16 KiB, the largest message the server takes: the move padded with spaces before its
    /// closing brace.
    private static func largeTouch(_ transport: TestTransport, seq: UInt64) -> String {
        let touch = transport.touch("move", dy: -5, seq: seq)
        return String(touch.dropLast()) + String(repeating: " ", count: (16 << 10) - touch.utf8.count) + "}"
    }

    /// `text` arrives in pieces of `size` bytes, as lws hands over a message larger than its receive buffer.
    private static func receiveInPieces(
        _ text: String, size: Int, on connection: Connection, _ transport: TestTransport
    ) {
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes {
                transport.host.received(
                    $0, binary: false, isLast: end == bytes.count, on: connection, at: transport.now)
            }
            start = end
        }
        transport.endOfRead()
        transport.flush()
    }

    @Test func aMessageAssembledFromPiecesLeavesNoBufferBehind() {
        var assembler = MessageAssembler(limit: 64 << 10)
        let text = Array(repeating: UInt8(ascii: " "), count: 16 << 10)
        var pieces: [MessageAssembler.Piece] = []
        for start in stride(from: 0, to: text.count, by: 4096) {
            let piece = text[start..<start + 4096].withUnsafeBytes {
                assembler.take($0, binary: false, isLast: start + 4096 == text.count)
            }
            pieces.append(piece)
        }
        #expect(pieces.last == .assembled(text, binary: false))
        #expect(assembler.reservedCapacity == 0, "the message was handed over, not kept")
        _ = [UInt8](repeating: 0, count: 20 << 10).withUnsafeBytes { assembler.take($0, binary: false, isLast: true) }
        #expect(assembler.reservedCapacity == 0, "a message over the limit is not kept either")
    }

    @Test func aConnectionKeepsNothingOfALargeMessageOrATrace() throws {
        let transport = TestTransport()
        let connection = transport.open()
        transport.send(TestTransport.hello(), on: connection)
        #expect(transport.welcome(connection) != nil)
        transport.now += 16_667
        transport.send(transport.touch("start", dy: 0, seq: 1), on: connection)
        transport.now += 16_667
        Self.receiveInPieces(Self.largeTouch(transport, seq: 2), size: 4096, on: connection, transport)
        #expect(transport.errors(connection).isEmpty)
        #expect(transport.frames(connection).last?["ack"] as? [String: Int] == ["0": 2], "the large input applied")
        transport.send(#"{"type":"trace"}"#, on: connection)
        let trace = try #require(transport.messages(connection, type: "trace").last)
        #expect(trace["trace"] != nil)

        #expect(connection.assembler.reservedCapacity == 0)
        #expect(connection.outbox.isEmpty)
        #expect(
            transport.host.sendBuffer.capacity <= SessionHost.largestKeptSendBuffer,
            "the host's one send buffer keeps at most its largest kept size")
    }

    @Test func theHostsSendBufferGivesBackATracesMemory() {
        let transport = TestTransport()
        let connection = transport.open()
        transport.send(TestTransport.hello(), on: connection)
        transport.send(transport.touch("start", dy: 0), on: connection)
        for _ in 0..<600 {  // a trace of over 64 KiB: 600 inputs of ~16 KiB's worth of padding in all
            transport.now += 16_667
            transport.receive(
                String(transport.touch("move", dy: -1).dropLast()) + String(repeating: " ", count: 200) + "}",
                on: connection)
        }
        transport.endOfRead()
        transport.flush()
        transport.send(#"{"type":"trace"}"#, on: connection)
        let trace = transport.messages(connection, type: "trace")
        #expect(trace.count == 1)
        #expect((transport.host.sendBuffer.capacity) <= SessionHost.largestKeptSendBuffer)
    }

    /// Sessions share the host's frame message buffers: each session's members still get exactly their own
    /// messages, whatever other sessions wrote in between.
    @Test func sessionsThatShareFrameBuffersEachGetTheirOwnMessages() throws {
        let transport = TestTransport()
        func member(of session: String?) -> Connection {
            let connection = transport.open()
            var hello = TestTransport.hello(session: session, key: session.flatMap { transport.key(of: $0) })
            hello.insert(contentsOf: #","frames":"delta""#, at: hello.index(before: hello.endIndex))
            transport.send(hello, on: connection)
            return connection
        }
        let a1 = member(of: nil)
        let id = try #require(transport.welcome(a1)?["session"] as? String)
        let a2 = member(of: id)
        let b = member(of: nil)
        transport.send(transport.touch("start", dy: 0), on: a1)
        transport.send(transport.touch("start", dy: 0), on: b)
        for step in 1...6 {
            transport.now += 16_667
            // A's frame is made, B's frame replaces it in the shared buffers, then A's second member is written.
            transport.receive(transport.touch("move", dy: Double(-step)), on: a1)
            transport.endOfRead()
            transport.receive(transport.touch("move", dy: Double(step)), on: b)
            transport.endOfRead()
            transport.flush()
        }
        let sessionA = try #require(transport.host.sessions[id])
        let latestA = try #require(sessionA.traced.latest)
        for connection in [a1, a2, b] {
            let frames = transport.frames(connection)
            #expect(frames.first?["type"] as? String == "frame")
            #expect(frames.dropFirst().allSatisfy { $0["type"] as? String == "delta" })
        }
        // Both members of A hold A's latest frame, and what they were sent brings a page to it.
        #expect(a1.frameBase == latestA.sequence && a2.frameBase == latestA.sequence)
        #expect(
            transport.frames(a1).last?["seq"] as? Int == Int(latestA.sequence)
                && transport.frames(a2).last?["seq"] as? Int == Int(latestA.sequence))
        let offsetA = try #require(Self.offsetY(transport.frames(a2)))
        let offsetB = try #require(Self.offsetY(transport.frames(b)))
        #expect(offsetA == latestA.frame.offset.y)
        #expect(offsetA != offsetB, "A and B moved apart: no member got the other session's messages")
    }

    /// The content's vertical offset a page holds after applying `frames` in order.
    private static func offsetY(_ frames: [[String: Any]]) -> Double? {
        var y: Double?
        for frame in frames {
            if let offset = frame["offset"] as? [String: Any], let value = offset["y"] as? Double { y = value }
        }
        return y
    }
}
