import RefreshKit
import Testing

@testable import RefreshFeeds

@Suite("The page validator")
struct FeedPageValidatorTests {
    static func page(_ items: [FeedItem]) -> FeedPage {
        FeedPage(items: items, olderCursor: nil, newerCursor: nil, hasMore: false)
    }

    static func item(_ id: String, _ time: Int64, text: String = "x") -> FeedItem {
        FeedItem(id: id, text: text, timeMicros: time)
    }

    @Test("a good page passes unchanged")
    func good() throws {
        let page = Self.page([Self.item("b", 20), Self.item("a", 10), Self.item("c", 10)])
        #expect(try FeedPageValidator().validate(page, for: FeedRequest(.newest, limit: 3)) == page)
    }

    @Test("each violation is its own typed error")
    func violations() {
        let validator = FeedPageValidator(limits: FeedLimits(maxItems: 2, maxTextBytes: 5, maxFieldBytes: 8))
        let request = FeedRequest(.newest, limit: 10)
        let cases: [([FeedItem], FeedError)] = [
            ([Self.item("a", 3), Self.item("b", 2), Self.item("c", 1)], .oversized(what: "page (3 items)", limit: 2)),
            ([Self.item("", 1)], .malformed("an item has an empty id")),
            ([Self.item("a", 1, text: "123456")], .oversized(what: "text of item \"a\"", limit: 5)),
            ([Self.item("123456789", 1)], .oversized(what: "item id", limit: 8)),
            ([Self.item("a", -1)], .malformed("item \"a\" has a time before 1970")),
            (
                [FeedItem(id: "a", text: "x", timeMicros: 1, image: FeedImage(url: "u", width: 0, height: 3))],
                .malformed("item \"a\" has an image of no size")
            ),
        ]
        for (items, error) in cases {
            #expect(throws: error) { try validator.validate(Self.page(items), for: request) }
        }
        #expect(throws: FeedError.oversized(what: "page (2 items)", limit: 1)) {
            try validator.validate(
                Self.page([Self.item("a", 2), Self.item("b", 1)]), for: FeedRequest(.newest, limit: 1))
        }
    }

    @Test("a feed's own order, its dates and its repeats are taken (docs/FEEDS.md, \"Order and dates\")")
    func orderAndDatesAsFeedsHaveThem() throws {
        let validator = FeedPageValidator()
        let page = Self.page([Self.item("a", 1), Self.item("b", 2), Self.item("a", 3), Self.item("c", 1 << 60)])
        #expect(try validator.validate(page, for: FeedRequest(.newest, limit: 10)) == page)
    }

    @Test("every error has a message a person reads and a stable code")
    func messages() {
        #expect(
            FeedError.locked(path: "/x/feed.db").description
                == "The feed file /x/feed.db is locked by another program; try again.")
        #expect(FeedError.timedOut(limitMs: 250).description == "The feed did not answer within 250 ms.")
        #expect(FeedError.repeatedIds("7").code == "repeated_ids")
    }
}
