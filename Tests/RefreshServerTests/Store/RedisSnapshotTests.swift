import Foundation
import Logging
import RefreshKit
import RefreshSessions
import RefreshWire
import Testing

@testable import RefreshServer
@testable import RefreshStore

/// A session whose recording starts over from a snapshot, written to a real Redis through the store's script
/// (docs/SCALING.md, "Sessions of any length"): the whole write after the snapshot replaces the copy with the
/// snapshot (in the head) and the operations after it, the appends continue it, and what a take-over reads back
/// is the recorder's own trace (the same snapshot bytes, the same operations), which replays to its digest.
@Suite(.enabled(if: RedisProcess.installed, "needs redis-server (scripts/ensure-deps.sh test)"))
struct RedisSnapshotTests {
    private let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    private let members = StoredMembers(members: [(0, String(repeating: "cd", count: 32))], next: 1)

    /// The write of `recorder`'s operations after `cursor` (whole: with the head, from the first).
    private func write(
        _ recorder: TraceRecorder, whole: Bool, generation: String, cursor: inout TraceRecorder.OperationCursor
    ) -> StoreWrite {
        var head: [UInt8] = []
        if whole {
            cursor = TraceRecorder.OperationCursor()
            recorder.encodeHead(into: &head)
        }
        var operations: [[UInt8]] = []
        recorder.encodeOperations(after: &cursor) { operations.append($0) }
        var summary: [UInt8] = []
        recorder.encodeSummary(into: &summary)
        return StoreWrite(
            session: "long", node: "a", whole: whole, head: head, generation: generation, operations: operations,
            summary: summary, operationCount: cursor.count, members: whole ? members : nil)
    }

    @Test func aSnapshotIsWrittenWholeAndReadBackAsRecorded() throws {
        let redis = try RedisProcess()
        let address = try StoreAddress("redis://127.0.0.1:\(redis.port)")
        let writer = RedisWriter(address: address, logger: logger)
        let store = RedisStore(address: address, logger: logger)
        var traced = try TracedListModel(
            header: TraceHeader(
                preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 2, seed: 4,
                start: Timestamp(microseconds: 1_000_000)),
            limits: TraceLimits(snapshotOperations: 400))
        var time: Int64 = 1_000_000
        var update = MessageBuffer()
        var pageTime = 100.0
        /// A wheel flick and its motion, a tick and a frame each 16.7 ms.
        func flick(_ dy: Double) {
            for _ in 0..<40 {
                time += 16_667
                pageTime += 16.667
                let text = Array(#"{"type":"wheel","dx":0,"dy":\#(dy),"mode":0,"t":\#(pageTime)}"#.utf8)
                text.withUnsafeBytes { raw in
                    if let received = try? MessageDecoder().decodeInput(raw) {
                        try? traced.apply(received, member: 0, at: Timestamp(microseconds: time))
                    }
                }
                traced.advance(to: Timestamp(microseconds: time))
                update.removeAll()
                traced.frame(appendingUpdateTo: &update)
                _ = traced.takeEvents()  // as a host does after every call
                _ = traced.takeRowsUpdates()
            }
        }
        var cursor = TraceRecorder.OperationCursor()
        flick(8)
        #expect(traced.recorder.snapshotCount == 0)
        var batch: UInt64 = 1
        let first = write(traced.recorder, whole: true, generation: "a.1", cursor: &cursor)
        #expect(writer.apply(StoreBatch(number: batch, writes: [first])) == .written(refused: []))
        flick(-8)
        flick(8)
        flick(-8)
        #expect(traced.recorder.snapshotCount >= 1, "the recording started over from a snapshot")
        // The ledger's rule: a snapshot since the last write makes the next write whole (a new generation).
        batch += 1
        let snapshotWrite = write(traced.recorder, whole: true, generation: "a.2", cursor: &cursor)
        #expect(String(decoding: snapshotWrite.head, as: UTF8.self).contains(#","snapshot":""#))
        #expect(writer.apply(StoreBatch(number: batch, writes: [snapshotWrite])) == .written(refused: []))
        flick(4)
        batch += 1
        let append = write(traced.recorder, whole: false, generation: "a.2", cursor: &cursor)
        #expect(!append.operations.isEmpty)
        #expect(writer.apply(StoreBatch(number: batch, writes: [append])) == .written(refused: []))

        guard case .found(let session) = store.load("long") else {
            Issue.record("the session is not in the store")
            return
        }
        let trace = try Trace(json: session.trace)
        #expect(try trace == Trace(json: traced.recorder.json()), "the store's copy is the recorder's trace")
        #expect(trace.snapshot == traced.recorder.snapshot)
        let rebuilt = try TracedListModel.replaying(trace, limits: TraceLimits(snapshotOperations: 400))
        #expect(rebuilt.recorder.frames == traced.recorder.frames && rebuilt.model == traced.model)
    }
}
