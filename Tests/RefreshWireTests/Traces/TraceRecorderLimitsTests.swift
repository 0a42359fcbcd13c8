import RefreshKit
import Testing

@testable import RefreshWire

/// The recorder's limits and snapshots' interval, read through its marks (``TraceRecorder``'s fast path), decide
/// exactly as the limits read on every operation did: which operations are recorded, when the recording is
/// truncated, and when a snapshot is due.
struct TraceRecorderLimitsTests {
    /// The limits read on every operation, as the recorder did before its marks.
    private struct Reference {
        let limits: TraceLimits
        var count = 0
        var truncated: Bool

        init(_ limits: TraceLimits) {
            self.limits = limits
            truncated = limits.maxOperations <= 0 || limits.maxBytes <= 0
        }

        mutating func admit(_ needed: Int, bytes: Int) -> Bool {
            guard !truncated else { return false }
            if count >= limits.maxOperations || needed > limits.maxBytes - bytes {
                truncated = true
                return false
            }
            count += 1
            return true
        }

        func wantsSnapshot(bytes: Int) -> Bool {
            !truncated && (count >= limits.snapshotOperations || bytes >= limits.snapshotBytes)
        }
    }

    @Test func randomLimitsDecideAsWhenReadOnEveryOperation() {
        var generator = SeededGenerator(seed: 31)
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1,
            start: Timestamp(microseconds: 0))
        let move = Array(#"{"type":"touch","phase":"move","dx":0,"dy":-5,"t":1016.667,"id":1,"seq":2}"#.utf8)
        let update = Array(repeating: UInt8(ascii: "x"), count: 90)
        for _ in 0..<200 {
            func bound(_ range: ClosedRange<Int>) -> Int {
                Int.random(in: 0...9, using: &generator) == 0 ? .max : Int.random(in: range, using: &generator)
            }
            let limits = TraceLimits(
                maxOperations: bound(0...400), maxBytes: bound(0...20_000), snapshotOperations: bound(0...150),
                snapshotBytes: bound(0...6_000))
            var recorder = TraceRecorder(header: header, limits: limits)
            var reference = Reference(limits)
            var time: Int64 = 0
            for step in 0..<600 {
                let bytes = recorder.operations.byteCount
                time += 16_667
                switch Int.random(in: 0..<10, using: &generator) {
                case 0:
                    _ = reference.admit(OperationLog.headBound, bytes: bytes)
                    recorder.recordAdvance(to: Timestamp(microseconds: time))
                case 1...5:
                    let text = Int.random(in: 0...1, using: &generator) == 0 ? move : Array(move.dropFirst(3))
                    _ = reference.admit(OperationLog.applyBound(text.count), bytes: bytes)
                    text.withUnsafeBytes { recorder.recordApply($0, member: 0, at: Timestamp(microseconds: time)) }
                case 9 where step == 300:
                    recorder.stop()
                    reference.truncated = true
                default:
                    _ = reference.admit(1, bytes: bytes)
                    update.withUnsafeBytes { recorder.recordFrameUpdate($0) }
                    let wanted = reference.wantsSnapshot(bytes: recorder.operations.byteCount)
                    guard recorder.wantsSnapshot == wanted else {
                        Issue.record("a snapshot wanted: \(!wanted), \(limits), step \(step)")
                        return
                    }
                    if wanted {
                        recorder.restart(from: [1, 2, 3], operationsBefore: recorder.sessionOperationCount)
                        reference.count = 0
                    }
                }
                guard recorder.operationCount == reference.count, recorder.truncated == reference.truncated else {
                    Issue.record(
                        "\(recorder.operationCount) operations, truncated \(recorder.truncated): \(limits), step \(step)"
                    )
                    return
                }
            }
        }
    }
}

@Suite struct TraceExportTests {
    @Test func anExportHoldsOnlyItsRecordsAndTheRecordingGoesOn() {
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1, start: .zero)
        var recorder = TraceRecorder(header: header)
        let text = Array(#"{"type":"ping","t":1}"#.utf8)
        for step in 0..<300 {
            text.withUnsafeBytes { recorder.recordApply($0, member: 0, at: Timestamp(microseconds: Int64(step))) }
        }
        let exported = recorder.exported()
        #expect(exported.json() == recorder.json())
        text.withUnsafeBytes { recorder.recordApply($0, member: 0, at: Timestamp(microseconds: 1_000)) }
        #expect(exported.operationCount == 300 && recorder.operationCount == 301)
        #expect(exported.json() != recorder.json())
    }
}
