import Foundation
import RefreshKit
import Testing

@testable import RefreshFeeds

@Suite("The fortunes corpus")
struct FortuneCorpusTests {
    @Test("strfile entries, with attributions split off as authors")
    func parse() {
        let text = """
            First line
            \tsecond line
            \t\t-- Someone Famous, "A Book"
            %
            No attribution here -- not at the start of a line.
            %
            %
            A long one
            \t\t-- Two
            \t\t   Lines
            %
            B\u{8}Bold
            %
            \u{E9}\u{8}\u{E9}t\u{E9} \u{A0}
            """
        let entries = FortuneCorpus.parse(text)
        #expect(entries.count == 5)
        #expect(entries[0] == .init(text: "First line\n\tsecond line", author: "Someone Famous, \"A Book\""))
        #expect(entries[1].author == nil)
        #expect(entries[2] == .init(text: "A long one", author: "Two Lines"))
        #expect(entries[3].text == "Bold")
        // a backspace takes the whole character before it; a line ending in Unicode's white space loses it too
        #expect(entries[4].text == "\u{E9}t\u{E9}")
    }

    @Test("a new SQLite feed is filled from Debian's fortunes: varied lengths, authors, times decreasing")
    func imported() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let feed = try SQLiteFeed(path: folder.file("feed.db"), nowMicros: testNow)
        let count = try feed.count()
        #expect(count > 1000)
        var items: [FeedItem] = []
        var cursor: FeedCursor?
        repeat {
            let position: FeedPosition = cursor.map { .olderThan($0) } ?? .newest
            let page = try feed.load(FeedRequest(position, limit: 200))
            items += page.items
            cursor = page.hasMore ? page.olderCursor : nil
        } while cursor != nil
        #expect(items.count == count)
        let times = items.compactMap(\.timeMicros)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 > $1 })
        #expect(times[0] == testNow - 60_000_000)
        let lengths = items.map(\.text.count)
        #expect(lengths.min()! < 60)
        #expect(lengths.max()! > 400)
        let authored = items.filter { $0.author != nil }.count
        #expect(authored > count / 5)
        #expect(authored < count)
        #expect(items.contains { $0.text.contains("\n") })
        // The first items are not all from one file: the import is shuffled.
        #expect(Set(items.prefix(20).compactMap(\.author)).count > 3)
    }

    @Test("no fortunes installed is a clear error")
    func missing() {
        #expect(throws: FeedError.missing(path: "/nonexistent/fortunes (install Debian's fortunes package)")) {
            try FortuneCorpus.load(folder: "/nonexistent")
        }
    }
}
