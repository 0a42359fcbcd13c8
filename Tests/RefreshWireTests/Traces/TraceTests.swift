import Foundation
import RefreshKit
import RefreshSessions
import RefreshWire
import Testing

extension SessionDriver {
    /// A finger drag of `dy` in `steps` moves, 16 ms apart (page time `t` from `pageTime`).
    fileprivate mutating func drag(dy: Double, steps: Int = 12, pageTime: Double = 1000, member: Int = 0, id: Int = 1)
        throws
    {
        var t = pageTime
        try receive(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":\#(t),"id":\#(id)}"#, member: member)
        for _ in 0..<steps {
            wait(milliseconds: 16)
            t += 16.25
            try receive(
                #"{"type":"touch","phase":"move","dx":0,"dy":\#(dy / Double(steps)),"t":\#(t),"id":\#(id)}"#,
                member: member)
        }
        wait(milliseconds: 16)
        t += 16.25
        try receive(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":\#(t),"id":\#(id)}"#, member: member)
    }

}

/// A session with a pull-to-refresh, a second member's touch, a wheel, a configure and a load-more.
private func recordedScenario(
    limits: TraceLimits = .init(), digest: FrameDigest.Kind = .deltas
) throws -> SessionDriver {
    var driver = try SessionDriver(limits: limits, digest: digest)
    try driver.receive(#"{"type":"configure","feed":{"latencyMs":400}}"#)
    try driver.drag(dy: 300)
    driver.wait(milliseconds: 100)
    // Another device touches while nobody drags, then drags down a little.
    try driver.drag(dy: 40, steps: 4, pageTime: 88_000.5, member: 1, id: 1)
    driver.wait(milliseconds: 1_500)
    try driver.receive(#"{"type":"wheel","dx":0,"dy":120,"mode":0,"t":3000}"#)
    driver.wait(milliseconds: 300)
    try driver.receive(#"{"type":"command","name":"scrollToEdge","edge":"bottom"}"#)
    driver.wait(milliseconds: 2_000)
    try driver.receive(#"{"type":"resize","viewport":{"w":400,"h":700}}"#)
    driver.wait(milliseconds: 500)
    return driver
}

@Suite("Traces: record, export, replay")
struct TraceTests {
    @Test func replayGivesTheSameFramesByteForByte() throws {
        let driver = try recordedScenario()
        let json = driver.json
        let trace = try Trace(json: json)
        #expect(trace.header.preset == "ios" && trace.header.seed == 7 && trace.header.devicePixelRatio == 3)
        #expect(trace.header.start == Timestamp(microseconds: 5_000_000_000))
        #expect(!trace.truncated)
        #expect(trace.frames.count == UInt64(driver.frames.count))

        var replayed: [[UInt8]] = []
        let result = try TraceReplay(trace).run { _, bytes in replayed.append(Array(bytes)) }
        #expect(result.matches)
        #expect(result.frames == driver.traced.recorder.frames)
        #expect(replayed == driver.frames)
        #expect(result.events == driver.events)
        #expect(result.model == driver.traced.model)
        // The scenario did what it claims: a refresh ran and finished, and new rows came in.
        let transitions = result.events.filter { $0.name == .transition && $0.edge == .top }.compactMap(\.to)
        #expect(transitions.contains(.refreshing) && transitions.contains(.finishing))
        #expect(result.events.contains { $0.name == .feedLoaded })
    }

    /// A trace of the format before (docs/TRACE.md, "Versions") is still read and replayed: its transitions and
    /// final state come out, and its frames, made when they carried the simulated feed's `newest`, are not compared.
    @Test func aVersionOneTraceIsReplayedWithoutComparingItsFrames() throws {
        let driver = try recordedScenario()
        let text = String(decoding: driver.json, as: UTF8.self)
            .replacingOccurrences(of: Trace.format, with: Trace.formatV1)
        let trace = try Trace(json: Array(text.utf8))
        #expect(trace.version == 1)
        let result = try TraceReplay(trace).run()
        #expect(!result.checked && !result.matches)
        #expect(result.events == driver.events)
        #expect(try TraceReplay(Trace(json: driver.json)).run().checked)
    }

    /// The digests' definitions (docs/TRACE.md) are a format: traces exported by earlier servers carry them,
    /// so a faster implementation must give the same words (pinned for trace format v2). Pinned on a scenario that digests every kind of
    /// value (strings longer and shorter than a word, motion chains, cycles, exits, absent members).
    @Test(arguments: [(FrameDigest.Kind.values, "5c736bdd5b74498f"), (.deltas, "3ca2a90b4762bbb6")])
    func theDigestOfAScenarioIsPinned(kind: FrameDigest.Kind, hex: String) throws {
        let driver = try recordedScenario(digest: kind)
        #expect(driver.traced.recorder.frames.kind == kind)
        #expect(driver.traced.recorder.frames.count == 145)
        #expect(driver.traced.recorder.frames.hex == hex)
    }

    @Test func aMutatedTraceGivesADifferentDigest() throws {
        let driver = try recordedScenario()
        var text = String(decoding: driver.json, as: UTF8.self)
        let original = #""dy":25.0,"#
        #expect(text.contains(original))
        text = text.replacingOccurrences(of: original, with: #""dy":25.5,"#)
        let mutated = try Trace(json: Array(text.utf8))
        let result = try TraceReplay(mutated).run()
        #expect(!result.matches)
        #expect(result.frames.value != mutated.frames.value)
        #expect(result.frames.count == mutated.frames.count)  // same operations, different frames
    }

    @Test func theExportIsJSONThatFoundationReads() throws {
        let driver = try recordedScenario()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(driver.json)) as? [String: Any])
        #expect(object["format"] as? String == "refreshkit.trace.v2")
        let ops = try #require(object["ops"] as? [[String: Any]])
        #expect(ops.count == driver.traced.recorder.operationCount)
        let apply = try #require(ops.first { $0["apply"] != nil })
        #expect((apply["apply"] as? [String: Any])?["type"] as? String == "configure")
        #expect(apply["member"] as? Int == 0)
        #expect(ops.contains { $0["member"] as? Int == 1 })
        #expect(object["digest"] as? String == driver.traced.recorder.frames.hex)
        #expect(object["truncated"] as? Bool == false)
    }

    @Test func theTraceMessageWrapsTheTrace() throws {
        let driver = try SessionDriver()
        var message: [UInt8] = []
        driver.traced.recorder.encodeMessage(into: &message)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any])
        #expect(object["type"] as? String == "trace")
        #expect((object["trace"] as? [String: Any])?["frames"] as? Int == 1)
    }

    @Test func aTruncatedTraceStillReplaysWhatItRecorded() throws {
        let driver = try recordedScenario(limits: TraceLimits(maxOperations: 40))
        let recorder = driver.traced.recorder
        #expect(recorder.truncated && recorder.operationCount == 40)
        #expect(recorder.frames.count < UInt64(driver.frames.count))
        let trace = try Trace(json: driver.json)
        #expect(trace.truncated && trace.operations.count == 40)
        let result = try TraceReplay(trace).run()
        #expect(result.matches)

        let bytesBound = try recordedScenario(limits: TraceLimits(maxBytes: 2_000))
        #expect(bytesBound.traced.recorder.truncated && bytesBound.traced.recorder.byteCount <= 2_000)
        #expect(try TraceReplay(Trace(json: bytesBound.json)).run().matches)

        let off = try recordedScenario(limits: TraceLimits(maxOperations: 0))
        let empty = try Trace(json: off.json)
        #expect(empty.truncated && empty.operations.isEmpty && empty.frames.count == 0)
        #expect(try TraceReplay(empty).run().matches)
    }

    /// Two members number their inputs (`seq`): the trace holds the messages as received, seq included, so the
    /// replay rebuilds each frame's `ack` and gives the frames byte for byte, digest included; a changed seq
    /// changes the digest.
    @Test func aTraceWithSeqdInputsFromTwoMembersReplaysWithTheirAcks() throws {
        var driver = try SessionDriver()
        var t = 1000.0
        try driver.receive(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":\#(t),"id":1,"seq":1}"#, member: 0)
        for seq in 2...9 {
            driver.wait(milliseconds: 16)
            t += 16.5
            try driver.receive(#"{"type":"touch","phase":"move","dx":0,"dy":-12,"t":\#(t),"id":1,"seq":\#(seq)}"#)
            if seq % 3 == 0 {  // the other device's wheel meanwhile, in its own numbering
                try driver.receive(
                    #"{"type":"wheel","dx":0,"dy":30,"mode":0,"t":\#(t + 7000),"seq":\#(500 + seq)}"#, member: 1)
            }
        }
        try driver.receive(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":\#(t + 16),"id":1,"seq":10}"#)
        try driver.receive(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":9000,"id":4,"seq":510}"#, member: 1)
        driver.wait(milliseconds: 800)
        let last = String(decoding: try #require(driver.frames.last), as: UTF8.self)
        #expect(last.hasSuffix(#","ack":{"0":10,"1":510}}"#), "\(last)")

        let trace = try Trace(json: driver.json)
        var replayed: [[UInt8]] = []
        let result = try TraceReplay(trace).run { _, bytes in replayed.append(Array(bytes)) }
        #expect(result.matches)
        #expect(replayed == driver.frames)
        #expect(result.frames == driver.traced.recorder.frames)

        // The digest covers the acks: the same inputs with another seq make other frames.
        let text = String(decoding: driver.json, as: UTF8.self)
        #expect(text.contains(#""seq":510}"#))
        let renumbered = try Trace(
            json: Array(text.replacingOccurrences(of: #""seq":510}"#, with: #""seq":511}"#).utf8))
        #expect(!(try TraceReplay(renumbered).run().matches))
    }

    @Test func oneMemberOwnsADragUntilItLifts() throws {
        var driver = try SessionDriver()
        try driver.receive(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":100,"id":1}"#, member: 0)
        try driver.receive(#"{"type":"touch","phase":"move","dx":0,"dy":30,"t":116,"id":1}"#, member: 0)
        let pulled = driver.traced.model.scroll.offset.y
        // The other device has the same pointer id: it is another pointer all the same, and is ignored.
        try driver.receive(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":5000,"id":1}"#, member: 1)
        try driver.receive(#"{"type":"touch","phase":"move","dx":0,"dy":-200,"t":5016,"id":1}"#, member: 1)
        try driver.receive(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":5032,"id":1}"#, member: 1)
        #expect(driver.traced.model.scroll.offset.y == pulled)
        #expect(driver.traced.model.scroll.phase == .dragging)
        try driver.receive(#"{"type":"touch","phase":"move","dx":0,"dy":30,"t":132,"id":1}"#, member: 0)
        #expect(driver.traced.model.scroll.offset.y < pulled)
        try driver.receive(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":148,"id":1}"#, member: 0)
        #expect(driver.traced.model.scroll.phase != .dragging)
        #expect(TracedListModel.pointer(1, member: 1) != TracedListModel.pointer(1, member: 0))
    }

    @Test func unreadableTracesAreRefusedClearly() {
        func error(_ text: String) -> String? {
            do {
                _ = try Trace(json: Array(text.utf8))
                return nil
            } catch {
                return error.message
            }
        }
        #expect(error("[]")?.contains("not an object") == true)
        #expect(error(#"{"format":"other"}"#)?.contains("format") == true)
        #expect(error("{") != nil)
        let head = #"{"format":"refreshkit.trace.v2","preset":"ios","viewport":{"w":390,"h":844},"dpr":3,"seed":1,"#
        let tail = #","frames":0,"digest":"cbf29ce484222325","truncated":false}"#
        #expect(error(head + #""start":0,"ops":[]"# + tail) == nil)
        #expect(error(head + #""start":0.5,"ops":[]"# + tail)?.contains("start") == true)
        #expect(error(head + #""start":0,"ops":[{"t":1}]"# + tail)?.contains("ops[0]") == true)
        #expect(error(head + #""start":0,"ops":[{"apply":{}}]"# + tail)?.contains("ops[0]") == true)
        // An operation that does not decode is reported with its index when replayed.
        let badApply = try? Trace(
            json: Array((head + #""start":0,"ops":[{"t":1,"apply":{"type":"touch"}}]"# + tail).utf8))
        #expect(badApply != nil)
        if let badApply {
            #expect(throws: TraceError.self) { try TraceReplay(badApply).run() }
        }
    }

    @Test func seedsAboveTwoToThe53AreKeptExactly() throws {
        let header = TraceHeader(
            preset: "gv", viewport: Size(width: 320.5, height: 600), devicePixelRatio: 2.625, seed: .max,
            start: Timestamp(microseconds: -12))
        let recorder = TraceRecorder(header: header)
        let trace = try Trace(json: recorder.json())
        #expect(trace.header == header)
    }

    /// A recorder keeps its operations in chunks that its copies share until they record: each copy then
    /// records on its own, as a value does.
    @Test func copiesOfARecorderRecordOnTheirOwn() {
        let header = TraceHeader(
            preset: "gv", viewport: Size(width: 320, height: 600), devicePixelRatio: 2, seed: 7,
            start: Timestamp(microseconds: 0))
        func record(_ recorder: inout TraceRecorder, dy: Int, count: Int) {
            for index in 0..<count {
                let text = Array(#"{"type":"wheel","dx":0,"dy":\#(dy),"mode":0,"t":\#(index)}"#.utf8)
                text.withUnsafeBytes { recorder.recordApply($0, member: 0, at: Timestamp(microseconds: Int64(index))) }
                recorder.recordAdvance(to: Timestamp(microseconds: Int64(index) + 1))
            }
        }
        // Several chunks each, the last of the shared ones partly used.
        var original = TraceRecorder(header: header)
        record(&original, dy: 1, count: 300)
        var copy = original
        record(&copy, dy: 2, count: 1)
        record(&original, dy: 3, count: 300)
        record(&copy, dy: 4, count: 300)
        var originalAlone = TraceRecorder(header: header)
        record(&originalAlone, dy: 1, count: 300)
        record(&originalAlone, dy: 3, count: 300)
        var copyAlone = TraceRecorder(header: header)
        record(&copyAlone, dy: 1, count: 300)
        record(&copyAlone, dy: 2, count: 1)
        record(&copyAlone, dy: 4, count: 300)
        #expect(original.json() == originalAlone.json())
        #expect(copy.json() == copyAlone.json())
        #expect(original.json() != copy.json())
    }

    @Test func helloSeedAndTraceDecode() throws {
        #expect(try decode(#"{"type":"trace"}"#) == .trace)
        let hello = try decode(#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"seed":42}"#)
        #expect(hello == .hello(Hello(viewport: Size(width: 1, height: 1), dpr: 1, seed: 42)))
        expectError(#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"seed":-1}"#, .outOfRange, ref: "hello")
        expectError(#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"seed":1.5}"#, .badField, ref: "hello")
    }

    @Test func welcomeCarriesMemberResumedNoticeAndTheCAPage() throws {
        let session = try ListModel(viewport: Size(width: 390, height: 844), time: .zero)
        let welcome = Welcome(
            session: "s", token: "t", preset: "ios", presets: ["ios"], configuration: session.configuration,
            serverTime: .zero, member: 2, resumed: true, notice: "session_expired", share: "https://192.168.1.23:8080",
            authority: "/ca")
        let object = try foundationObject { encoder, buffer in encoder.encode(welcome, into: &buffer) }
        #expect(object["share"] as? String == "https://192.168.1.23:8080")
        #expect(object["ca"] as? String == "/ca")
        #expect(object["member"] as? Int == 2)
        #expect(object["resumed"] as? Bool == true)
        #expect(object["notice"] as? String == "session_expired")
        let room = try foundationObject { encoder, buffer in encoder.encodeRoom(members: 3, member: 1, into: &buffer) }
        #expect(room["type"] as? String == "room" && room["members"] as? Int == 3 && room["member"] as? Int == 1)
    }
}
