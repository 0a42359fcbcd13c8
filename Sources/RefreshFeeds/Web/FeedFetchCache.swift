import Foundation
import RefreshKit
import RefreshThreads

/// The documents of the feeds a server reads, kept and asked again as HTTP caches ask (docs/FEEDS.md, "What is
/// fetched when"): one fetch per feed, whatever the number of readers.
///
/// A document is used without asking again while its answer's `Cache-Control: max-age` lasts (at most
/// ``maxFreshSeconds``), and while a load pages inside it; after that it is asked for with its validators
/// (`If-None-Match` from its `ETag`, `If-Modified-Since` from its `Last-Modified`), and a `304` keeps it. An answer
/// of 429 or 503 makes the cache wait `Retry-After` seconds (else 1, 2, 4 … 60 s, doubling) before asking again,
/// serving the document it has meanwhile, or failing the load when it has none. At most ``capacity`` documents
/// are kept, the least recently used going first. Safe to call from several threads (the loads' worker and the
/// polls'); a fetch runs outside the lock.
public final class FeedFetchCache: Sendable {
    /// A fetched document as a source pages it: its items, the next document's address and the format found.
    public struct Document: Sendable {
        public var items: [FeedItem]
        public var nextURL: String?
        public var format: FeedFormat?
        public init(items: [FeedItem], nextURL: String?, format: FeedFormat? = nil) {
            self.items = items
            self.nextURL = nextURL
            self.format = format
        }
    }

    /// The most documents kept.
    public let capacity: Int
    /// The longest a document is used without asking again, whatever its `max-age` says: a person who pulls to
    /// refresh waits at most this long for what the feed has.
    public static var maxFreshSeconds: Double { 300 }

    private let now: @Sendable () -> Double
    private let state = LockedValue(State())

    private struct Entry: Sendable {
        var document: Document?
        var etag: String?
        var lastModified: String?
        var freshUntil: Double = 0
        var waitUntil: Double = 0
        var waits = 0
        var used: UInt64 = 0
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// A cache of `capacity` documents; `now` is a monotonic clock in seconds (the system's uptime, or a test's).
    public init(capacity: Int = 16, now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.capacity = capacity
        self.now = now
    }

    /// The document at `url`: the one kept when it is fresh or `reuse` allows, else the answer to a (conditional)
    /// `fetch`, read with `read`.
    /// - Parameters:
    ///   - url: the document's address, under which it is kept.
    ///   - reuse: whether a kept document is used even when no longer fresh (a load paging inside it).
    ///   - fetch: asks for `url` with the validators given (`If-None-Match`, `If-Modified-Since`).
    ///   - read: reads a fetched body into a document.
    public func document(
        at url: String, reuse: Bool,
        fetch: (_ ifNoneMatch: String?, _ ifModifiedSince: String?) throws(FeedError) -> HTTPAnswer,
        read: (Data) throws(FeedError) -> Document
    ) throws(FeedError) -> Document {
        let time = now()
        let kept = state.withLock { state in
            state.clock &+= 1
            state.entries[url]?.used = state.clock
            return state.entries[url]
        }
        if let kept, let document = kept.document, reuse || time < kept.freshUntil { return document }
        if let kept, time < kept.waitUntil {
            if let document = kept.document { return document }
            throw .unavailable("\(url) asked to wait; asking again in \(Int((kept.waitUntil - time).rounded(.up))) s")
        }
        let answer = try fetch(kept?.etag, kept?.lastModified)
        if answer.status == 304, let document = kept?.document {
            update(url) {
                $0.freshUntil = time + Self.fresh(answer)
                $0.waits = 0
            }
            return document
        }
        if answer.asksToWait {
            let waits = (kept?.waits ?? 0) + 1
            let seconds = answer.retryAfterSeconds.map(Double.init) ?? min(60, Double(1 << min(waits - 1, 6)))
            update(url) {
                $0.waitUntil = time + seconds
                $0.waits = waits
            }
            if let document = kept?.document { return document }
            throw .unavailable("\(url) answered HTTP \(answer.status); asking again in \(Int(seconds)) s")
        }
        guard (200..<300).contains(answer.status) else { throw .unavailable("\(url) answered HTTP \(answer.status)") }
        let document = try read(answer.body)
        update(url) {
            $0 = Entry(
                document: document, etag: answer.etag, lastModified: answer.lastModified,
                freshUntil: time + Self.fresh(answer), used: $0.used)
        }
        return document
    }

    /// How many documents are kept.
    public var count: Int { state.withLock { $0.entries.count } }

    private static func fresh(_ answer: HTTPAnswer) -> Double {
        min(Double(answer.freshSeconds), maxFreshSeconds)
    }

    /// Changes `url`'s entry (made when missing), then keeps at most ``capacity`` entries.
    private func update(_ url: String, _ change: (inout Entry) -> Void) {
        state.withLock { state in
            state.clock &+= 1
            var entry = state.entries[url] ?? Entry()
            change(&entry)
            entry.used = state.clock
            state.entries[url] = entry
            while state.entries.count > capacity,
                let oldest = state.entries.min(by: { $0.value.used < $1.value.used })?.key
            {
                state.entries[oldest] = nil
            }
        }
    }
}
