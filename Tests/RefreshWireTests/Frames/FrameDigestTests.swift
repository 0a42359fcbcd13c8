import Foundation
import RefreshKit
import RefreshSessions
import RefreshWire
import Testing

/// The frames' digest of a trace: over their values as written (what the server records), or over their text
/// (traces recorded before, which still replay).
@Suite("Frame digests")
struct FrameDigestTests {
    private func valueDigest(_ frame: Frame) -> UInt64 {
        var digest = FrameDigest(kind: .values)
        digest.add(frame)
        return digest.value
    }

    private func text(_ frame: Frame) -> [UInt8] {
        var bytes: [UInt8] = []
        MessageEncoder().encode(frame, into: &bytes)
        return bytes
    }

    /// Two frames have the same value digest exactly when their `frame` messages are the same text: a change the
    /// text shows is a change of digest, a change it hides is none.
    @Test func theValueDigestSeesWhatTheTextShows() {
        var g = SeededGenerator(seed: 31)
        var compared = 0
        var alike = 0
        for _ in 0..<3000 {
            let a = RandomValues.frame(&g)
            var b = a
            switch g.int(below: 8) {
            case 0: b.offset.y += 0.0001  // usually hidden by the rounding, sometimes across it
            case 1: b.offset.y = b.offset.y.nextUp
            case 2 where !b.edges.isEmpty: b.edges[0].progress += 4e-7
            case 3 where !b.edges.isEmpty: b.edges[0].cycle = b.edges[0].cycle == nil ? a.edges.first?.cycle : nil
            case 4: b.verticalMotion = b.verticalMotion.isEmpty ? [RandomValues.segment(&g)] : []
            case 5: b.phase = g.element(of: ScrollPhase.allCases)
            case 6: b.feed.hasMore.toggle()
            default: b = RandomValues.frame(&g)
            }
            let sameText = text(a) == text(b)
            #expect(sameText == (valueDigest(a) == valueDigest(b)), "\(a)\n\(b)")
            compared += 1
            if sameText { alike += 1 }
        }
        #expect(alike > 100 && alike < compared - 100)  // both sides of the property were exercised
    }

    @Test func theOrderAndTheCountOfFramesMatter() throws {
        var g = SeededGenerator(seed: 5)
        let a = RandomValues.frame(&g)
        let b = RandomValues.frame(&g)
        var ab = FrameDigest(kind: .values)
        ab.add(a)
        ab.add(b)
        var ba = FrameDigest(kind: .values)
        ba.add(b)
        ba.add(a)
        #expect(ab.kind == .values && ab.count == 2 && ab != ba)
    }

    /// A trace recorded before value digests (no `digestOf`, a digest of the frames' text) replays against its
    /// own kind of digest.
    @Test func aTraceWithATextDigestStillReplays() throws {
        let header = TraceHeader(
            preset: "jh", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 4,
            start: Timestamp(microseconds: 1_000_000))
        var traced = try TracedListModel(header: header, digest: .text)
        var now: Int64 = 1_000_000
        var messages = [#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":10,"id":1}"#]
        for i in 1...20 {
            messages.append(#"{"type":"touch","phase":"move","dx":0,"dy":9,"t":\#(10 + 16 * i),"id":1}"#)
        }
        messages.append(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":400,"id":1}"#)
        var texts: [[UInt8]] = []
        for message in messages {
            now += 16_000
            guard case .input(let input, _) = try decode(message) else { return }
            try Array(message.utf8).withUnsafeBytes {
                try traced.apply(ReceivedInput(input, text: $0), member: 0, at: Timestamp(microseconds: now))
            }
            var bytes: [UInt8] = []
            MessageEncoder().encode(nextFrame(&traced), into: &bytes)
            texts.append(bytes)
        }
        // The digest is FNV-1a over the messages' bytes, as docs/TRACE.md says.
        var expected: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in texts.joined() { expected = (expected ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        #expect(traced.recorder.frames.value == expected)

        let json = String(decoding: traced.recorder.json(), as: UTF8.self)
        #expect(json.contains(#","digestOf":"text","#))
        let old = json.replacingOccurrences(of: #","digestOf":"text""#, with: "")
        let trace = try Trace(json: Array(old.utf8))
        #expect(trace.frames.kind == .text)
        let result = try TraceReplay(trace).run()
        #expect(result.matches && result.frames.count == UInt64(messages.count))
        // The same trace as a value-digest recording does not match a text digest, and the other way round.
        let mislabelled = try Trace(
            json: Array(json.replacingOccurrences(of: #""digestOf":"text""#, with: #""digestOf":"values""#).utf8))
        #expect(try !TraceReplay(mislabelled).run().matches)
    }

    /// The drag of `aTraceWithATextDigestStillReplays`, recorded with a digest of `kind`; `produce` makes each
    /// frame (one of TracedListModel's three ways) and returns the bytes it appended, if any.
    private func recordDrag(
        _ kind: FrameDigest.Kind, produce: (inout TracedListModel, inout [UInt8]) -> Void
    ) throws -> (traced: TracedListModel, messages: [[UInt8]]) {
        let header = TraceHeader(
            preset: "gv", viewport: Size(width: 390, height: 844), devicePixelRatio: 2, seed: 9,
            start: Timestamp(microseconds: 2_000_000))
        var traced = try TracedListModel(header: header, digest: kind)
        var now: Int64 = 2_000_000
        var texts = [#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":10,"id":1}"#]
        for i in 1...30 { texts.append(#"{"type":"touch","phase":"move","dx":0,"dy":7,"t":\#(10 + 16 * i),"id":1}"#) }
        texts.append(#"{"type":"touch","phase":"end","dx":0,"dy":0,"t":600,"id":1}"#)
        var messages: [[UInt8]] = []
        for text in texts {
            now += 16_000
            guard case .input(let input, _) = try decode(text) else { throw TraceError("not an input") }
            try Array(text.utf8).withUnsafeBytes {
                try traced.apply(ReceivedInput(input, text: $0), member: 0, at: Timestamp(microseconds: now))
            }
            var bytes: [UInt8] = []
            produce(&traced, &bytes)
            messages.append(bytes)
        }
        for _ in 0..<40 {  // the spring back and the refresh
            now += 16_667
            traced.advance(to: Timestamp(microseconds: now))
            var bytes: [UInt8] = []
            produce(&traced, &bytes)
            messages.append(bytes)
        }
        return (traced, messages)
    }

    /// The server's digest: over the messages a page that takes deltas receives, as docs/TRACE.md says.
    @Test func theDeltasDigestIsOverTheMessagesAPageReceives() throws {
        let (traced, messages) = try recordDrag(.deltas) { traced, bytes in bytes = update(&traced) }
        #expect(String(decoding: messages[0], as: UTF8.self).hasPrefix(#"{"type":"frame","#))
        #expect(messages.dropFirst().allSatisfy { String(decoding: $0, as: UTF8.self).hasPrefix(#"{"type":"delta","#) })
        var expected: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ word: UInt64) {
            let hash = (expected ^ word) &* 0x0000_0100_0000_01b3
            expected = hash ^ (hash >> 32)
        }
        for message in messages {
            mix(UInt64(message.count))
            for start in stride(from: 0, to: message.count, by: 8) {
                var word: UInt64 = 0
                for (k, byte) in message[start..<min(start + 8, message.count)].enumerated() {
                    word |= UInt64(byte) << UInt64(8 * k)
                }
                mix(word)
            }
        }
        #expect(traced.recorder.frames.kind == .deltas && traced.recorder.frames.count == UInt64(messages.count))
        #expect(traced.recorder.frames.value == expected)
        // Whatever else a caller writes of the frames (the replay encodes whole ones), the digest is the same.
        let whole = try recordDrag(.deltas) { traced, bytes in MessageEncoder().encode(nextFrame(&traced), into: &bytes)
        }
        #expect(whole.traced.recorder.frames == traced.recorder.frames)
    }

    /// Traces of every kind replay against their own kind, and not against another.
    @Test func everyDigestKindReplays() throws {
        for kind in FrameDigest.Kind.allCases {
            let (traced, _) = try recordDrag(kind) { traced, bytes in bytes = update(&traced) }
            let json = String(decoding: traced.recorder.json(), as: UTF8.self)
            #expect(json.contains(#","digestOf":"\#(kind.rawValue)","#))
            let result = try TraceReplay(try Trace(json: Array(json.utf8))).run()
            #expect(result.matches, "\(kind)")
            for other in FrameDigest.Kind.allCases where other != kind {
                let relabelled = json.replacingOccurrences(
                    of: #""digestOf":"\#(kind.rawValue)""#, with: #""digestOf":"\#(other.rawValue)""#)
                #expect(try !TraceReplay(try Trace(json: Array(relabelled.utf8))).run().matches, "\(kind) as \(other)")
            }
        }
    }

    @Test func anUnknownDigestKindIsRefused() {
        let text =
            #"{"format":"refreshkit.trace.v1","preset":"ios","viewport":{"w":390,"h":844},"dpr":3,"seed":1,"start":0,"#
            + #""ops":[],"frames":0,"digest":"cbf29ce484222325","digestOf":"md5","truncated":false}"#
        #expect(throws: TraceError.self) { try Trace(json: Array(text.utf8)) }
        do {
            _ = try Trace(json: Array(text.utf8))
        } catch {
            #expect(error.message.contains("digestOf"))
        }
    }
}

/// `traced`'s next frame, made the one way frames are made.
private func nextFrame(_ traced: inout TracedListModel) -> SharedFrame {
    var buffer = MessageBuffer()
    return traced.frame(appendingUpdateTo: &buffer)
}

/// The message that brings a page holding the previous frame to `traced`'s next one, as the server writes it.
private func update(_ traced: inout TracedListModel) -> [UInt8] {
    var buffer = MessageBuffer(headroom: 16)
    traced.frame(appendingUpdateTo: &buffer)
    return buffer.bytes
}
