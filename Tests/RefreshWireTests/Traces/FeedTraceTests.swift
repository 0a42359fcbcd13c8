import RefreshKit
import RefreshSessions
import RefreshWire
import Testing

/// A session on an external feed, its source's answers scripted: recorded, exported, read back and replayed
/// with no source at all, to the same frames (docs/TRACE.md, "The feed source's answers").
struct FeedTraceTests {
    /// The scripted source: items 1…total, item `n` published at `n` s; pages of `limit` newest first; the
    /// cursor is the last id of a page.
    struct ScriptedSource {
        var total = 45

        func answer(_ request: SourceRequest) -> FeedPage {
            let top: Int
            switch request.request.position {
            case .newest: top = total
            case .olderThan(let cursor): top = (Int(cursor.value) ?? 1) - 1
            case .newerThan, .around: top = total
            }
            let ids = Array(stride(from: top, to: max(0, top - request.request.limit), by: -1))
            let items = ids.map {
                FeedItem(id: "\($0)", text: "Item \($0)", author: "scripted", timeMicros: Int64($0) * 1_000_000)
            }
            return FeedPage(
                items: items, olderCursor: ids.last.map { FeedCursor("\($0)") }, newerCursor: nil,
                hasMore: (ids.last ?? 1) > 1)
        }
    }

    /// Drives a traced session as the server does (ticks, a frame after each change) and answers each of its
    /// source requests `latencyMs` later as the host would: through ``TracedListModel/apply(feedAnswer:at:)``.
    struct Driver {
        var traced: TracedListModel
        var now: Int64
        var source = ScriptedSource()
        var frames = 0
        var submitted = 0

        init() throws {
            now = 7_000_000_000
            traced = try TracedListModel(
                header: TraceHeader(
                    preset: "ios", viewport: Size(width: 390, height: 600), devicePixelRatio: 2, seed: 3,
                    start: Timestamp(microseconds: now), feedSource: "scripted:test"))
            frame()
        }

        mutating func frame() {
            var update = MessageBuffer()
            traced.frame(appendingUpdateTo: &update)
            frames += 1
            _ = traced.takeEvents()  // as a host (and the replay) does
        }

        /// Lets `milliseconds` pass; a request running for `latencyMs` is answered.
        mutating func wait(milliseconds: Int64, latencyMs: Int64 = 80, answering: Bool = true) throws {
            let end = now + milliseconds * 1000
            while now < end {
                let tick = nextServerTick(of: traced.model, after: now, until: end)
                if answering, let request = traced.model.sourceRequest, request.id > submitted {
                    let answerAt = request.issued.microseconds + latencyMs * 1000
                    if answerAt <= tick.time {
                        now = max(now, answerAt)
                        submitted = request.id
                        let answer = FeedAnswerInput(
                            request: request.id, outcome: .page(source.answer(request)), durationMs: Double(latencyMs))
                        try traced.apply(feedAnswer: answer, at: Timestamp(microseconds: now))
                        frame()
                        continue
                    }
                }
                now = tick.time
                if tick.due {
                    traced.advance(to: Timestamp(microseconds: now))
                    frame()
                }
            }
        }

        mutating func receive(_ text: String) throws {
            let bytes = Array(text.utf8)
            try bytes.withUnsafeBytes { raw in
                let received = try #require(try MessageDecoder().decodeInput(raw))
                try traced.apply(received, member: 0, at: Timestamp(microseconds: now))
            }
            frame()
        }
    }

    @Test func aSessionOnAnExternalFeedReplaysWithoutItsSource() throws {
        var driver = try Driver()
        try driver.wait(milliseconds: 500)
        #expect(driver.traced.model.pager.items.count == 20)
        try driver.receive(#"{"type":"command","name":"scrollToEdge","edge":"bottom","animated":false}"#)
        try driver.wait(milliseconds: 1_500)
        #expect(driver.traced.model.pager.items.count == 40)
        // New items at the source, a refresh that reaches the top item: they go on top.
        driver.source.total = 48
        try driver.receive(#"{"type":"command","name":"scrollToEdge","edge":"top","animated":false}"#)
        try driver.receive(#"{"type":"command","name":"refresh","edge":"top"}"#)
        try driver.wait(milliseconds: 2_000)
        #expect(driver.traced.model.pager.items.first?.id == "48")
        #expect(driver.traced.model.rowLayout.rowCount == 43)
        // The window holds two pages' worth (docs/LAYOUT.md, "The window's size"): the page far below is dropped.
        #expect(driver.traced.model.pager.items.count == 23)
        // A request the source never answers fails at its deadline, and its late answer is recorded and dropped.
        try driver.receive(#"{"type":"command","name":"refresh","edge":"top"}"#)
        let lost = try #require(driver.traced.model.sourceRequest)
        try driver.wait(milliseconds: 12_000, answering: false)
        #expect(driver.traced.model.sourceRequest == nil)
        try driver.traced.apply(
            feedAnswer: FeedAnswerInput(
                request: lost.id, outcome: .page(driver.source.answer(lost)), durationMs: 12_000),
            at: Timestamp(microseconds: driver.now))
        driver.frame()

        let json = driver.traced.recorder.json()
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""feedSource":"scripted:test""#))
        #expect(text.contains(#""member":-1,"apply":{"type":"feed_answer","request":1,"#))
        let trace = try Trace(json: json)
        #expect(trace.header.feedSource == "scripted:test")
        let result = try TraceReplay(trace).run()
        #expect(result.matches && result.refused == 0)
        #expect(result.frames == driver.traced.recorder.frames)
        #expect(result.model == driver.traced.model)
        // Exported again, the read-back trace is the same text.
        let again = try TracedListModel.replaying(trace, limits: .unlimited)
        #expect(again.recorder.json() == json)
        #expect(again.model.pager.items == driver.traced.model.pager.items)
    }

    @Test func aTraceWithoutASourceExportsAsBefore() throws {
        let traced = try TracedListModel(
            header: TraceHeader(
                preset: "ios", viewport: Size(width: 390, height: 600), devicePixelRatio: 2, seed: 3, start: .zero))
        let text = String(decoding: traced.recorder.json(), as: UTF8.self)
        #expect(!text.contains("feedSource"))
        #expect(try Trace(json: traced.recorder.json()).header.feedSource == nil)
    }
}
