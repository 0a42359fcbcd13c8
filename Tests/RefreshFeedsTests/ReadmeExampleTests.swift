import RefreshFeeds
import RefreshKit
import Testing

// README.md, "Your own data": the source there, word for word, so the example compiles and does what it says.

/// An app's own messages as a feed, kept newest first; a cursor is a message's id.
final class MessagesSource: FeedSource {
    let messages: [FeedItem]

    init(messages: [FeedItem]) { self.messages = messages }

    var address: String { "messages" }

    func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        var start = 0
        var end = messages.count
        switch request.position {
        case .newest: break
        case .olderThan(let cursor): start = try index(of: cursor) + 1
        case .newerThan(let cursor):
            end = try index(of: cursor)
            start = max(0, end - request.limit)
        case .around(let id):  // a scrollToItem to a message not loaded: about half a page above it
            guard let index = messages.firstIndex(where: { $0.id == id }) else { throw .unknownItem(id) }
            start = max(0, index - (request.limit - 1) / 2)
        }
        let page = Array(messages[start..<min(end, start + request.limit)])
        var hasMore = start + page.count < messages.count
        if case .newerThan = request.position { hasMore = start > 0 }
        return FeedPage(
            items: page, olderCursor: page.last.map { FeedCursor($0.id) },
            newerCursor: page.first.map { FeedCursor($0.id) }, hasMore: hasMore, above: start)
    }

    private func index(of cursor: FeedCursor) throws(FeedError) -> Int {
        guard let index = messages.firstIndex(where: { $0.id == cursor.value }) else {
            throw .badCursor(cursor.value)
        }
        return index
    }
}

@Suite("The README's example source")
struct ReadmeExampleTests {
    /// Five messages, m4 the newest, a minute apart.
    let messages = (0..<5).reversed().map {
        FeedItem(
            id: "m\($0)", text: "Message \($0)", author: "Ana",
            timeMicros: 1_700_000_000_000_000 + Int64($0) * 60_000_000)
    }

    @Test("pages newest first, older and newer than a cursor, checked by a worker")
    func pages() throws {
        let answers = Answers()
        let worker = FeedWorker(source: MessagesSource(messages: messages), deliver: answers.deliver)
        defer { worker.stop() }
        worker.submit(FeedRequest(.newest, limit: 2))
        let newest = try answers.wait(for: 1)[0].outcome.get()
        #expect(newest.items.map(\.id) == ["m4", "m3"] && newest.hasMore)
        worker.submit(FeedRequest(.olderThan(try #require(newest.olderCursor)), limit: 2))
        let older = try answers.wait(for: 1)[1].outcome.get()
        #expect(older.items.map(\.id) == ["m2", "m1"] && older.hasMore)
        worker.submit(FeedRequest(.newerThan(FeedCursor("m1")), limit: 1))
        let newer = try answers.wait(for: 1)[2].outcome.get()
        #expect(newer.items.map(\.id) == ["m2"] && newer.hasMore)
    }

    @Test("a cursor it did not make is a bad cursor")
    func badCursor() {
        #expect(throws: FeedError.badCursor("x")) {
            try MessagesSource(messages: messages).load(FeedRequest(.olderThan(FeedCursor("x")), limit: 2))
        }
    }
}
