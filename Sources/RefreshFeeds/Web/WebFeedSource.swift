import Foundation
import RefreshKit
import RefreshThreads

/// `feed:URL` (and `jsonfeed:URL`, its older name): a feed on the web in any format a feed reader reads (RSS,
/// Atom, JSON Feed: ``FeedDocument``), paged by its next page's link (JSON Feed `next_url`, RFC 5005's
/// `rel="next"`) (docs/FEEDS.md, "feed:URL").
///
/// A document may hold more items than a page: an older cursor names a document's address and how many of
/// its items were already shown (`older:SKIP:URL`); past a document's last item it names the `next_url`.
/// A newer cursor names the top item (`newer:TIME:ID`); asking for what is newer fetches the first document
/// again and answers the items above that one. The last document fetched is kept, so the pages inside it
/// cost no fetch; a refresh asks again unless the document is still fresh (``FeedFetchCache``). Every fetch keeps to ``FeedLimits/timeoutMs`` and
/// ``FeedLimits/maxBodyBytes``, and connects only where ``policy`` allows.
///
/// A failed load throws what the pages may be told (`FeedError.toldToPages(fetching:)`: no byte of a
/// fetched body, one reason for whatever kept a document from being fetched); the whole reason goes to whoever
/// ``reportFailures(to:)`` named (the server's log).
public final class WebFeedSource: FeedSource {
    /// The first document's address.
    public let url: String
    /// The address as given: `feed:URL`, or `jsonfeed:URL`.
    public let address: String
    /// Where its fetches may connect: the policy it was given, and this feed's own host on its port as written
    /// (``FetchPolicy/allowing(hostOf:)``). The feed's images are fetched with the same (the server's image
    /// endpoint).
    public let policy: FetchPolicy
    private let limits: FeedLimits
    private let failures = LockedValue<(@Sendable (_ url: String, _ reason: FeedError) -> Void)?>(nil)
    private let fetch: @Sendable (String, String?, String?) throws(FeedError) -> HTTPAnswer
    /// The documents fetched, kept and asked again as an HTTP cache does: an older page inside one is served
    /// without fetching again, and every session of the server reads the same fetches.
    public let cache: FeedFetchCache
    private typealias Page = FeedFetchCache.Document

    /// A source for the feed at `url`, fetched with ``CurlFetcher`` where `policy` allows and on `url`'s own host
    /// and port; `scheme` is the address's prefix (`feed`, or `jsonfeed`).
    public convenience init(
        url: String, scheme: String = "feed", limits: FeedLimits = FeedLimits(), policy: FetchPolicy = .outsideOnly
    ) {
        let policy = policy.allowing(hostOf: url)
        self.init(url: url, scheme: scheme, limits: limits, policy: policy) {
            (address: String, etag: String?, modified: String?) throws(FeedError) -> HTTPAnswer in
            try CurlFetcher.exchange(
                address, timeoutMs: limits.timeoutMs, maxBytes: limits.maxBodyBytes, policy: policy,
                ifNoneMatch: etag, ifModifiedSince: modified)
        }
    }

    /// A source for the feed at `url` whose answers `fetch` brings (from files, in tests), asked with the
    /// validators the cache holds.
    public init(
        url: String, scheme: String = "feed", limits: FeedLimits,
        cache: FeedFetchCache = FeedFetchCache(), policy: FetchPolicy = .outsideOnly,
        fetch:
            @escaping @Sendable (_ url: String, _ ifNoneMatch: String?, _ ifModifiedSince: String?) throws(FeedError)
            -> HTTPAnswer
    ) {
        self.url = url
        self.address = "\(scheme):\(url)"
        self.limits = limits
        self.cache = cache
        self.policy = policy.allowing(hostOf: url)
        self.fetch = fetch
    }

    /// Hands the whole reason of every failed fetch (the address asked for, and the error as it came: curl's words,
    /// the HTTP status, the address refused, what the body was) to `report`, on the thread that loaded. The loads
    /// themselves throw the short form the pages are told.
    public func reportFailures(to report: @escaping @Sendable (_ url: String, _ reason: FeedError) -> Void) {
        failures.withLock { $0 = report }
    }

    /// The feed's first document, read now (kept for the first load): the format it was found to be and how many
    /// entries it holds, for the server to say what it serves. - Throws: the whole reason (for the operator).
    public func probe() throws(FeedError) -> (format: FeedFormat?, entries: Int) {
        let first = try document(at: url, reuse: false, forPages: false)
        return (first.format, first.items.count)
    }

    /// The page at `request.position`.
    public func load(_ request: FeedRequest) throws(FeedError) -> FeedPage {
        switch request.position {
        case .around:
            // A document is read from its top, page by page through `next_url`: where an item lies is found only
            // by walking to it (docs/FEEDS.md, "A page around an item").
            throw .unsupported("load a page around an item: a web feed is read from its first document on")
        case .newest:
            return try page(of: try document(at: url, reuse: false), at: url, skipping: 0, limit: request.limit)
        case .olderThan(let cursor):
            let parts = cursor.value.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "older", let skip = Int(parts[1]), skip >= 0 else {
                throw .badCursor(cursor.value)
            }
            let address = String(parts[2])
            return try page(
                of: try document(at: address, reuse: skip > 0), at: address, skipping: skip, limit: request.limit)
        case .newerThan(let cursor):
            let parts = cursor.value.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            // (`newer::ID` for an undated item: found by its id alone)
            guard parts.count == 3, parts[0] == "newer", parts[1].isEmpty || Int64(parts[1]) != nil else {
                throw .badCursor(cursor.value)
            }
            let time = Int64(parts[1])
            // The items above the cursor's, from the first document on through `next_url` until the cursor's
            // item (or the first as old) is found: a page reloaded above rows deep in the feed (docs/LAYOUT.md,
            // "The window, wired") lies in whichever document holds them. Only the last `limit` are kept.
            let id = String(parts[2])
            var address = url
            var newer: [FeedItem] = []
            var more = false
            for walked in 0..<Self.maxDocumentsWalked {
                let document = try document(at: address, reuse: walked > 0)
                let above =
                    document.items.firstIndex { $0.id == id }
                    ?? document.items.firstIndex { item in
                        time.flatMap { t in item.timeMicros.map { $0 <= t } } ?? false
                    }
                newer += document.items[..<(above ?? document.items.endIndex)]
                if newer.count > request.limit {
                    newer.removeFirst(newer.count - request.limit)
                    more = true
                }
                guard above == nil, let next = document.nextURL,
                    let resolved = URL(string: next, relativeTo: URL(string: address))
                else { break }
                address = resolved.absoluteString
            }
            return FeedPage(
                items: newer, olderCursor: nil, newerCursor: newer.first.map(Self.newerCursor) ?? cursor,
                hasMore: more)
        }
    }

    /// The document at `address`: the one kept from the last fetch when `reuse` allows, fetched otherwise.
    /// - Throws: `forPages`, what the pages are told (the whole reason reported); else the whole reason.
    private func document(at address: String, reuse: Bool, forPages: Bool = true) throws(FeedError) -> Page {
        do {
            return try cache.document(at: address, reuse: reuse) { (etag, modified) throws(FeedError) in
                try fetch(address, etag, modified)
            } read: { (body) throws(FeedError) in
                let read = try FeedDocument(reading: body, url: address, limits: limits)
                return Page(items: read.items, nextURL: read.nextURL, format: read.format)
            }
        } catch {
            guard forPages else { throw error }
            failures.withLock { $0 }?(address, error)
            throw error.toldToPages(fetching: address)
        }
    }

    private func page(
        of document: Page, at address: String, skipping skip: Int, limit: Int
    ) throws(FeedError) -> FeedPage {
        let items = Array(document.items.dropFirst(skip).prefix(limit))
        let shown = skip + items.count
        var older: FeedCursor?
        if shown < document.items.count {
            older = FeedCursor("older:\(shown):\(address)")
        } else if let next = document.nextURL, let resolved = URL(string: next, relativeTo: URL(string: address)) {
            older = FeedCursor("older:0:\(resolved.absoluteString)")
        }
        return FeedPage(
            items: items, olderCursor: older, newerCursor: items.first.map(Self.newerCursor), hasMore: older != nil)
    }

    /// The most documents a `newerThan` walks to find the cursor's item (each within ``FeedLimits``).
    static let maxDocumentsWalked = 50

    private static func newerCursor(_ item: FeedItem) -> FeedCursor {
        FeedCursor("newer:\(item.timeMicros.map(String.init) ?? ""):\(item.id)")
    }
}
