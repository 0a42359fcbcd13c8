import RefreshKit
import RefreshSessions
import Testing

@testable import RefreshWire

extension SessionDriver {
    /// A pull of `dy` px in 12 moves, 16 ms apart, with `seq`s, released unless `hold`.
    fileprivate mutating func drag(dy: Double, id: Int = 1, seq: inout Int, hold: Bool = false) throws {
        var t = 1000.0
        seq += 1
        try receive(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":\#(t),"id":\#(id),"seq":\#(seq)}"#)
        for _ in 0..<12 {
            wait(milliseconds: 16)
            t += 16.25
            seq += 1
            try receive(
                #"{"type":"touch","phase":"move","dx":0.25,"dy":\#(dy / 12),"t":\#(t),"id":\#(id),"seq":\#(seq)}"#)
        }
        guard !hold else { return }
        wait(milliseconds: 16)
        seq += 1
        try receive(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":\#(t + 16.25),"id":\#(id),"seq":\#(seq)}"#)
    }
}

@Suite struct SessionSnapshotTests {
    @Test func doublesComeBackBitForBit() throws {
        let values: [Double] = [
            0, -0.0, 1, -1, 1.0 / 3, .pi, .ulpOfOne, 1.0.nextUp, 1.0.nextDown,
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown,
            Double(bitPattern: 1 << 40), -Double(bitPattern: 0x0008_0000_0000_0000), .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude,
            .infinity, -.infinity, 123_456_789.123_456_78, -1e-300, 0x1p-1074, 0x1.fffffffffffffp+1023,
        ]
        var bytes: [UInt8] = []
        try SnapshotEncoder().encode(values).write(into: &bytes)
        let back = try SnapshotDecoder().decode([Double].self, from: SnapshotValue.read(bytes[...]))
        #expect(back.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(back[1].sign == .minus && back[1] == 0, "-0.0 keeps its sign")
        #expect(back[12].isSubnormal && back[13].isSubnormal)
        let point = Point(x: -0.0, y: .leastNonzeroMagnitude)
        var pointBytes: [UInt8] = []
        try SnapshotEncoder().encode(point).write(into: &pointBytes)
        let decoded = try SnapshotDecoder().decode(Point.self, from: SnapshotValue.read(pointBytes[...]))
        #expect(decoded.x.bitPattern == point.x.bitPattern && decoded.y.bitPattern == point.y.bitPattern)
    }

    @Test func base64IsRFC4648AndRefusesWhatIsNot() {
        // RFC 4648, section 10's test vectors
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE="]
        for (plain, coded) in vectors {
            var text: [UInt8] = []
            Base64.encode(Array(plain.utf8), into: &text)
            #expect(String(decoding: text, as: UTF8.self) == coded)
            #expect(Base64.decode(Array(coded.utf8)) == Array(plain.utf8))
        }
        for bad in ["Zg=", "Z===", "Zh==", "Zm9v!A==", "=Zm9"] {
            #expect(Base64.decode(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func aRestoredSnapshotMakesTheSameFramesAsTheLiveSession() throws {
        var live = try SessionDriver(seed: 11, start: 7_000_000_000)
        var seq = 0
        try live.receive(#"{"type":"command","name":"scrollBy","amount":400}"#)
        live.wait(milliseconds: 400)
        try live.drag(dy: -120, seq: &seq)  // a fling up: decelerating when the snapshot is taken
        live.wait(milliseconds: 50)
        let encoded = live.traced.snapshot().encoded()
        let snapshot = try SessionSnapshot(encoded: encoded)
        #expect(snapshot.model == live.traced.model, "every field of the model comes back")
        var restored = live
        restored.traced = TracedListModel(
            header: live.traced.recorder.header, snapshot: snapshot, encoded: encoded)
        restored.updates = []
        let before = live.updates.count
        for session in [0, 1] {
            var driven = session == 0 ? live : restored
            var drivenSeq = seq
            driven.wait(milliseconds: 300)
            try driven.drag(dy: 300, id: 2, seq: &drivenSeq)  // a pull to refresh, and its refresh
            driven.wait(milliseconds: 2500)
            if session == 0 { live = driven } else { restored = driven }
        }
        #expect(restored.updates.count > 50)
        #expect(Array(live.updates[before...]) == restored.updates, "the same update messages, byte for byte")
        #expect(restored.traced.recorder.frames == live.traced.recorder.frames)
        #expect(restored.traced.model == live.traced.model)
    }

    @Test func aSnapshotOfAnotherVersionOrDamagedIsAClearError() throws {
        let session = try SessionDriver(seed: 11, start: 7_000_000_000)
        var encoded = session.traced.snapshot().encoded()
        #expect(Array(encoded.prefix(5)) == Array("RKSS".utf8) + [2])
        encoded[4] = 3
        #expect(throws: TraceError.self) { try SessionSnapshot(encoded: encoded) }
        do {
            _ = try SessionSnapshot(encoded: encoded)
        } catch {
            #expect(error.message.contains("format version 3") && error.message.contains("reads version 2"))
        }
        encoded[4] = 2
        #expect(throws: TraceError.self) { try SessionSnapshot(encoded: Array(encoded.dropLast(3))) }
        #expect(throws: TraceError.self) { try SessionSnapshot(encoded: Array("RKSX".utf8) + [1, 0]) }
    }

    /// A recording that snapshots every 300 operations: what is exported is a snapshot and the operations after
    /// it; importing it and replaying it (as `refreshkit replay` does) makes the live frames after the snapshot,
    /// byte for byte, and a session rebuilt from it (a take-over) exports the very same bytes.
    @Test func aTraceFromASnapshotExportsImportsAndReplaysByteExact() throws {
        var live = try SessionDriver(seed: 11, start: 7_000_000_000, limits: TraceLimits(snapshotOperations: 300))
        var seq = 0
        for round in 0..<6 {
            try live.drag(dy: round.isMultiple(of: 2) ? 260 : -200, seq: &seq)
            live.wait(milliseconds: 900)
        }
        try live.drag(dy: 40, id: 3, seq: &seq, hold: true)
        let recorder = live.traced.recorder
        #expect(recorder.snapshotCount >= 2 && recorder.operationCount < 300 + 2)
        #expect(recorder.sessionOperationCount > recorder.operationCount)
        let exported = recorder.json()
        let trace = try Trace(json: exported)
        #expect(trace.snapshot == recorder.snapshot && trace.operations.count == recorder.operationCount)
        let frames = trace.operations.filter { $0 == .frame }.count
        var replayed: [[UInt8]] = []
        let result = try TraceReplay(trace).run { _, message in replayed.append(Array(message)) }
        #expect(result.matches && result.frames == recorder.frames)
        #expect(replayed.count == frames)
        #expect(replayed == Array(live.frames.suffix(frames)), "the live frames after the snapshot, byte for byte")
        let rebuilt = try TracedListModel.replaying(trace, limits: TraceLimits(snapshotOperations: 300))
        #expect(rebuilt.recorder.json() == exported, "a take-over exports the same trace, byte for byte")
        #expect(rebuilt.pointersDown.map(\.pointer) == [3], "the finger still down, from the tail")
    }
}
