import RefreshKit
import Testing

@testable import RefreshFeeds

/// The source of the DocC article (RefreshFeeds.docc, "Implementing a source"), word for word, so the
/// example there compiles and does what it says.
final class NotesSource: FeedSource {
    let notes: [FeedItem]  // newest first

    init(notes: [FeedItem]) { self.notes = notes }

    var address: String { "notes" }

    func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        let range: Range<Int>
        switch request.position {
        case .newest:
            range = 0..<min(notes.count, request.limit)
        case .olderThan(let cursor):
            guard let index = Int(cursor.value) else { throw .badCursor(cursor.value) }
            range = (index + 1)..<min(notes.count, index + 1 + request.limit)
        case .newerThan(let cursor):
            guard let index = Int(cursor.value) else { throw .badCursor(cursor.value) }
            range = max(0, index - request.limit)..<index
        case .around:
            throw .unsupported("load a page around a note")
        }
        let items = range.isEmpty ? [] : Array(notes[range])
        let olderCursor = range.isEmpty ? nil : FeedCursor(String(range.upperBound - 1))
        let newerCursor = range.isEmpty ? nil : FeedCursor(String(range.lowerBound))
        let hasMore: Bool
        if case .newerThan = request.position {
            hasMore = range.lowerBound > 0
        } else {
            hasMore = range.upperBound < notes.count
        }
        return FeedPage(items: items, olderCursor: olderCursor, newerCursor: newerCursor, hasMore: hasMore)
    }
}

@Suite("The DocC article's example source")
struct DocCExampleTests {
    @Test("pages in both directions through a worker")
    func example() throws {
        let notes = (0..<5).map { FeedItem(id: "n\($0)", text: "Note \($0)", timeMicros: Int64(100 - $0)) }
        let answers = Answers()
        let worker = FeedWorker(source: NotesSource(notes: notes), deliver: answers.deliver)
        defer { worker.stop() }
        worker.submit(FeedRequest(.newest, limit: 2))
        let first = try answers.wait(for: 1)[0].outcome.get()
        #expect(first.items.map(\.id) == ["n0", "n1"])
        worker.submit(FeedRequest(.olderThan(try #require(first.olderCursor)), limit: 10))
        let older = try answers.wait(for: 1)[1].outcome.get()
        #expect(older.items.map(\.id) == ["n2", "n3", "n4"])
        #expect(!older.hasMore)
        worker.submit(FeedRequest(.newerThan(try #require(older.newerCursor)), limit: 1))
        let newer = try answers.wait(for: 1)[2].outcome.get()
        #expect(newer.items.map(\.id) == ["n1"])
        #expect(newer.hasMore)
    }
}
