import Foundation
import RefreshKit
import Synchronization
import Testing

@testable import RefreshFeeds

/// The feed documents a server reads are fetched once for every reader and asked again as HTTP caches ask
/// (docs/FEEDS.md, "What is fetched when"): fresh for `max-age`, revalidated with `ETag` and `Last-Modified`, and a
/// 429 or 503 waited out.
@Suite("The feed's fetch cache")
struct FeedFetchCacheTests {
    /// A server a test scripts: the answers it gives in turn, and the requests it was asked (with their validators).
    final class Origin: Sendable {
        let answers: Mutex<[HTTPAnswer]>
        let asked = Mutex<[(etag: String?, modified: String?)]>([])
        init(_ answers: [HTTPAnswer]) { self.answers = Mutex(answers) }

        func fetch(_ etag: String?, _ modified: String?) throws(FeedError) -> HTTPAnswer {
            asked.withLock { $0.append((etag, modified)) }
            return answers.withLock { $0.isEmpty ? HTTPAnswer(status: 500) : $0.removeFirst() }
        }
        var requests: Int { asked.withLock { $0.count } }
    }

    final class Clock: Sendable {
        let seconds = Mutex(1000.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    static func document(_ text: String) -> Data { Data(text.utf8) }

    static func read(_ body: Data) throws(FeedError) -> FeedFetchCache.Document {
        FeedFetchCache.Document(
            items: [FeedItem(id: String(decoding: body, as: UTF8.self), text: "", timeMicros: 0)], nextURL: nil)
    }

    static func load(_ cache: FeedFetchCache, _ origin: Origin, reuse: Bool = false) throws -> String {
        try cache.document(at: "https://feeds.test/a.xml", reuse: reuse, fetch: origin.fetch, read: read).items[0].id
    }

    @Test("a document is used while its max-age lasts, then asked for with its validators; a 304 keeps it")
    func freshThenRevalidated() throws {
        let clock = Clock()
        let cache = FeedFetchCache(now: { clock.seconds.withLock { $0 } })
        let origin = Origin([
            HTTPAnswer(
                status: 200, body: Self.document("v1"), etag: "\"e1\"", lastModified: "Fri, 27 Nov 2026 10:00:00 GMT",
                cacheControl: "public, max-age=60"),
            HTTPAnswer(status: 304, cacheControl: "max-age=60"),
            HTTPAnswer(status: 200, body: Self.document("v2"), etag: "\"e2\""),
        ])
        #expect(try Self.load(cache, origin) == "v1")
        clock.advance(59)
        #expect(try Self.load(cache, origin) == "v1")  // a thousand readers within a minute: one fetch
        #expect(origin.requests == 1)
        clock.advance(2)
        #expect(try Self.load(cache, origin) == "v1")  // revalidated: 304
        #expect(origin.asked.withLock { $0[1] }.etag == "\"e1\"")
        #expect(origin.asked.withLock { $0[1] }.modified == "Fri, 27 Nov 2026 10:00:00 GMT")
        clock.advance(61)
        #expect(try Self.load(cache, origin) == "v2")
        #expect(origin.requests == 3)
    }

    @Test("no max-age, or no-cache: asked again every time, conditionally")
    func noFreshness() throws {
        let cache = FeedFetchCache(now: { 0 })
        let origin = Origin([
            HTTPAnswer(status: 200, body: Self.document("v1"), etag: "\"e\"", cacheControl: "no-cache, max-age=600"),
            HTTPAnswer(status: 304),
        ])
        #expect(try Self.load(cache, origin) == "v1")
        #expect(try Self.load(cache, origin) == "v1")
        #expect(origin.requests == 2 && origin.asked.withLock { $0[1] }.etag == "\"e\"")
        // paging inside the kept document asks nothing
        #expect(try Self.load(cache, origin, reuse: true) == "v1")
        #expect(origin.requests == 2)
    }

    @Test("a 429 or 503 is waited out (Retry-After, else doubling), the document kept meanwhile")
    func backOff() throws {
        let clock = Clock()
        let cache = FeedFetchCache(now: { clock.seconds.withLock { $0 } })
        let origin = Origin([
            HTTPAnswer(status: 200, body: Self.document("v1")),
            HTTPAnswer(status: 429, retryAfterSeconds: 30),
            HTTPAnswer(status: 503),
            HTTPAnswer(status: 200, body: Self.document("v2")),
        ])
        #expect(try Self.load(cache, origin) == "v1")
        #expect(try Self.load(cache, origin) == "v1")  // 429: the kept one
        clock.advance(29)
        #expect(try Self.load(cache, origin) == "v1")  // waiting: not asked
        #expect(origin.requests == 2)
        clock.advance(2)
        #expect(try Self.load(cache, origin) == "v1")  // 503 without Retry-After: 2 s (the second wait)
        clock.advance(1)
        #expect(try Self.load(cache, origin) == "v1")
        #expect(origin.requests == 3)
        clock.advance(1.5)
        #expect(try Self.load(cache, origin) == "v2")
    }

    @Test("with nothing kept, a 429 fails the load saying when it asks again; other statuses fail as before")
    func failures() {
        let cache = FeedFetchCache(now: { 0 })
        #expect(throws: FeedError.unavailable("https://feeds.test/a.xml answered HTTP 429; asking again in 7 s")) {
            try Self.load(cache, Origin([HTTPAnswer(status: 429, retryAfterSeconds: 7)]))
        }
        #expect(throws: FeedError.unavailable("https://feeds.test/a.xml asked to wait; asking again in 7 s")) {
            try Self.load(cache, Origin([]))
        }
        #expect(throws: FeedError.unavailable("https://feeds.test/b.xml answered HTTP 404")) {
            try cache.document(
                at: "https://feeds.test/b.xml", reuse: false, fetch: { _, _ in HTTPAnswer(status: 404) },
                read: Self.read)
        }
    }

    @Test("at most its capacity of documents, the least recently used going first")
    func capacity() throws {
        let cache = FeedFetchCache(capacity: 2, now: { 0 })
        for name in ["a", "b", "a", "c"] {
            _ = try cache.document(
                at: "https://feeds.test/\(name)", reuse: true,
                fetch: { _, _ in HTTPAnswer(status: 200, body: Data(name.utf8)) }, read: Self.read)
        }
        #expect(cache.count == 2)
        let asked = Mutex(0)
        _ = try cache.document(
            at: "https://feeds.test/a", reuse: true,
            fetch: { _, _ in
                asked.withLock { $0 += 1 }
                return HTTPAnswer(status: 200, body: Data("a".utf8))
            }, read: Self.read)
        #expect(asked.withLock { $0 } == 0, "a was used last but one: kept")
    }

    @Test("Cache-Control's freshness: s-maxage first, then max-age; none under no-store or no-cache")
    func freshness() {
        #expect(HTTPAnswer(status: 200, cacheControl: "public, max-age=120").freshSeconds == 120)
        #expect(HTTPAnswer(status: 200, cacheControl: "max-age=120, s-maxage=30").freshSeconds == 30)
        #expect(HTTPAnswer(status: 200, cacheControl: "no-store, max-age=120").freshSeconds == 0)
        #expect(HTTPAnswer(status: 200, cacheControl: "max-age=\"15\"").freshSeconds == 15)
        #expect(HTTPAnswer(status: 200).freshSeconds == 0)
    }
}
