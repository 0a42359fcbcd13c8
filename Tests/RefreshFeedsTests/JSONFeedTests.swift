import Foundation
import RefreshKit
import Testing

@testable import RefreshFeeds

@Suite("JSON Feed")
struct JSONFeedTests {
    /// A JSON Feed 1.1 document of `count` items, newest first, one minute apart, ids `prefix` + number.
    static func document(count: Int, prefix: String = "item-", nextURL: String? = nil) -> Data {
        let formatter = ISO8601DateFormatter()
        let items = (0..<count).map { index -> [String: Any] in
            let date = Date(timeIntervalSince1970: 1_795_000_000 - Double(index) * 60)
            var item: [String: Any] = [
                "id": "\(prefix)\(index)", "content_text": "Text of \(prefix)\(index)",
                "date_published": formatter.string(from: date),
            ]
            if index % 3 == 0 { item["authors"] = [["name": "Author \(index % 7)"]] }
            return item
        }
        var feed: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": "Test", "items": items]
        if let nextURL { feed["next_url"] = nextURL }
        return try! JSONSerialization.data(withJSONObject: feed)
    }

    /// A source whose documents are files written by the test, by address.
    static func source(_ files: [String: Data], limits: FeedLimits = FeedLimits()) -> WebFeedSource {
        WebFeedSource(url: "https://feeds.test/feed.json", scheme: "jsonfeed", limits: limits) {
            (address: String, _, _) throws(FeedError) -> HTTPAnswer in
            HTTPAnswer(status: files[address] == nil ? 404 : 200, body: files[address] ?? Data())
        }
    }

    @Test("a 10 000-item feed written to a file pages through all its items, then its next_url")
    func tenThousand() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("feed.json")
        try Self.document(count: 10_000, nextURL: "page2.json").write(to: URL(fileURLWithPath: file))
        let first = try Data(contentsOf: URL(fileURLWithPath: file))
        let second = Self.document(count: 5, prefix: "old-")
        let source = Self.source([
            "https://feeds.test/feed.json": first, "https://feeds.test/page2.json": second,
        ])
        let validator = FeedPageValidator()
        var ids: [String] = []
        var request = FeedRequest(.newest, limit: 100)
        var pages = 0
        while true {
            let page = try validator.validate(try source.load(request), for: request)
            ids += page.items.map(\.id)
            pages += 1
            guard page.hasMore, let cursor = page.olderCursor else { break }
            request = FeedRequest(.olderThan(cursor), limit: 100)
        }
        #expect(pages == 101)
        #expect(ids.count == 10_005)
        #expect(Set(ids).count == 10_005)
        #expect(ids.first == "item-0")
        #expect(ids.last == "old-4")
    }

    @Test("items: HTML reduced to text, authors, images, numbers as ids; newer-than the top")
    func fields() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "authors": [{"name": "Feed Author"}], "items": [
              {"id": 3, "content_html": "<p>Hello &amp; <b>welcome</b></p><p>Second&#33;</p>",
               "date_published": "2026-11-24T10:00:00.250Z", "image": "https://img.test/a.png"},
              {"id": "2", "content_text": "plain", "date_published": "2026-11-24T09:00:00+01:00",
               "authors": [{"name": "Ann"}]},
              {"id": "1", "content_text": "oldest", "date_modified": "2026-11-24T07:00:00Z", "author": {"name": "Old"}}
            ]}
            """
        let document = try FeedDocument(reading: Data(json.utf8))
        #expect(document.items.map(\.id) == ["3", "2", "1"])
        #expect(document.items[0].text == "Hello & welcome\nSecond!")
        #expect(document.items[0].author == "Feed Author")
        #expect(document.items[0].image == FeedImage(url: "https://img.test/a.png"))
        #expect(document.items[0].timeMicros == 1_795_514_400_250_000)
        #expect(document.items[1].author == "Ann")
        #expect(document.items[1].timeMicros == 1_795_507_200_000_000)
        #expect(document.items[2].author == "Old")

        let source = Self.source(["https://feeds.test/feed.json": Data(json.utf8)])
        let second = try source.load(
            FeedRequest(.olderThan(FeedCursor("older:1:https://feeds.test/feed.json")), limit: 1))
        #expect(second.items.map(\.id) == ["2"])
        let newer = try source.load(FeedRequest(.newerThan(try #require(second.newerCursor)), limit: 5))
        #expect(newer.items.map(\.id) == ["3"])
        #expect(!newer.hasMore)
    }

    @Test("RFC 3339 dates read by hand agree with Foundation's")
    func dates() {
        let formatter = ISO8601DateFormatter()
        for seconds in stride(from: -86_400 * 800, to: 86_400 * 40_000, by: 86_400 * 37 + 3_607) {
            let text = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(FeedDates.micros(text) == Int64(seconds) * 1_000_000, "\(text)")
        }
        #expect(FeedDates.micros("2026-11-24T10:00:00.5-02:30") == FeedDates.micros("2026-11-24T12:30:00.500Z"))
        for bad in ["2026-13-01T00:00:00Z", "2026-11-24T10:00:00Zjunk", "", "yesterday"] {
            #expect(FeedDates.micros(bad) == nil, "\(bad)")
        }
    }

    @Test("malformed documents name their fault")
    func malformed() {
        let cases: [(String, FeedError)] = [
            ("not json", .malformed("not a feed: the body starts with \"not json\"")),
            ("[1, 2]", .malformed("not a feed: the body is a JSON array, not a JSON Feed object")),
            (#"{"version": "#, .malformed("the body is not JSON: unexpected end of text, expecting a value")),
            (
                #"{"version": "rss", "items": []}"#,
                .malformed(
                    "not a feed: \"version\" is not a JSON Feed 1.x version (https://jsonfeed.org/version/1.1)")
            ),
            (#"{"version": "https://jsonfeed.org/version/1.1"}"#, .malformed("\"items\" is missing or not an array")),
            (#"{"version": "https://jsonfeed.org/version/1.1", "items": [3]}"#, .malformed("item 0 is not an object")),
        ]
        for (json, error) in cases {
            #expect(throws: error) { try FeedDocument(reading: Data(json.utf8)) }
        }
    }

    @Test("items as feed readers take them: no id is the url, a title and a link kept, an undated one has no time")
    func lenient() throws {
        let json = #"""
            {"version": "https://jsonfeed.org/version/1.1", "items": [
              {"url": "https://feeds.test/no-date", "title": "Only a title"},
              {"id": "b", "content_text": "dated", "date_published": "2026-01-01T00:02:00Z"},
              {"id": "c", "content_text": "unreadable date", "date_published": "yesterday"},
              {"id": true, "content_text": "no usable id", "date_modified": "2026-01-01T00:01:00Z"}
            ]}
            """#
        let items = try FeedDocument(reading: Data(json.utf8)).items
        let minute: Int64 = 60_000_000
        let midnight = try #require(FeedDates.micros("2026-01-01T00:00:00Z"))
        #expect(items.map(\.timeMicros) == [nil, midnight + 2 * minute, nil, midnight + minute], "undated: no time")
        #expect(items[0].id == "https://feeds.test/no-date")
        #expect(items[0].text == "" && items[0].title == "Only a title" && items[0].url == "https://feeds.test/no-date")
        #expect(items[3].id.count == 16 && items[3].id.allSatisfy(\.isHexDigit))
        let page = FeedPage(items: items, olderCursor: nil, newerCursor: nil, hasMore: false)
        _ = try FeedPageValidator().validate(page, for: FeedRequest(.newest, limit: 10))
    }

    @Test("a leading byte order mark is skipped; an id is a string or a number, a boolean is no id")
    func byteOrderMarkAndIds() throws {
        let items = #"[{"id": 2.5, "content_text": "x", "date_published": "2026-01-01T00:00:00Z"}]"#
        let body = #"{"version": "https://jsonfeed.org/version/1.1", "items": \#(items)}"#
        let document = try FeedDocument(reading: Data([0xEF, 0xBB, 0xBF] + Array(body.utf8)))
        #expect(document.items.map(\.id) == ["2.5"])
        let boolean = body.replacingOccurrences(of: "2.5", with: "true")
        let hashed = try FeedDocument(reading: Data(boolean.utf8)).items[0].id
        #expect(hashed != "true" && hashed.count == 16)
    }

    @Test("an oversized body is refused before it is parsed")
    func oversized() {
        let limits = FeedLimits(maxBodyBytes: 1_000)
        #expect(throws: FeedError.oversized(what: "body", limit: 1_000)) {
            try FeedDocument(reading: Self.document(count: 50), limits: limits)
        }
    }

    @Test("a document in its own order, repeating an id, passes the validator as it is")
    func repeatedAndOutOfOrder() throws {
        let source = Self.source([
            "https://feeds.test/feed.json": Data(
                """
                {"version": "https://jsonfeed.org/version/1.1", "items": [
                  {"id": "a", "content_text": "x", "date_published": "2026-01-01T00:01:00Z"},
                  {"id": "b", "content_text": "y", "date_published": "2026-01-01T00:02:00Z"},
                  {"id": "a", "content_text": "z", "date_published": "2026-01-01T00:03:00Z"}]}
                """.utf8)
        ])
        let request = FeedRequest(.newest, limit: 10)
        let page = try FeedPageValidator().validate(try source.load(request), for: request)
        #expect(page.items.map(\.id) == ["a", "b", "a"], "the engine takes a repeated id once (LoadedItems)")
    }

    @Test("fetching over HTTP: a refused connection is unavailable, with the reason")
    func refused() {
        // Port 9 (discard) on loopback is closed on a test machine: the connection is refused at once.
        let source = WebFeedSource(url: "http://127.0.0.1:9/feed.json", limits: FeedLimits(timeoutMs: 2_000))
        #expect {
            try source.load(FeedRequest(.newest, limit: 5))
        } throws: { error in
            guard case .unavailable(let reason) = error as? FeedError else { return false }
            return reason.contains("127.0.0.1:9")
        }
    }
}
