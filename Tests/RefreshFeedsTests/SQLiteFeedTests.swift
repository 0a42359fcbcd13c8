import CSQLite
import Dispatch
import Foundation
import RefreshKit
import Synchronization
import Testing

@testable import RefreshFeeds

@Suite("The SQLite source")
struct SQLiteFeedTests {
    /// Ten numbered entries: the feed's newest is "entry 10".
    static let entries = (1...10).map { FortuneCorpus.Entry(text: "entry \($0)", author: $0 % 2 == 0 ? "A\($0)" : nil) }

    @Test("pages by cursor, newest first, in both directions")
    func cursors() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let feed = try SQLiteFeed(path: folder.file("feed.db"), nowMicros: testNow, corpus: Self.entries)
        #expect(try feed.count() == 10)
        let newest = try feed.load(FeedRequest(.newest, limit: 4))
        #expect(newest.items.count == 4)
        #expect(newest.hasMore)
        #expect(newest.items.compactMap(\.timeMicros) == newest.items.compactMap(\.timeMicros).sorted(by: >))
        #expect(newest.items[0].timeMicros == testNow - 60_000_000)

        let older = try feed.load(FeedRequest(.olderThan(try #require(newest.olderCursor)), limit: 4))
        #expect(older.items.count == 4)
        #expect(older.items[0].timeMicros! < newest.items[3].timeMicros!)
        let last = try feed.load(FeedRequest(.olderThan(try #require(older.olderCursor)), limit: 4))
        #expect(last.items.count == 2)
        #expect(!last.hasMore)
        let seen = newest.items + older.items + last.items
        #expect(Set(seen.map(\.id)).count == 10)

        // Newer than the second page's top: the four just above it, i.e. the first page.
        let newer = try feed.load(FeedRequest(.newerThan(try #require(older.newerCursor)), limit: 4))
        #expect(newer.items == newest.items)
        #expect(!newer.hasMore)
        let nothingNewer = try feed.load(FeedRequest(.newerThan(try #require(newest.newerCursor)), limit: 4))
        #expect(nothingNewer.items.isEmpty)
        #expect(nothingNewer.newerCursor == newest.newerCursor)

        // Only two of the older page's items just above the last page.
        let adjacent = try feed.load(FeedRequest(.newerThan(try #require(last.newerCursor)), limit: 2))
        #expect(adjacent.items == Array(older.items.suffix(2)))
        #expect(adjacent.hasMore)
    }

    @Test("a post goes to the top, and a newer-than request brings it in")
    func post() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("feed.db")
        let feed = try SQLiteFeed(path: path, nowMicros: testNow, corpus: Self.entries)
        let top = try feed.load(FeedRequest(.newest, limit: 3))
        let posted = try feed.post(text: "  hello there ", author: "me", timeMicros: testNow)
        #expect(posted.text == "hello there")
        #expect(posted.author == "me")
        #expect(posted.timeMicros == testNow)
        // A second connection (another device's server) sees it.
        let other = try SQLiteFeed(path: path, nowMicros: testNow, corpus: [])
        let newer = try other.load(FeedRequest(.newerThan(try #require(top.newerCursor)), limit: 20))
        #expect(newer.items == [posted])
        // A clock behind the newest item still puts the post on top.
        let early = try feed.post(text: "early", author: nil, timeMicros: 5)
        #expect(early.timeMicros == testNow + 1)
        #expect(try feed.load(FeedRequest(.newest, limit: 1)).items.first?.id == early.id)
        #expect(throws: FeedError.rejected("the text is empty")) {
            try feed.post(text: " \n", author: nil, timeMicros: 1)
        }
        let tiny = try SQLiteFeed(path: path, limits: FeedLimits(maxTextBytes: 4), nowMicros: testNow, corpus: [])
        #expect(throws: FeedError.oversized(what: "text", limit: 4)) {
            try tiny.post(text: "too long", author: nil, timeMicros: 1)
        }
    }

    @Test("a post's title and link are kept and read back")
    func titleAndLink() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let feed = try SQLiteFeed(path: folder.file("feed.db"), nowMicros: testNow, corpus: Self.entries)
        let posted = try feed.post(
            FeedPost(text: "body", author: " ", title: " A title ", url: "https://example.test/a", section: " Today "),
            timeMicros: testNow)
        #expect(posted.title == "A title" && posted.url == "https://example.test/a" && posted.author == nil)
        #expect(posted.section == "Today")
        #expect(try feed.load(FeedRequest(.newest, limit: 1)).items == [posted])
        #expect(try feed.load(FeedRequest(.newest, limit: 2)).items[1].title == nil)
    }

    /// A new file's items are grouped by their day in UTC, as a message list is.
    @Test("a new file's items are in the section of their day")
    func daySections() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let feed = try SQLiteFeed(path: folder.file("feed.db"), nowMicros: testNow, corpus: Self.entries)
        let items = try feed.load(FeedRequest(.newest, limit: 50)).items
        let days = DateFormatter()
        days.locale = Locale(identifier: "en_US_POSIX")
        days.timeZone = TimeZone(identifier: "UTC")
        days.dateFormat = "EEEE d MMMM"
        #expect(!items.isEmpty)
        for item in items {
            let day = days.string(from: Date(timeIntervalSince1970: Double(item.timeMicros!) / 1e6))
            #expect(item.section == day)
        }
        #expect(items.first?.section?.split(separator: " ").count == 3)
    }

    @Test(
        "a file made before titles, links and sections gains their columns, its rows kept; a read-only one is read without"
    )
    func migration() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("old.db")
        // The table as it was before items had titles and links.
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        let old = """
            CREATE TABLE items (id INTEGER PRIMARY KEY, text TEXT NOT NULL, author TEXT, time INTEGER NOT NULL,
              image_url TEXT, image_width INTEGER, image_height INTEGER);
            CREATE INDEX items_by_time ON items (time, id);
            INSERT INTO items (text, author, time) VALUES ('old row', 'Ann', 1000);
            """
        #expect(sqlite3_exec(db, old, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        #expect(chmod(path, 0o444) == 0)
        let readOnly = try SQLiteFeed(path: path, nowMicros: testNow, corpus: [])
        #expect(readOnly.isReadOnly)
        #expect(try readOnly.load(FeedRequest(.newest, limit: 5)).items.map(\.text) == ["old row"])
        #expect(chmod(path, 0o644) == 0)
        let feed = try SQLiteFeed(path: path, nowMicros: testNow, corpus: [])
        let posted = try feed.post(
            FeedPost(text: "new", title: "T", url: "https://example.test/t", section: "S"), timeMicros: 2000)
        let items = try feed.load(FeedRequest(.newest, limit: 5)).items
        #expect(items == [posted, FeedItem(id: "1", text: "old row", author: "Ann", timeMicros: 1000)])
    }

    /// A page around an item (a `scrollToItem` to an item not loaded, docs/LAYOUT.md, "A jump"): the item with a
    /// quarter of a page of newer items above it, how many items are above the page, and cursors both ways that go on
    /// from it; an id the file does not have is `unknown_item`.
    @Test("a page around an item holds it, with the count of items above it")
    func aroundAnItem() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let feed = try SQLiteFeed(path: folder.file("feed.db"), nowMicros: testNow, corpus: Self.entries)
        let all = try feed.load(FeedRequest(.newest, limit: 10)).items.map(\.id)  // newest first
        let page = try feed.load(FeedRequest(.around(all[5]), limit: 5))
        #expect(page.items.map(\.id) == Array(all[4...8]))
        #expect(page.above == 4 && page.hasMore)
        let older = try feed.load(FeedRequest(.olderThan(try #require(page.olderCursor)), limit: 4))
        #expect(older.items.map(\.id) == [all[9]])
        let newer = try feed.load(FeedRequest(.newerThan(try #require(page.newerCursor)), limit: 10))
        #expect(newer.items.map(\.id) == Array(all[0...3]))
        // at the top and at the end: none above it, none below
        #expect(try feed.load(FeedRequest(.around(all[0]), limit: 5)).items.map(\.id) == Array(all[0...4]))
        let last = try feed.load(FeedRequest(.around(all[9]), limit: 5))
        #expect(last.items.map(\.id) == Array(all[8...9]) && !last.hasMore && last.above == 8)
        #expect(throws: FeedError.unknownItem("4242")) { try feed.load(FeedRequest(.around("4242"), limit: 4)) }
        #expect(throws: FeedError.unknownItem("x")) { try feed.load(FeedRequest(.around("x"), limit: 4)) }
    }

    @Test("a bad cursor is a typed error")
    func badCursor() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let feed = try SQLiteFeed(path: folder.file("feed.db"), nowMicros: testNow, corpus: Self.entries)
        #expect(throws: FeedError.badCursor("older:0:x")) {
            try feed.load(FeedRequest(.olderThan(FeedCursor("older:0:x")), limit: 3))
        }
    }

    @Test("a missing folder is an error, not a crash")
    func missingFolder() {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: FeedError.missing(path: "the folder \(folder.path)/nowhere")) {
            try SQLiteFeed(path: folder.file("nowhere/feed.db"), nowMicros: testNow, corpus: [])
        }
    }

    @Test("a file that is not a database, or not a feed, is malformed")
    func notAFeed() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let garbage = folder.file("garbage.db")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: garbage))
        #expect(throws: FeedError.malformed("\(garbage) is not a SQLite database")) {
            try SQLiteFeed(path: garbage, nowMicros: testNow, corpus: [])
        }
        let other = folder.file("other.db")
        var handle: OpaquePointer?
        sqlite3_open(other, &handle)
        sqlite3_exec(handle, "CREATE TABLE notes (x)", nil, nil, nil)
        sqlite3_close(handle)
        #expect(throws: FeedError.self) { try SQLiteFeed(path: other, nowMicros: testNow, corpus: []) }
    }

    @Test("a read-only file serves pages and refuses posts")
    func readOnly() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("feed.db")
        _ = try SQLiteFeed(path: path, nowMicros: testNow, corpus: Self.entries)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let feed = try SQLiteFeed(path: path, nowMicros: testNow, corpus: [])
        #expect(feed.isReadOnly)
        #expect(try feed.load(FeedRequest(.newest, limit: 3)).items.count == 3)
        #expect(throws: FeedError.readOnly(path: path)) { try feed.post(text: "hi", author: nil, timeMicros: testNow) }
    }

    @Test("a database locked by another connection answers locked, and works again once released")
    func locked() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("feed.db")
        let feed = try SQLiteFeed(
            path: path, limits: FeedLimits(timeoutMs: 50), nowMicros: testNow, corpus: Self.entries)
        var holder: OpaquePointer?
        #expect(sqlite3_open(path, &holder) == SQLITE_OK)
        #expect(sqlite3_exec(holder, "BEGIN EXCLUSIVE", nil, nil, nil) == SQLITE_OK)
        #expect(throws: FeedError.locked(path: path)) { try feed.load(FeedRequest(.newest, limit: 3)) }
        #expect(throws: FeedError.locked(path: path)) { try feed.post(text: "hi", author: nil, timeMicros: testNow) }
        #expect(throws: FeedError.locked(path: path)) {
            try SQLiteFeed(path: path, limits: FeedLimits(timeoutMs: 50), nowMicros: testNow, corpus: [])
        }
        sqlite3_exec(holder, "COMMIT", nil, nil, nil)
        sqlite3_close(holder)
        #expect(try feed.load(FeedRequest(.newest, limit: 3)).items.count == 3)
        #expect(try feed.post(text: "hi", author: nil, timeMicros: testNow).text == "hi")
    }

    @Test("posts and reads from several threads take turns: every post lands, in order")
    func concurrentPosts() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let feed = try SQLiteFeed(path: folder.file("feed.db"), nowMicros: testNow, corpus: Self.entries)
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            do throws(FeedError) {
                if index % 2 == 0 {
                    _ = try feed.post(text: "post \(index)", author: nil, timeMicros: testNow)
                } else {
                    _ = try feed.load(FeedRequest(.newest, limit: 5))
                }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let page = try feed.load(FeedRequest(.newest, limit: 30))
        #expect(page.items.prefix(20).allSatisfy { $0.text.hasPrefix("post ") })
        let times = page.items.compactMap(\.timeMicros)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 > $1 })
    }
}
