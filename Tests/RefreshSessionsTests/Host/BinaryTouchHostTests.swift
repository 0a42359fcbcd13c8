import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// The page's binary touch through a real host (docs/PROTOCOL.md, "Binary touch"): applied and acknowledged as
/// its JSON spelling is, to the same frames; kept in the trace as that spelling; refused with the same errors;
/// let through the rate limit when it is a release; held, like text, while a `hello` waits for the store.
@Suite("A binary touch, through the host")
struct BinaryTouchHostTests {
    /// A drag of `moves` moves and its release, each sent alone (binary or JSON), with `seq` 1, 2, ….
    private func drag(binary: Bool, moves: Int = 12) throws -> (TestTransport, Connection) {
        let transport = TestTransport()
        let page = transport.open()
        transport.send(TestTransport.hello(), on: page)
        try #require(transport.welcome(page) != nil)
        let phases: [TouchPhase] = [.start] + Array(repeating: .move, count: moves) + [.end]
        for (index, phase) in phases.enumerated() {
            transport.now += 8_000
            let dy = phase == .move ? 6.5 : 0
            let seq = UInt64(index + 1)
            if binary {
                transport.receive(binary: transport.binaryTouch(phase, dy: dy, seq: seq, pointer: 1), on: page)
            } else {
                transport.receive(transport.touch(phase.rawValue, dy: dy, seq: seq, pointer: 1), on: page)
            }
            transport.endOfRead()
            transport.flush()
        }
        return (transport, page)
    }

    @Test func theWelcomeOffersIt() throws {
        let (transport, page) = try drag(binary: true, moves: 0)
        #expect(transport.welcome(page)?["binary"] as? [String] == ["touch"])
    }

    @Test func aBinaryDragMakesTheFramesItsJSONSpellingMakes() throws {
        let (binary, binaryPage) = try drag(binary: true)
        let (json, jsonPage) = try drag(binary: false)
        #expect(binary.errors(binaryPage).isEmpty)
        #expect(binaryPage.session?.acknowledged(member: binaryPage.member) == 14)
        let frames = binary.frames(binaryPage).map {
            try? JSONSerialization.data(withJSONObject: $0, options: .sortedKeys)
        }
        let expected = json.frames(jsonPage).map {
            try? JSONSerialization.data(withJSONObject: $0, options: .sortedKeys)
        }
        #expect(frames.count == 15 && frames == expected)
    }

    @Test func theTraceHoldsItsJSONSpelling() throws {
        let (transport, page) = try drag(binary: true, moves: 1)
        transport.send(#"{"type":"trace"}"#, on: page)
        let trace = try #require(transport.messages(page, type: "trace").last?["trace"] as? [String: Any])
        let applied = (trace["ops"] as? [[String: Any]] ?? []).compactMap { $0["apply"] as? [String: Any] }
        let touches = applied.filter { $0["type"] as? String == "touch" }
        #expect(touches.map { $0["phase"] as? String } == ["start", "move", "end"])
        #expect(touches.map { $0["seq"] as? Int } == [1, 2, 3])
        #expect(touches[1]["dy"] as? Double == 6.5 && touches[1]["id"] as? Int == 1)
    }

    @Test func aRefusedValueGetsItsJSONSpellingsErrorAndTheSessionGoesOn() throws {
        let (transport, page) = try drag(binary: true, moves: 1)
        var bytes = transport.binaryTouch(.move, dy: 2, seq: 40, pointer: 1)
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: Double.nan.bitPattern, toByteOffset: 16, as: UInt64.self) }
        transport.send(binary: bytes, on: page)
        transport.send(binary: [1, 2, 3], on: page)
        let errors = transport.messages(page, type: "error")
        #expect(errors.map { $0["code"] as? String } == ["bad_field", "binary_unsupported"])
        #expect(errors.first?["message"] as? String == "touch.dy must be a finite number")
        #expect(errors.first?["seq"] as? Int == 40 && errors.first?["ref"] as? String == "touch")
        #expect(page.decodeErrors == 2)
        transport.send(binary: transport.binaryTouch(.start, dy: 0, seq: 41, pointer: 1), on: page)
        #expect(page.session?.acknowledged(member: page.member) == 41)
    }

    @Test func aBinaryReleaseBeyondTheRateLimitIsApplied() throws {
        let transport = TestTransport { $0.messagesPerSecond = 10 }  // bursts of 20
        let page = transport.open()
        transport.send(TestTransport.hello(), on: page)
        transport.receive(binary: transport.binaryTouch(.start, dy: 0, seq: 1), on: page)
        for _ in 0..<40 { transport.receive(binary: transport.binaryTouch(.move, dy: -5), on: page) }
        transport.receive(binary: transport.binaryTouch(.end, dy: 0, seq: 99), on: page)
        transport.endOfRead()
        transport.flush()
        #expect(transport.errors(page) == ["rate_limited"])
        #expect(page.session?.acknowledged(member: page.member) == 99, "the release was applied")
    }

    @Test func aBinaryTouchSentWhileTheHelloWaitsForTheStoreFollowsTheWelcome() throws {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        let (first, welcome) = try a.welcomed(TestTransport.hello())
        a.send(#"{"type":"command","name":"scrollBy","amount":300}"#, on: first)
        a.sweep()
        let b = TestTransport.node("b", store)
        b.balancerBackend = "a"
        b.holdsStoreReads = true
        b.now = a.now + 50_000
        let page = b.open()
        let id = try #require(welcome["session"] as? String)
        b.send(TestTransport.hello(session: id, token: welcome["token"] as? String), on: page)
        b.send(binary: b.binaryTouch(.start, dy: 0, seq: 7), on: page)
        #expect(b.messages(page).isEmpty, "nothing answered before the store")
        b.now += 3_000
        _ = try #require(b.answerStoreRead())
        #expect(b.welcome(page) != nil)
        #expect(b.errors(page).isEmpty)
        #expect(page.session?.acknowledged(member: page.member) == 7, "handled after the welcome")
    }
}
