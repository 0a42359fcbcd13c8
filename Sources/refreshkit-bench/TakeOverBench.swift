import Foundation
import RefreshKit
import RefreshSessions
import RefreshWire

/// The take-over's catch-up for a session an hour old (docs/SCALING.md, "Sessions of any length"): the work a
/// process does between the store's answer and the rebuilt session, which is reading the stored trace (the
/// latest snapshot and the operations after it), restoring the snapshot and replaying the tail, with the digest
/// check (``TracedListModel/replaying(_:limits:presets:)``, as ``SessionHost`` calls it).
///
/// The hour is generated on the traced model, as a server drives a session: at 60 Hz, a 0.5 s drag (a touch
/// move every tick), then the fling or the pull's refresh running out with a tick and a frame each 16.7 ms,
/// for an hour without a pause (the densest an hour gets: a session that rests records nothing). The store's
/// copy is taken at `samples` moments spread over the hour (a take-over can come at any of them), and each is
/// taken over `repeats` times: the figure is each moment's fastest, p50 and max over the moments. For
/// comparison, the whole hour's trace without snapshots (what a take-over would replay without them) is replayed
/// once.
struct TakeOverBench {
    var sessionSeconds = 3600
    var samples = 60
    var repeats = 3

    struct Figures {
        /// Catch-up per moment, ms.
        var catchUpMilliseconds: [Double]
        /// Operations replayed per moment (the tail after the snapshot).
        var tailOperations: [Int]
        /// The session's operations at the end of the hour.
        var sessionOperations: Int
        /// Bytes of the stored trace per moment (the snapshot's base64 included).
        var traceBytes: [Int]
        /// Bytes of a snapshot.
        var snapshotBytes: Int
        /// Replaying the whole hour without snapshots, ms.
        var fullReplayMilliseconds: Double
        /// Generating the hour, s.
        var generationSeconds: Double
    }

    func run() throws -> Figures {
        let start: Int64 = 1_800_000_000_000_000
        let header = TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1,
            start: Timestamp(microseconds: start))
        var live = try TracedListModel(header: header, limits: TraceLimits())
        var whole = try TracedListModel(header: header, limits: .unlimited)
        let decoder = MessageDecoder()
        let tick: Int64 = 16_667
        let ticks = Int64(sessionSeconds) * 1_000_000 / tick
        // The moments at which the store's copy is read: spread evenly, each a little off the grid.
        var moments = Set((1...samples).map { Int64($0) * ticks / Int64(samples + 1) + Int64($0 * 37 % 101) })
        var stored: [[UInt8]] = []
        var update = MessageBuffer()
        var time = start
        var seq = 0
        let began = ContinuousClock.now
        func apply(_ text: String) {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { raw in
                guard let received = try? decoder.decodeInput(raw) else { return }
                try? live.apply(received, member: 0, at: Timestamp(microseconds: time))
                try? whole.apply(received, member: 0, at: Timestamp(microseconds: time))
            }
        }
        for index in 0..<ticks {
            time += tick
            // A cycle of 4 s: a drag of 30 ticks (down to refresh every other cycle, else up to fling), then the rest.
            let phase = index % 240
            let cycle = index / 240
            let pageTime = Double(index) * 16.667
            if phase == 0 {
                seq += 1
                apply(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":\#(pageTime),"id":1,"seq":\#(seq)}"#)
            } else if phase < 30 {
                seq += 1
                let dy = cycle.isMultiple(of: 2) ? 9.5 : -14.25
                apply(#"{"type":"touch","phase":"move","dx":0,"dy":\#(dy),"t":\#(pageTime),"id":1,"seq":\#(seq)}"#)
            } else if phase == 30 {
                seq += 1
                apply(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":\#(pageTime),"id":1,"seq":\#(seq)}"#)
            } else {
                live.advance(to: Timestamp(microseconds: time))
                whole.advance(to: Timestamp(microseconds: time))
            }
            update.removeAll()
            live.frame(appendingUpdateTo: &update)
            update.removeAll()
            whole.frame(appendingUpdateTo: &update)
            _ = live.takeEvents()
            _ = whole.takeEvents()
            if moments.remove(index) != nil { stored.append(live.recorder.json()) }
        }
        let generationSeconds = Self.seconds(ContinuousClock.now - began)
        var catchUp: [Double] = []
        var tails: [Int] = []
        for json in stored {
            var fastest = Double.infinity
            var tail = 0
            for _ in 0..<repeats {
                let began = ContinuousClock.now
                let trace = try Trace(json: json)
                let rebuilt = try TracedListModel.replaying(trace, limits: TraceLimits())
                fastest = min(fastest, Self.seconds(ContinuousClock.now - began) * 1000)
                tail = trace.operations.count
                precondition(rebuilt.recorder.frames == trace.frames)
            }
            catchUp.append(fastest)
            tails.append(tail)
        }
        let wholeJSON = whole.recorder.json()
        let replayBegan = ContinuousClock.now
        _ = try TracedListModel.replaying(Trace(json: wholeJSON), limits: .unlimited)
        let fullReplay = Self.seconds(ContinuousClock.now - replayBegan) * 1000
        return Figures(
            catchUpMilliseconds: catchUp, tailOperations: tails,
            sessionOperations: live.recorder.sessionOperationCount, traceBytes: stored.map(\.count),
            snapshotBytes: live.recorder.snapshot?.count ?? 0, fullReplayMilliseconds: fullReplay,
            generationSeconds: generationSeconds)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The figures as `results.json` keeps them (`cluster.take_over_hour`).
    static func json(_ figures: Figures) -> [String: Any] {
        func spread(_ values: [Double]) -> [String: Any] {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return ["p50": NSNull(), "max": NSNull()] }
            return ["p50": round2(sorted[sorted.count / 2]), "max": round2(sorted.last!)]
        }
        return [
            "catch_up_ms": spread(figures.catchUpMilliseconds), "target_ms": 20,
            "tail_ops": spread(figures.tailOperations.map(Double.init)),
            "trace_bytes": spread(figures.traceBytes.map(Double.init)), "snapshot_bytes": figures.snapshotBytes,
            "session_ops": figures.sessionOperations, "moments": figures.catchUpMilliseconds.count,
            "full_replay_without_snapshots_ms": round1(figures.fullReplayMilliseconds),
            "generation_s": round1(figures.generationSeconds),
        ]
    }
}

/// `value` to two decimals.
private func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }
