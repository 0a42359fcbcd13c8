import RefreshKit
import RefreshSessions
import RefreshWire
import Testing

/// A session whose window of pages drops pages and loads them back (docs/LAYOUT.md, "The window, wired"): every
/// reload is a recorded `feed_answer`, so the trace replays without the source to the same frames and the same
/// model, and exports to the same text.
struct WindowTraceTests {
    /// Items 1…total, item `n` at `n` s, newest first; a cursor is an item's id; `newerThan` answers the items
    /// just newer than the cursor, as the SQLite source does.
    static func page(_ request: FeedRequest, total: Int) -> FeedPage {
        var ids: [Int]
        switch request.position {
        case .newest, .around: ids = Array(stride(from: total, to: max(0, total - request.limit), by: -1))
        case .olderThan(let cursor):
            let top = (Int(cursor.value) ?? 1) - 1
            ids = Array(stride(from: top, to: max(0, top - request.limit), by: -1))
        case .newerThan(let cursor):
            let bottom = (Int(cursor.value) ?? 0) + 1
            ids = Array((bottom...min(total, bottom + request.limit - 1)).reversed())
        }
        let hasMore: Bool =
            if case .newerThan = request.position { (ids.first ?? total) < total } else { (ids.last ?? 1) > 1 }
        return FeedPage(
            items: ids.map { FeedItem(id: "\($0)", text: "Item \($0)", timeMicros: Int64($0) * 1_000_000) },
            olderCursor: ids.last.map { FeedCursor("\($0)") }, newerCursor: ids.first.map { FeedCursor("\($0)") },
            hasMore: hasMore)
    }

    @Test func dropsAndReloadsReplayToTheSameFramesAndModel() throws {
        var now: Int64 = 7_000_000_000
        var traced = try TracedListModel(
            header: TraceHeader(
                preset: "ios", viewport: Size(width: 390, height: 600), devicePixelRatio: 2, seed: 3,
                start: Timestamp(microseconds: now), feedSource: "scripted:window"))
        var updates: [RowsUpdate] = []
        func frame() {
            var update = MessageBuffer()
            traced.frame(appendingUpdateTo: &update)
            _ = traced.takeEvents()
            updates += traced.takeRowsUpdates() ?? []
        }
        func serve() throws {
            while let request = traced.model.sourceRequest {
                now += 30_000
                let answer = FeedAnswerInput(
                    request: request.id, outcome: .page(Self.page(request.request, total: 1_000)), durationMs: 30)
                try traced.apply(feedAnswer: answer, at: Timestamp(microseconds: now))
                frame()
            }
        }
        func receive(_ text: String) throws {
            now += 16_667
            let bytes = Array(text.utf8)
            try bytes.withUnsafeBytes { raw in
                let received = try #require(try MessageDecoder().decodeInput(raw))
                try traced.apply(received, member: 0, at: Timestamp(microseconds: now))
            }
            frame()
            try serve()
            now += 500_000
            traced.advance(to: Timestamp(microseconds: now))
            frame()
        }
        try serve()
        for _ in 0..<8 {
            try receive(#"{"type":"command","name":"scrollToEdge","edge":"bottom","animated":false}"#)
            try receive(#"{"type":"command","name":"loadMore","edge":"bottom","animated":false}"#)
        }
        #expect(traced.model.rowLayout.placeholdersAbove > 0)
        for _ in 0..<20 { try receive(#"{"type":"command","name":"scrollBy","amount":-1500,"animated":false}"#) }
        #expect(traced.model.rowLayout.placeholdersAbove == 0)
        #expect(traced.model.pager.items.first?.id == "1000")
        #expect(updates.contains { if case .dropped(.above, _) = $0.change { true } else { false } })
        #expect(updates.contains { if case .reloaded(.above, _, _) = $0.change { true } else { false } })

        let json = traced.recorder.json()
        let trace = try Trace(json: json)
        let result = try TraceReplay(trace).run()
        #expect(result.matches && result.refused == 0)
        #expect(result.frames == traced.recorder.frames)
        let again = try TracedListModel.replaying(trace, limits: .unlimited)
        #expect(again.recorder.json() == json)
        #expect(again.model.rowLayout == traced.model.rowLayout)
        #expect(again.model.pager.items == traced.model.pager.items)
    }
}
