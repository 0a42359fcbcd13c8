import RefreshKit

/// What an app implements to put its own data behind the list (Paging 3's `PagingSource`).
///
/// ``load(_:)`` is a plain, blocking call: a ``FeedWorker`` runs it on a thread of its own, never on the
/// service thread, and checks each page with a ``FeedPageValidator`` before anyone sees it. A source answers
/// with a `FeedPage` or throws a `FeedError` that says what went wrong in words a person understands;
/// it keeps to its own time limit where it can (a socket's timeout, SQLite's busy timeout), and the worker
/// answers `FeedError/timedOut(limitMs:)` for it when it does not.
///
/// A source is `Sendable` because the worker calls it from its thread; calls come one at a time.
public protocol FeedSource: Sendable {
    /// The source's address as a person would type it (`sqlite:PATH`, `jsonfeed:URL`, `simulated`).
    var address: String { get }

    /// The page at `request.position`, newest first, with at most `request.limit` items.
    func load(_ request: FeedRequest) throws(FeedError) -> FeedPage
}

/// A source that takes new items (``SQLiteFeed``); `refreshkit post` and, later, the server's endpoint
/// write through it.
public protocol PostableFeedSource: FeedSource {
    /// Adds `post` at the top of the feed at `timeMicros` (or just after the newest item, if that is later, so the
    /// order and the times agree), and returns its item with its new id.
    func post(_ post: FeedPost, timeMicros: Int64) throws(FeedError) -> FeedItem
}

extension PostableFeedSource {
    /// Adds an item of `text` by `author`, with nothing else.
    public func post(text: String, author: String?, timeMicros: Int64) throws(FeedError) -> FeedItem {
        try post(FeedPost(text: text, author: author), timeMicros: timeMicros)
    }
}
