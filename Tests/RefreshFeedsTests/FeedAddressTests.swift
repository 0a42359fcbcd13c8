import Foundation
import RefreshKit
import Testing

@testable import RefreshFeeds

@Suite("Feed addresses and the simulated source")
struct FeedAddressTests {
    @Test("the kinds parse and print back")
    func parse() throws {
        #expect(
            try FeedAddress(parsing: "feed:https://example.org/rss.xml") == .web(url: "https://example.org/rss.xml"))
        #expect(
            try FeedAddress(parsing: "feed:https://example.org/rss.xml").description
                == "feed:https://example.org/rss.xml")
        #expect(try FeedAddress(parsing: "simulated") == .simulated)
        #expect(try FeedAddress(parsing: "sqlite:feed.db") == .sqlite(path: "feed.db"))
        #expect(
            try FeedAddress(parsing: "jsonfeed:https://example.org/feed.json")
                == .jsonFeed(url: "https://example.org/feed.json"))
        #expect(try FeedAddress(parsing: "sqlite:/tmp/a b.db").description == "sqlite:/tmp/a b.db")
    }

    @Test("bad addresses say what is expected")
    func bad() {
        #expect(throws: FeedError.badAddress("\"sqlite:\" needs a file path, as in sqlite:feed.db")) {
            try FeedAddress(parsing: "sqlite:")
        }
        #expect(
            throws: FeedError.badAddress(
                "\"rss:x\" names no known source; expected sqlite:PATH, feed:URL, jsonfeed:URL or simulated")
        ) {
            try FeedAddress(parsing: "rss:x")
        }
        #expect(
            throws: FeedError.badAddress(
                "the address is empty; expected sqlite:PATH, feed:URL, jsonfeed:URL or simulated")
        ) {
            try FeedAddress(parsing: "")
        }
        #expect(
            throws: FeedError.badAddress(
                "\"ftp://x/y\" is not an http or https address, as in jsonfeed:https://example.org/feed.xml")
        ) {
            try FeedAddress(parsing: "jsonfeed:ftp://x/y")
        }
    }

    @Test("the simulated source pages as the engine's feed does, in both directions")
    func simulated() throws {
        let source = SimulatedSource(configuration: FeedConfiguration(totalItems: 30, newItemsPerRefresh: 3))
        let newest = try source.load(FeedRequest(.newest, limit: 10))
        let newestIDs: [String] = (21...30).reversed().map { String($0) }
        #expect(newest.items.map(\.id) == newestIDs)
        #expect(newest.items[0].timeMicros == SimulatedSource.epochMicros)
        #expect(newest.items[1].timeMicros == SimulatedSource.epochMicros - 7 * 60_000_000)
        let older = try source.load(FeedRequest(.olderThan(try #require(newest.olderCursor)), limit: 25))
        #expect(older.items.count == 20)
        #expect(!older.hasMore)
        source.publishNewItems()
        let newer = try source.load(FeedRequest(.newerThan(try #require(newest.newerCursor)), limit: 2))
        #expect(newer.items.map(\.id) == ["32", "31"])
        #expect(newer.hasMore)
        #expect(try FeedPageValidator().validate(newer, for: FeedRequest(.newest, limit: 2)) == newer)
    }
}
