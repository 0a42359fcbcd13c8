import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// The store's answers come later, from another thread (docs/SCALING.md, "The store going away"): the rule
/// that keeps every stored trace whole whatever the order in which the store applies and answers batches.
@Suite struct StoreOrderTests {
    /// A host whose batches wait for the test to answer them (as the store thread's do).
    private func node(_ name: String, _ store: MemoryStore) -> TestTransport {
        let transport = TestTransport.node(name, store)
        transport.holdsStoreBatches = true
        return transport
    }

    private func session(on transport: TestTransport) throws -> (page: Connection, id: String, token: String) {
        let page = transport.open()
        transport.send(TestTransport.hello(), on: page)
        let welcome = try #require(transport.welcome(page))
        return (page, try #require(welcome["session"] as? String), try #require(welcome["token"] as? String))
    }

    /// The store applies the oldest batch waiting and the host hears how it went.
    @discardableResult
    private func deliver(_ transport: TestTransport, to store: MemoryStore) throws -> StoreBatch {
        let batch = try #require(transport.storeBatches.first, "a batch waits")
        return try #require(transport.answerStore(store.apply(batch)))
    }

    /// The next period: the sweep hands over a batch if one is due.
    private func nextPeriod(_ transport: TestTransport) {
        transport.now += StoreLedger.period
        transport.sweep()
    }

    /// Every operation `id` has recorded, as the store keeps them.
    private func operations(of id: String, on transport: TestTransport) throws -> [[UInt8]] {
        let session = try #require(transport.host.sessions[id])
        var cursor = TraceRecorder.OperationCursor()
        var all: [[UInt8]] = []
        session.traced.recorder.encodeOperations(after: &cursor) { all.append($0) }
        return all
    }

    /// What the store holds of `id` is the session's own trace up to some point: its operations a prefix of
    /// the session's, with no gap or repeat, and a replay of it gives the frames its summary says.
    private func expectConsistent(_ id: String, in store: MemoryStore, on transport: TestTransport) throws {
        guard let stored = store.sessions[id] else { return }
        let all = try operations(of: id, on: transport)
        let isPrefix =
            stored.operations.count <= all.count && Array(all.prefix(stored.operations.count)) == stored.operations
        #expect(
            isPrefix, "\(id): the store's \(stored.operations.count) operations are not the first of its \(all.count)")
        guard case .found(let found) = store.load(id) else { return }
        let trace = try Trace(json: found.trace)
        _ = try TracedListModel.replaying(trace, limits: .unlimited)  // throws when the digest differs
    }

    @Test func noBatchIsMadeWhileTheStoreHasNotAnsweredThePreviousOne() throws {
        let store = MemoryStore()
        let a = node("a", store)
        let (page, id, _) = try session(on: a)
        a.sweep()
        #expect(a.storeBatches.count == 1 && a.storeBatches[0].writes.map(\.whole) == [true])
        a.send(a.touch("start", dy: 0, seq: 1), on: page)
        nextPeriod(a)
        nextPeriod(a)
        #expect(a.storeBatches.count == 1, "the first is not answered: no second")
        #expect(!a.host.storeIsIdle)
        try deliver(a, to: store)
        #expect(a.host.storeIsIdle)
        nextPeriod(a)
        let second = try #require(a.storeBatches.first?.writes.first)
        #expect(!second.whole && second.base == store.sessions[id]?.operations.count && !second.operations.isEmpty)
        try deliver(a, to: store)
        try expectConsistent(id, in: store, on: a)
    }

    @Test func afterAFailedBatchEveryWriteIsWholeAndItsAppendsRefusedWhenTheyArriveLate() throws {
        let store = MemoryStore()
        let a = node("a", store)
        let first = try session(on: a)
        let second = try session(on: a)
        try deliver(a, to: store)  // the first session's, at once
        nextPeriod(a)
        try deliver(a, to: store)  // the second's, made while the first's was unanswered
        a.send(a.touch("start", dy: 0, seq: 1), on: first.page)
        a.send(a.touch("start", dy: 0, seq: 1), on: second.page)
        nextPeriod(a)
        // The store thread gives up on the batch (no reply within its timeout), but Redis may still hold it
        // in its socket's buffer and run it later.
        let givenUp = try #require(a.answerStore(.failed(reason: "timed out")))
        #expect(givenUp.writes.count == 2 && givenUp.writes.allSatisfy { !$0.whole })
        a.now += 16_000
        a.send(a.touch("move", dy: 30, seq: 2), on: first.page)
        nextPeriod(a)
        let whole = try #require(a.storeBatches.first)
        #expect(whole.writes.count == 2 && whole.writes.allSatisfy(\.whole), "whole after any doubt")
        #expect(Set(whole.writes.map(\.generation)).isDisjoint(with: givenUp.writes.map(\.generation)))
        try deliver(a, to: store)
        // Redis runs the given-up batch now, after the whole writes: its appends are refused, nothing changes.
        let before = store.sessions
        let lateOutcome = store.apply(givenUp)
        #expect(lateOutcome == .written(refused: givenUp.writes.map(\.session)))
        #expect(Set(givenUp.writes.map(\.session)) == [first.id, second.id])
        #expect(store.sessions == before)
        // Its answer, were it to come now, changes nothing either.
        a.host.storeAnswered(StoreReport(batch: givenUp.number, outcome: .written(refused: [])), at: a.now)
        #expect(a.host.storeIsIdle)
        for id in [first.id, second.id] { try expectConsistent(id, in: store, on: a) }
        // and another node takes the first session over: the digest matches
        let b = node("b", store)
        b.holdsStoreBatches = false
        b.balancerBackend = "a"  // `a` is gone: the balancer sends its pages to `b`, its backup
        b.now = a.now
        let again = b.open()
        b.send(TestTransport.hello(session: first.id, token: first.token), on: again)
        let welcome = try #require(b.welcome(again))
        #expect(welcome["resumed"] as? Bool == true && welcome["notice"] == nil, "\(welcome)")
    }

    @Test func anAppendTheStoreRefusedMakesThatSessionsNextWriteWhole() throws {
        let store = MemoryStore()
        let a = node("a", store)
        let first = try session(on: a)
        let second = try session(on: a)
        a.sweep()
        try deliver(a, to: store)
        // Redis restarted empty between two writes (no write failed): the first session's copy is gone.
        store.sessions[first.id] = nil
        a.send(a.touch("start", dy: 0, seq: 1), on: first.page)
        a.send(a.touch("start", dy: 0, seq: 1), on: second.page)
        nextPeriod(a)
        try deliver(a, to: store)
        #expect(store.refused == [first.id] && store.sessions[first.id] == nil)
        a.now += 16_000
        a.send(a.touch("move", dy: 20, seq: 2), on: first.page)
        a.send(a.touch("move", dy: 20, seq: 2), on: second.page)
        nextPeriod(a)
        let writes = try deliver(a, to: store).writes
        #expect(writes.first { $0.session == first.id }?.whole == true)
        #expect(writes.first { $0.session == second.id }?.whole == false)
        for id in [first.id, second.id] {
            try expectConsistent(id, in: store, on: a)
            #expect(store.sessions[id]?.operations == (try operations(of: id, on: a)))
        }
    }

    @Test func anExpiredSessionIsRemovedWithTheNextBatchAndAgainAfterAFailure() throws {
        let store = MemoryStore()
        let a = TestTransport {
            $0.node = "a"
            $0.prefixesIDs = true
            $0.sessionGraceSeconds = 1
        }
        a.store = store
        a.host.hasStore = true
        a.holdsStoreBatches = true
        let (page, id, _) = try session(on: a)
        a.sweep()
        try deliver(a, to: store)
        a.close(page)
        a.now += 2_000_000
        a.runTick()
        #expect(a.host.sessions[id] == nil)
        #expect(a.sweepArmed || a.host.storeLedger.hasWork, "the removal keeps the sweep going")
        nextPeriod(a)
        #expect(a.answerStore(.failed(reason: "refused"))?.removals == [id])
        nextPeriod(a)
        try deliver(a, to: store)
        #expect(store.sessions[id] == nil && a.host.storeIsIdle && !a.host.storeLedger.hasWork)
    }

    @Test func aShutdownsLastBatchWritesEverythingThenEndsTheLeaseAndNothingFollowsIt() throws {
        let store = MemoryStore()
        let a = node("a", store)
        let (page, id, _) = try session(on: a)
        a.sweep()
        try deliver(a, to: store)
        #expect(store.leases["a"] != nil, "the first batch renews the lease")
        a.now += 1_000  // within the period: only the shutdown's batch writes this input
        a.send(a.touch("start", dy: 0, seq: 1), on: page)
        a.beginShutdown()
        let last = try deliver(a, to: store)
        #expect(last.lease == .end(node: "a") && store.leases["a"] == nil)
        #expect(store.sessions[id]?.operations == (try operations(of: id, on: a)))
        nextPeriod(a)
        #expect(a.storeBatches.isEmpty, "a renewal now would bring the ended lease back")
    }

    /// Batches answered, failed, given up on and applied late, partly applied, a store that restarts empty:
    /// in any order, what the store holds of a session is never anything but a prefix of its trace, and once
    /// the store answers again it catches up with everything.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func whateverTheOrderTheStoreNeverHoldsAGapOrARepeat(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let store = MemoryStore()
        let a = node("a", store)
        let sessions = try (0..<3).map { _ in try session(on: a) }
        var seq = [UInt64](repeating: 0, count: sessions.count)
        var late: [StoreBatch] = []
        for step in 0..<400 {
            switch random.next() % 8 {
            case 0, 1:  // an input
                let index = Int(random.next() % UInt64(sessions.count))
                seq[index] += 1
                a.now += 8_000
                let phase = seq[index] == 1 ? "start" : "move"
                a.send(a.touch(phase, dy: Double(seq[index] * 3), seq: seq[index]), on: sessions[index].page)
            case 2:
                nextPeriod(a)
            case 3:  // taken
                if !a.storeBatches.isEmpty { try deliver(a, to: store) }
            case 4:  // given up on, maybe run later
                if let batch = a.answerStore(.failed(reason: "timed out")), random.next() % 2 == 0 {
                    late.append(batch)
                }
            case 5:  // the connection broke halfway: some writes were applied
                if let batch = a.storeBatches.first {
                    var part = batch
                    part.writes = Array(batch.writes.prefix(Int(random.next() % UInt64(batch.writes.count + 1))))
                    _ = store.apply(part)
                    a.answerStore(.failed(reason: "connection reset"))
                }
            case 6:  // a batch given up on runs now
                if !late.isEmpty { _ = store.apply(late.remove(at: Int(random.next() % UInt64(late.count)))) }
            default:  // Redis restarts empty, or is unreachable for a while
                if random.next() % 4 == 0 { store.sessions = [:] } else { store.reachable.toggle() }
            }
            let reachable = store.reachable
            store.reachable = true
            defer { store.reachable = reachable }
            for session in sessions {
                let stored = store.sessions[session.id]
                let all = try operations(of: session.id, on: a)
                if let stored {
                    let isPrefix = Array(all.prefix(stored.operations.count)) == stored.operations
                    #expect(isPrefix, "step \(step): \(session.id) holds a gap or a repeat")
                }
                if step % 20 == 0 { try expectConsistent(session.id, in: store, on: a) }
            }
        }
        // The store answers again: everything is written.
        store.reachable = true
        if !a.storeBatches.isEmpty { try deliver(a, to: store) }
        for _ in 0..<3 {
            nextPeriod(a)
            if !a.storeBatches.isEmpty { try deliver(a, to: store) }
        }
        for session in sessions {
            #expect(store.sessions[session.id]?.operations == (try operations(of: session.id, on: a)))
            try expectConsistent(session.id, in: store, on: a)
        }
    }
}
