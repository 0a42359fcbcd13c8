import Testing

@testable import LWSEcho

/// The echo's per-connection rules, without a socket: what lws delivers in, what goes back or closes.
struct EchoConnectionTests {
    private func connection(maxMessageBytes: Int = 64, maxQueued: Int = 3) -> EchoConnection {
        EchoConnection(headroom: 4, maxMessageBytes: maxMessageBytes, maxQueued: maxQueued)
    }

    private func receive(
        _ connection: EchoConnection, _ text: String, binary: Bool = false, remaining: Int = 0, final: Bool = true
    ) -> EchoConnection.Received {
        Array(text.utf8).withUnsafeBytes {
            connection.receive($0, binary: binary, remaining: remaining, final: final)
        }
    }

    private func payload(_ message: EchoConnection.Message?, headroom: Int = 4) -> String? {
        message.map { String(decoding: $0.framed.dropFirst(headroom), as: UTF8.self) }
    }

    @Test func aWholeMessageIsQueuedBehindTheHeadroom() {
        let echo = connection()
        #expect(receive(echo, "hello") == .complete(queued: 1))
        let message = echo.next()
        #expect(message?.framed.prefix(4) == [0, 0, 0, 0])
        #expect(payload(message) == "hello")
        #expect(message?.binary == false)
        #expect(echo.next() == nil)
    }

    @Test func partsOfAFrameAndFragmentsMakeOneMessage() {
        let echo = connection()
        #expect(receive(echo, "ab", remaining: 2, final: false) == .partial)  // first fragment, frame split
        #expect(receive(echo, "cd", remaining: 0, final: false) == .partial)  // its end; more fragments follow
        #expect(receive(echo, "ef", remaining: 0, final: true) == .complete(queued: 1))
        #expect(payload(echo.next()) == "abcdef")
    }

    @Test func theOpcodeIsTheFirstFragments() {
        let echo = connection()
        #expect(receive(echo, "\u{1}\u{2}", binary: true, final: false) == .partial)
        // lws reports continuation frames as not binary; the message stays binary.
        #expect(receive(echo, "\u{3}", binary: false, final: true) == .complete(queued: 1))
        #expect(echo.next()?.binary == true)
        #expect(receive(echo, "text") == .complete(queued: 1))
        #expect(echo.next()?.binary == false)
    }

    @Test func anEmptyMessageIsEchoed() {
        let echo = connection()
        #expect(
            echo.receive(UnsafeRawBufferPointer(start: nil, count: 0), binary: false, remaining: 0, final: true)
                == .complete(queued: 1))
        #expect(payload(echo.next()) == "")
    }

    @Test func messagesWaitInOrder() {
        let echo = connection()
        #expect(receive(echo, "1") == .complete(queued: 1))
        #expect(receive(echo, "2") == .complete(queued: 2))
        #expect(payload(echo.next()) == "1")
        #expect(receive(echo, "3") == .complete(queued: 2))
        #expect(payload(echo.next()) == "2")
        #expect(payload(echo.next()) == "3")
        #expect(echo.next() == nil)
    }

    @Test func aMessageOverTheLimitClosesAndNothingMoreIsRead() {
        let echo = connection(maxMessageBytes: 8)
        #expect(receive(echo, "12345678") == .complete(queued: 1))  // exactly the limit passes
        #expect(receive(echo, "12345", final: false) == .partial)
        #expect(receive(echo, "6789") == .close(.tooLarge))
        #expect(echo.refusal == .tooLarge)
        #expect(receive(echo, "x") == .ignored)
        #expect(echo.outbox.count == 1)
    }

    @Test func aPeerThatDoesNotReadIsClosed() {
        let echo = connection(maxQueued: 2)
        #expect(receive(echo, "1") == .complete(queued: 1))
        #expect(receive(echo, "2") == .complete(queued: 2))
        #expect(receive(echo, "3") == .close(.notReading))
        #expect(echo.refusal == .notReading)
        #expect(receive(echo, "4") == .ignored)
    }

    @Test func aLargeMessageOfManySmallFragmentsArrivesWhole() {
        let echo = connection(maxMessageBytes: 1 << 20)
        let fragment = String(repeating: "x", count: 64)
        for _ in 0..<4096 { #expect(receive(echo, fragment, final: false) == .partial) }
        #expect(receive(echo, "end") == .complete(queued: 1))
        #expect(payload(echo.next()) == String(repeating: fragment, count: 4096) + "end")
    }
}
