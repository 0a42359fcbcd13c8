import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// Sessions that outlive their process: ids that name the node, the store's batching, and the take-over rule.
@Suite struct TakeOverTests {
    @Test func aSessionIdNamesTheNodeThatMadeItAndTheWelcomeSaysWhichNodeHoldsIt() throws {
        let (_, welcome) = try TestTransport.node("n2", MemoryStore()).welcomed(TestTransport.hello())
        let id = try #require(welcome["session"] as? String)
        #expect(id.hasPrefix("n2.") && id.count == 3 + 32)
        #expect(welcome["node"] as? String == "n2")
        let (_, plain) = try TestTransport { $0.node = "4242" }.welcomed(TestTransport.hello())
        #expect((plain["session"] as? String)?.count == 32, "no prefix unless asked: \(plain)")
        #expect(plain["node"] as? String == "4242")
    }

    @Test func theStoreGetsTheWholeTraceFirstThenOnlyWhatIsNewAndOnlyWhatChanged() throws {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        let (page, welcome) = try a.welcomed(TestTransport.hello())
        let id = try #require(welcome["session"] as? String)
        a.sweep()
        let first = try #require(store.writes.last?.first)
        #expect(first.whole && first.session == id && first.members?.members.count == 1)
        #expect(first.members?.members.first?.tokenHash == TokenHash.hex(welcome["token"] as! String))
        // Within the period nothing is written; after it, only the new operations, and no members.
        a.now += 1_000
        a.send(a.touch("start", dy: 0, seq: 1), on: page)
        a.sweep()
        #expect(store.writes.count == 1)
        a.now += StoreLedger.period
        a.sweep()
        let second = try #require(store.writes.last?.first)
        #expect(!second.whole && second.members == nil && !second.operations.isEmpty)
        #expect(second.operationCount == first.operations.count + second.operations.count)
        // Nothing changed: nothing written.
        a.now += StoreLedger.period
        a.sweep()
        #expect(store.writes.count == 2)
        // The store goes away and comes back: the next write is whole again.
        store.reachable = false
        a.now += StoreLedger.period
        a.send(a.touch("move", dy: 10, seq: 2), on: page)
        a.sweep()
        store.reachable = true
        a.now += StoreLedger.period
        a.sweep()
        #expect(store.writes.last?.first?.whole == true)
    }

    @Test func anotherNodeTakesTheSessionOverWithItsStateAndMembers() throws {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        let (page, welcome) = try a.welcomed(TestTransport.hello())
        let id = try #require(welcome["session"] as? String)
        let token = try #require(welcome["token"] as? String)
        a.send(#"{"type":"command","name":"scrollBy","amount":500}"#, on: page)
        for _ in 0..<40 { a.runTick() }
        a.send(a.touch("start", dy: 0, seq: 1), on: page)
        a.now += 16_000
        a.send(a.touch("move", dy: 40, seq: 2), on: page)
        a.now += StoreLedger.period
        a.sweep()
        let before = try #require(a.frames(page).last)
        // `a` is gone, its serving lease over (waiting it out: ServingLeaseTests); `b` gets the page's hello
        store.renewed.removeAll()
        let b = TestTransport.node("b", store)
        b.balancerBackend = "a"  // `a` is gone: the balancer sends its pages to `b`, its backup
        b.now = a.now
        let (again, resumed) = try b.welcomed(TestTransport.hello(session: id, token: token))
        #expect(resumed["session"] as? String == id && resumed["resumed"] as? Bool == true)
        #expect(resumed["token"] as? String == token && resumed["member"] as? Int == 0)
        #expect(resumed["node"] as? String == "b" && resumed["notice"] == nil)
        #expect(resumed["ack"] as? Int == 2, "the page learns which inputs the session has")
        let takeOver = try #require(resumed["takeover"] as? [String: Any])
        #expect(takeOver["from"] as? String == "a" && (takeOver["ops"] as? Int ?? 0) > 0)
        let after = try #require(b.frames(again).first)
        let offset = { (frame: [String: Any]) in (frame["offset"] as? [String: Any])?["y"] as? Double }
        #expect(offset(after) == offset(before) && offset(after) != 0)
        #expect(after["phase"] as? String != "dragging", "the finger that was down is lifted: \(after)")
        // a wrong token is still refused; a new device joins as a new member
        let wrong = b.open()
        b.send(TestTransport.hello(session: id, token: String(repeating: "0", count: 32)), on: wrong)
        #expect(b.errors(wrong) == ["bad_token"])
        let (_, joined) = try b.welcomed(a.join(id))
        #expect(joined["session"] as? String == id && joined["member"] as? Int == 1)
    }

    @Test func aTraceWhoseReplayDoesNotMatchItsDigestIsNotTakenOver() throws {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        let (page, welcome) = try a.welcomed(TestTransport.hello())
        let id = try #require(welcome["session"] as? String)
        a.send(#"{"type":"command","name":"scrollBy","amount":500}"#, on: page)
        for _ in 0..<10 { a.runTick() }
        a.sweep()
        // one operation lost: the replay's frames no longer add up to the recorded digest
        store.sessions[id]!.operations.removeLast(3)
        let b = TestTransport.node("b", store)
        b.balancerBackend = "a"  // `a` is gone: the balancer sends its pages to `b`, its backup
        b.now = a.now
        let (_, fresh) = try b.welcomed(TestTransport.hello(session: id, token: welcome["token"] as? String))
        #expect(fresh["session"] as? String != id && fresh["notice"] as? String == "session_expired")
    }

    @Test func withTheStoreUnreachableAHelloForAnUnknownSessionStartsANewOne() throws {
        let store = MemoryStore()
        store.reachable = false
        let (_, welcome) = try TestTransport.node("b", store).welcomed(
            TestTransport.hello(session: "a." + String(repeating: "f", count: 32)))
        #expect(welcome["notice"] as? String == "session_expired")
    }
}

@Suite struct StorePartsTests {
    @Test func tokenHashIsSHA256() {
        // FIPS 180-4's examples (NIST CSRC, "SHA256.pdf"): "abc" and the empty message.
        #expect(TokenHash.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(TokenHash.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            TokenHash.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func storedMembersReadBackAsWritten() {
        let members = StoredMembers(members: [(0, TokenHash.hex("x")), (3, TokenHash.hex("y"))], next: 4)
        #expect(StoredMembers(json: members.json()) == members)
        #expect(StoredMembers(json: Array("nonsense".utf8)) == nil)
    }

    @Test func operationsHandedOutInPiecesMakeTheWholeTrace() throws {
        // No snapshot on the way (one would start the operations over: the store then writes the trace whole).
        var traced = try TracedListModel(
            header: TraceHeader(
                preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1,
                start: Timestamp(microseconds: 0)),
            limits: TraceLimits(snapshotOperations: .max))
        var cursor = TraceRecorder.OperationCursor()
        var pieces: [[UInt8]] = []
        var update = MessageBuffer()
        let decoder = MessageDecoder()
        for step in 0..<3000 {  // enough to fill several of the log's chunks
            let time = Timestamp(microseconds: Int64(step) * 8_000)
            let text = Array(#"{"type":"wheel","dx":0,"dy":3,"mode":0,"t":\#(step * 8)}"#.utf8)
            try text.withUnsafeBytes { bytes in
                try traced.apply(try #require(try decoder.decodeInput(bytes)), member: 0, at: time)
            }
            traced.advance(to: time)
            traced.frame(appendingUpdateTo: &update)
            if step % 97 == 0 { traced.recorder.encodeOperations(after: &cursor) { pieces.append($0) } }
        }
        traced.recorder.encodeOperations(after: &cursor) { pieces.append($0) }
        #expect(cursor.count == traced.recorder.operationCount)
        var joined: [UInt8] = []
        traced.recorder.encodeHead(into: &joined)
        for (index, piece) in pieces.enumerated() {
            if index > 0 { joined.append(UInt8(ascii: ",")) }
            joined += piece
        }
        traced.recorder.encodeSummary(into: &joined)
        let fromPieces = try Trace(json: joined)
        let whole = try Trace(json: traced.recorder.json())
        #expect(fromPieces == whole)
        let replayed = try TracedListModel.replaying(fromPieces, limits: .unlimited)
        #expect(replayed.recorder.frames == traced.recorder.frames)
    }
}
