import Foundation
import RefreshKit
import RefreshWire
import Testing

@testable import RefreshSessions

/// A session of any length is taken over (docs/SCALING.md, "Sessions of any length"): the store holds the
/// session's latest snapshot and the operations after it, and the process taking it over loads the snapshot,
/// replays the tail and checks the frames' digest, which runs over all the session's frames.
@Suite struct LongSessionTakeOverTests {
    /// The session's one million operations are made cheaply, on the traced model itself rather than through
    /// a host: mostly the 60 Hz tick over a resting list (a frame every 64 ticks), with a drag every 2 000
    /// operations (a frame after each of its inputs) and
    /// a finger left down at the end (before the last snapshot, so only the snapshot knows it). The recorder
    /// takes its snapshots as a server's does (every 5 000 operations). About 7 s in a debug build on the
    /// 2-core development machine (1-minute load average 2; 16 s under a load average of 17), nearly all of it
    /// making the million operations.
    @Test func aSessionOfAMillionOperationsIsTakenOverFromItsSnapshotAndTail() throws {
        let store = MemoryStore()
        let a = TestTransport.node("a", store)
        let (_, welcome) = try a.welcomed(TestTransport.hello())
        let id = try #require(welcome["session"] as? String)
        let token = try #require(welcome["token"] as? String)
        a.now += StoreLedger.period
        a.sweep()
        let written = try #require(store.sessions[id])
        guard case .found(let stored) = store.load(id) else {
            Issue.record("not stored")
            return
        }

        // The session as `a` holds it, driven on to a million operations.
        var traced = try TracedListModel.replaying(Trace(json: stored.trace), limits: TraceLimits())
        let decoder = MessageDecoder()
        var time = traced.model.now.microseconds
        var seq = 0
        func apply(_ text: String) {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { raw in
                guard let received = try? decoder.decodeInput(raw) else { return }
                try? traced.apply(received, member: 0, at: Timestamp(microseconds: time))
            }
        }
        var update = MessageBuffer()
        func frame() {
            update.removeAll()
            traced.frame(appendingUpdateTo: &update)
        }
        let target = 1_000_000
        while traced.recorder.sessionOperationCount < target - 3_000 {
            let count = traced.recorder.sessionOperationCount
            time += 16_667
            if count % 2_000 < 2 {
                // a short drag: start, four moves, end, each with its frame
                seq += 1
                apply(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":1000,"id":1,"seq":\#(seq)}"#)
                frame()
                for step in 1...4 {
                    time += 16_667
                    seq += 1
                    apply(
                        #"{"type":"touch","phase":"move","dx":0,"dy":-30,"t":\#(1000 + 16 * step),"id":1,"seq":\#(seq)}"#
                    )
                    frame()
                }
                seq += 1
                apply(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":1080,"id":1,"seq":\#(seq)}"#)
                frame()
            } else {
                traced.advance(to: Timestamp(microseconds: time))
                if count % 64 == 0 { frame() }
            }
        }
        // A finger goes down and stays; a snapshot follows; then the tail: ticks only.
        seq += 1
        apply(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":5000,"id":7,"seq":\#(seq)}"#)
        frame()
        traced.takeSnapshot()
        while traced.recorder.sessionOperationCount < target {
            time += 16_667
            traced.advance(to: Timestamp(microseconds: time))
            frame()
        }
        let recorder = traced.recorder
        #expect(recorder.sessionOperationCount >= target)
        #expect(recorder.snapshotCount >= target / TraceLimits().snapshotOperations - 5, "about one per 5 000")
        #expect(recorder.operationCount < 3_100, "the store holds the tail only")

        // What `a` would have written last: the snapshot in the head, the tail, the summary.
        var head: [UInt8] = []
        recorder.encodeHead(into: &head)
        var cursor = TraceRecorder.OperationCursor()
        var operations: [[UInt8]] = []
        recorder.encodeOperations(after: &cursor) { operations.append($0) }
        var summary: [UInt8] = []
        recorder.encodeSummary(into: &summary)
        store.sessions[id] = MemoryStore.Stored(
            head: head, generation: written.generation, operations: operations, summary: summary,
            members: written.members, node: "a", batch: written.batch)

        // `a` is gone; `b` takes the session over
        let b = TestTransport.node("b", store)
        b.balancerBackend = "a"
        b.now = time + 1_000_000
        let (again, resumed) = try b.welcomed(TestTransport.hello(session: id, token: token))
        #expect(resumed["session"] as? String == id && resumed["resumed"] as? Bool == true, "the digest held")
        let takeOver = try #require(resumed["takeover"] as? [String: Any])
        #expect(takeOver["ops"] as? Int == operations.count, "only the tail was replayed")
        let session = try #require(b.host.registry.sessions[id])
        #expect(session.traced.recorder.operationsBefore == recorder.operationsBefore)
        #expect(session.traced.pointersDown.isEmpty, "the finger the snapshot had down is lifted")
        let first = try #require(b.frames(again).first)
        #expect(first["phase"] as? String != "dragging")
    }
}
