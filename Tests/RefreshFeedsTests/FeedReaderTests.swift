import Foundation
import RefreshKit
import Testing

@testable import RefreshFeeds

/// `FeedDocument(reading:)` on the fixtures of Fixtures/feeds (docs/FEEDS.md, "Reading feeds"); e2e/feeds
/// compares the same files with feedparser.
@Suite("Feed reading")
struct FeedReaderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feeds")
    static let base = "https://fixtures.test/feeds/"

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    static func read(_ name: String, limits: FeedLimits = FeedLimits()) throws -> FeedDocument {
        try FeedDocument(reading: fixture(name), url: base + name, limits: limits)
    }

    /// Seconds since 1970 of a date written as RFC 3339, for expectations.
    static func micros(_ text: String) -> Int64? { FeedDates.micros(text) }

    static let formatCases: [(String, FeedFormat)] = [
        ("rss090.rdf", FeedFormat.rss090), ("rss091.xml", .rss091), ("rss092.xml", .rss092),
        ("rss10.rdf", .rss10), ("rss20.xml", .rss20), ("atom03.xml", .atom03), ("atom10.xml", .atom10),
        ("atom10-prefixed.xml", .atom10), ("jsonfeed10.json", .jsonFeed10), ("jsonfeed11.json", .jsonFeed11),
    ]

    @Test("the format is found from the body, whatever the file is called", arguments: formatCases)
    func formats(name: String, format: FeedFormat) throws {
        let document = try FeedDocument(reading: Self.fixture(name))
        #expect(document.format == format)
        #expect(!document.entries.isEmpty)
    }

    @Test("formats are named as people write them")
    func formatNames() {
        #expect(
            FeedFormat.allCases.map(\.description) == [
                "RSS 0.90", "RSS 0.91", "RSS 0.92", "RSS 1.0", "RSS 2.0", "Atom 0.3", "Atom 1.0", "JSON Feed 1.0",
                "JSON Feed 1.1",
            ])
    }

    @Test("RSS 2.0: order kept, CDATA and HTML titles as text, guids, relative links, authors, images, next page")
    func rss20() throws {
        let document = try Self.read("rss20.xml")
        #expect(document.title == "Liftoff & Landing News")
        #expect(document.nextURL == "https://fixtures.test/feeds/rss.xml?page=2")
        let entries = document.entries
        #expect(entries.count == 9)
        #expect(entries[0].title == "Star City")
        #expect(entries[0].author == "Jane Doe")
        #expect(entries[0].image == "https://img.example.org/star-city.jpg")
        #expect(entries[0].text.hasPrefix("How do Americans") && entries[0].text.hasSuffix("Russia's Star City."))
        #expect(entries[0].timeMicros == Self.micros("2003-06-03T09:39:21Z"))
        #expect(entries[1].title == "CDATA title with bold & more")
        #expect(entries[1].id == "tag:news.example.org,2003:572")
        #expect(entries[1].link == "https://fixtures.test/2003/05/30/cdata")
        #expect(entries[1].author == "Bob Writer")
        #expect(entries[1].image == "https://fixtures.test/feeds/thumbs/eclipse.png")
        #expect(entries[1].timeMicros == Self.micros("2003-05-30T15:06:42Z"))
        #expect(entries[2].title == "An escaped HTML title & entities")
        #expect(entries[2].author == "Sam Editor", "the feed's managingEditor")
        #expect(entries[2].image == "https://img.example.org/podcast-571.jpg")
        #expect(entries[3].image == "https://img.example.org/enclosed.gif")
        #expect(entries[4].image == "https://img.example.org/still.webp", "the image of a media:group")
        // Not newest first: the feed's order is kept.
        #expect(try #require(entries[3].timeMicros) < #require(entries[4].timeMicros))
        let untitled = entries[5]
        #expect(untitled.title == nil && untitled.link == nil && untitled.timeMicros == nil)
        #expect(untitled.id.count == 16 && untitled.id.allSatisfy(\.isHexDigit))
        #expect(try Self.read("rss20.xml").entries[5].id == untitled.id, "a content hash is the same on every read")
        #expect(entries[6].link == "https://news.example.org/permalink-only", "a permalink guid is the link")
        #expect(entries[6].text == "The text is in content:encoded;\nit has two lines.")
        #expect(entries[7].timeMicros == nil, "an unreadable date makes the entry undated, not the feed malformed")
        #expect(entries[8].id == "https://news.example.org/link-only" && entries[8].text.isEmpty)
    }

    @Test("RSS 2.0: a permalink guid is resolved against xml:base, and is the link of an item without one")
    func rss20GuidLinks() throws {
        let entries = try Self.read("rss20-guid-links.xml").entries
        #expect(
            entries.map(\.id) == [
                "https://podcast.example.org/show/episode/1/", "https://podcast.example.org/episode/2/", "episode-3",
                "https://podcast.example.org/show/episode/4/", "https://mirror.example.net/episode/5/",
            ])
        #expect(
            entries.map(\.link) == [
                "https://podcast.example.org/show/episode/1/", "https://podcast.example.org/episode/2/", nil,
                "https://podcast.example.org/episodes/four", "https://mirror.example.net/episode/5/",
            ])
    }

    @Test("Atom 1.0: an id is resolved against xml:base, and a web address is the link of an entry without one")
    func atom10IdLinks() throws {
        let entries = try Self.read("atom10-id-links.xml").entries
        #expect(entries[1].id == "https://notes.example.com/2025/06/two")
        #expect(
            entries.map(\.link) == [
                "https://notes.example.com/2025/06/one", "https://notes.example.com/2025/06/two", nil,
                "https://notes.example.com/2025/06/four.html", "https://notes.example.com/2025/06/five",
            ])
    }

    @Test("Atom 1.0: xml:base, the alternate link, text constructs, authors, published before updated")
    func atom10() throws {
        let document = try Self.read("atom10.xml")
        #expect(document.title == "Example Blog")
        #expect(document.nextURL == "https://blog.example.com/archive/feed.atom?page=2")
        let entries = document.entries
        #expect(
            entries.map(\.link) == [
                "https://blog.example.com/archive/2024/03/robots.html", "https://other.example.net/posts/xml-base.html",
                nil, "https://blog.example.com/untitled", "https://blog.example.com/no-id.html",
            ])
        #expect(entries[0].timeMicros == Self.micros("2024-03-10T18:30:02Z"), "published, not updated")
        #expect(entries[0].author == "Ann Author")
        #expect(entries[0].text == "Some text about & robots.")
        #expect(entries[0].image == "https://img.example.com/robots.png")
        #expect(entries[1].title == "Bold news & views")
        #expect(entries[1].text == "An XHTML content with a link.\nSecond paragraph.")
        #expect(entries[1].author == "Feed Author")
        #expect(entries[1].timeMicros == Self.micros("2024-03-09T11:00:00.250Z"))
        #expect(entries[2].title == "Plain text with <angle brackets> kept", "type=\"text\" is not HTML")
        #expect(entries[2].text == "HTML content\nacross lines")
        #expect(entries[2].image == "https://blog.example.com/archive/images/enclosed.jpg")
        #expect(entries[3].title == nil && entries[3].timeMicros == Self.micros("2024-03-08T00:00:00Z"))
        #expect(entries[4].id == "https://blog.example.com/no-id.html" && entries[4].author == "Source Author")
    }

    @Test("Atom: elements are matched by namespace, not by prefix")
    func namespaces() throws {
        let document = try Self.read("atom10-prefixed.xml")
        #expect(document.title == "Prefixed Atom")
        #expect(document.entries.map(\.title) == ["Matched by namespace, not by prefix"])
        #expect(document.entries[0].text == "Escaped & decoded")
        let foreign = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:x="http://example.org/x">
              <x:entry><x:id>not Atom's</x:id></x:entry><entry><id>atom</id></entry></feed>
            """
        #expect(try FeedDocument(reading: Data(foreign.utf8)).entries.map(\.id) == ["atom"])
    }

    @Test("Atom 0.3: issued and modified, escaped and base64 content")
    func atom03() throws {
        let entries = try Self.read("atom03.xml").entries
        #expect(entries.map(\.title) == ["Atom 0.3 snapshot", "Escaped title", "Base64 content"])
        #expect(entries[0].timeMicros == Self.micros("2003-12-13T08:29:29-04:00"))
        #expect(entries[0].author == "Mark Pilgrim")
        #expect(entries[1].timeMicros == Self.micros("2003-12-12T10:00:00Z"))
        #expect(entries[1].text == "Escaped HTML content.")
        #expect(entries[1].author == "Guest Writer")
        #expect(entries[2].text == "Base64 encoded text.")
    }

    @Test("RSS 0.90, 0.91, 0.92 and 1.0: RDF items, entities, enclosures, dc:date and dc:creator")
    func olderRSS() throws {
        #expect(
            try Self.read("rss090.rdf").entries.map(\.link) == [
                "http://www.mozilla.org/status/", "http://www.mozilla.org/bugs/", "http://www.mozilla.org/party/1999/",
            ])
        let rss091 = try Self.read("rss091.xml").entries
        #expect(rss091[0].text.contains("Gnutella — allowing"))
        #expect(rss091[1].text.hasSuffix("Café talk."))
        #expect(rss091[1].author == "Dishes Editor")
        let rss092 = try Self.read("rss092.xml").entries
        #expect(rss092.map(\.title) == [nil, nil, "Cover art"])
        #expect(rss092[0].image == nil, "an audio enclosure is no image")
        #expect(rss092[1].image == "http://www.scripting.com/pictures/theOtherOne.jpg")
        #expect(rss092[1].text.hasPrefix("The Other One, live instrumental"))
        #expect(rss092[2].image == "https://fixtures.test/pictures/cover.png")
        let rss10 = try Self.read("rss10.rdf").entries
        #expect(
            rss10.map(\.id) == [
                "http://c.moreover.com/click/here.pl?r123", "http://example.org/rss1/2", "http://example.org/rss1/3",
            ])
        #expect(rss10[0].timeMicros == Self.micros("2000-01-01T12:00:00Z"))
        #expect(rss10[1].timeMicros == Self.micros("2000-01-02T13:30:00Z"))
        #expect(rss10[1].text == "Only encoded content, no description.")
        #expect(rss10[1].author == "Rael Dornfest", "the channel's dc:creator")
        #expect(rss10[2].timeMicros == nil)
    }

    @Test("JSON Feed 1.0 and 1.1 read into the same entries: url, banner_image, undated, no id")
    func jsonFeeds() throws {
        let old = try Self.read("jsonfeed10.json").entries
        #expect(old.map(\.id) == ["2", "1", "https://json10.example.org/no-id"])
        #expect(old[0].image == "https://json10.example.org/banner.png")
        #expect(old[0].author == "Old Style Author" && old[1].author == "Item Author")
        #expect(old[1].text == "Hello, world & all.")
        #expect(old[1].timeMicros == Self.micros("2017-05-16T08:00:00Z"), "date_modified when not published")
        #expect(old[2].title == "No id, no date, no text" && old[2].text.isEmpty && old[2].timeMicros == nil)
        let document = try Self.read("jsonfeed11.json")
        #expect(document.nextURL == "https://fixtures.test/feeds/feed.json?page=2")
        #expect(document.entries[0].link == "https://fixtures.test/posts/b")
        #expect(document.entries[0].text == "A summary wins over nothing.")
        #expect(document.entries[0].author == "Bea")
        #expect(document.entries[1].timeMicros == nil)
        #expect(document.entries[2].link == nil && document.entries[2].author == "Feed Authors")
    }

    static let notFeedCases: [(String, String)] = [
        ("not-a-feed.html", "not a feed: the body is an HTML page (<!DOCTYPE html>)"),
        (
            "truncated.xml",
            "the XML is not well-formed: it ends before its root element does (truncated?), at line 16"
        ),
    ]

    @Test("what is not a feed says what it is instead", arguments: notFeedCases)
    func notFeeds(name: String, message: String) throws {
        let error = #expect(throws: FeedError.self) { try Self.read(name) }
        guard case .malformed(let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix(message), "\(reason)")
    }

    @Test("bodies that are no feed, each named")
    func otherBodies() {
        let cases: [(String, String)] = [
            ("", "not a feed: the body is empty"),
            ("  hello", "not a feed: the body starts with \"hello\""),
            ("[1]", "not a feed: the body is a JSON array, not a JSON Feed object"),
            (
                "<?xml version=\"1.0\"?><html><body/></html>",
                "not a feed: the body is an HTML page (its root element is <html>)"
            ),
            (
                "<?xml version=\"1.0\"?>\n<!-- a comment --><svg xmlns=\"http://www.w3.org/2000/svg\"/>",
                "not a feed: the body is XML whose root element is <svg>, not <rss>, <rdf:RDF> or <feed>"
            ),
            (
                "<feed xmlns=\"http://example.org/\"/>",
                "not a feed: the root element is <feed> in namespace http://example.org/"
            ),
            ("<rss version=\"2.0\"></rss>", "not a feed: the <rss> element has no <channel>"),
        ]
        for (body, reason) in cases {
            #expect(throws: FeedError.malformed(reason)) { try FeedDocument(reading: Data(body.utf8)) }
        }
    }

    @Test("limits: body, entries, fields and text past them are oversized")
    func limits() throws {
        let rss = try Self.fixture("rss20.xml")
        #expect(throws: FeedError.oversized(what: "body", limit: 1_000)) {
            try FeedDocument(reading: rss, limits: FeedLimits(maxBodyBytes: 1_000))
        }
        #expect(throws: FeedError.oversized(what: "feed (over 3 entries)", limit: 3)) {
            try FeedDocument(reading: rss, limits: FeedLimits(maxEntries: 3))
        }
        #expect(throws: FeedError.oversized(what: "feed (3 entries)", limit: 2)) {
            try FeedDocument(reading: Self.fixture("jsonfeed11.json"), limits: FeedLimits(maxEntries: 2))
        }
        let title = String(repeating: "t", count: 100)
        let long = "<rss><channel><item><guid>a</guid><title>\(title)</title></item></channel></rss>"
        #expect(throws: FeedError.oversized(what: "title of entry \"a\"", limit: 99)) {
            try FeedDocument(reading: Data(long.utf8), limits: FeedLimits(maxFieldBytes: 99))
        }
        #expect(
            throws: FeedError.oversized(
                what: "text of entry \"https://news.example.org/2003/06/03.html#item573\"", limit: 100)
        ) {
            try FeedDocument(reading: rss, limits: FeedLimits(maxTextBytes: 100))
        }
    }

    @Test("an external entity is never read (XXE); the entry stays")
    func externalEntities() throws {
        let entries = try Self.read("xxe.xml").entries
        #expect(entries.count == 1)
        let title = try #require(entries[0].title)
        #expect(title.hasPrefix("Before"))
        if let hostname = try? String(contentsOfFile: "/etc/hostname", encoding: .utf8) {
            #expect(!title.contains(hostname.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    @Test("HTML entities XML does not declare are read as feed readers read them; an entity bomb is refused")
    func entities() throws {
        let document = try Self.read("rss20-html-entities.xml")
        #expect(document.title == "Café & Bar News")
        #expect(
            document.entries.map(\.title) == [
                "Crème brûlée — a recipe…", "In CDATA: café stays as written, then HTML decodes it",
            ])
        #expect(document.entries[0].text == "Sugar\u{A0}&\u{A0}cream © 2024")
        var lol = "<!ENTITY a0 \"lol\">"
        for level in 1...9 {
            lol += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE rss [\(lol)]><rss><channel><title>&a9;</title></channel></rss>"
        #expect(throws: FeedError.self) { try FeedDocument(reading: Data(bomb.utf8)) }
    }

    @Test("a content hash is FNV-1a 64 of the fields, fixed across processes")
    func contentHash() {
        var empty = StableHash()
        #expect(empty.hex == "cbf29ce484222325", "FNV-1a 64's offset basis")
        empty.add("a")
        #expect(empty.hex.count == 16)
        let id = FeedEntry.contentID(title: "t", text: "x", timeMicros: 1, image: nil)
        #expect(id == FeedEntry.contentID(title: "t", text: "x", timeMicros: 1, image: nil))
        #expect(id != FeedEntry.contentID(title: "tx", text: "", timeMicros: 1, image: nil))
    }
}
