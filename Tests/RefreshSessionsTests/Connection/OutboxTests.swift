import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

@Suite struct OutboxTests {
    static let recorder = TraceRecorder(
        header: TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1, start: .zero))
    static let pong = ServerMessage.pong(t: 1, serverTime: .zero)

    func isLagging(_ message: ServerMessage?) -> Bool {
        if case .error(let error) = message { return error.code == .lagging }
        return false
    }

    @Test func oneTraceWaitsAtATimeAndAnswersTheRequestsThatCameMeanwhile() {
        var outbox = Outbox(limit: 100)
        for _ in 0..<1000 { outbox.enqueue(.trace(Self.recorder)) }
        #expect(outbox.count == 1 && outbox.traceQueued)
        _ = outbox.next()
        #expect(!outbox.traceQueued)
        outbox.enqueue(.trace(Self.recorder))
        #expect(outbox.count == 1)
    }

    @Test func theBytesAreBoundedAndTheClientIsToldItLags() {
        var outbox = Outbox(limit: 10_000, limitBytes: 10 * Self.pong.queuedByteEstimate)
        for _ in 0..<50 { outbox.enqueue(Self.pong) }
        #expect(outbox.count == 10)
        #expect(outbox.queuedBytes <= outbox.limitBytes)
        #expect(outbox.dropped == 41)
        var lagged = false
        while let message = outbox.next() { lagged = lagged || isLagging(message) }
        #expect(lagged)
        #expect(outbox.queuedBytes == 0)
    }

    @Test func theCountIsBoundedAsBefore() {
        var outbox = Outbox(limit: 4)
        let first = outbox.enqueue(Self.pong)
        #expect(!first)
        for _ in 0..<3 { outbox.enqueue(Self.pong) }
        let fifth = outbox.enqueue(Self.pong)
        #expect(fifth, "this call started the lagging episode")
        #expect(outbox.count == 4)
    }
}
