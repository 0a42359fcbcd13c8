/// The rows on screen and the one request in flight: IQPullToRefresh's pagination wrapper, made strict.
///
/// Refresh reloads the first page (and replaces the rows), unless the reader is scrolled down and the new items
/// reach the first row loaded: then they go on top of the rows, which stay (docs/LAYOUT.md, "The simulated
/// feed"); load-more appends the next one; a page that
/// comes back short, or with the source saying it was the last, switches load-more off (`hasMore`). Never
/// two requests at once: a refresh replaces a running load-more (whose late answer is then dropped), and
/// a load-more waits while a refresh runs.
public struct Pager: Hashable, Sendable, Codable {
    /// A request in flight.
    public struct Request: Hashable, Sendable, Codable {
        public enum Kind: String, Hashable, Sendable, Codable {
            case refresh
            case nextPage
        }

        public var id: Int
        public var kind: Kind
        /// The edge whose control asked.
        public var edge: Edge
        public var issued: Timestamp
        public var due: Timestamp
        public var fails: Bool
    }

    /// How a request ended: `onTop` counts the rows a refresh put above the rows loaded (0 when it replaced
    /// them, and for a load-more).
    public enum Result: Hashable, Sendable {
        case loaded(Request, items: Int, hasMore: Bool, onTop: Int)
        case failed(Request)
    }

    public private(set) var feed: SimulatedFeed
    /// Page index of the first page (IQ's `pageOffset`: 0 or 1 for most APIs).
    public var pageOffset: Int
    /// The id of the first row, and how many rows are loaded.
    public private(set) var newestLoadedID: Int
    public private(set) var count: Int
    public private(set) var hasMore: Bool
    public private(set) var running: Request?
    private var nextRequestID = 1

    /// A pager with the first page already loaded, so the demo opens on a full list.
    public init(feed: SimulatedFeed, pageOffset: Int = 0) {
        self.feed = feed
        self.pageOffset = pageOffset
        newestLoadedID = 0
        count = 0
        hasMore = false
        loadFirstPage()
    }

    /// The page index the next load-more asks for.
    public var nextPageIndex: Int {
        count / max(1, feed.configuration.pageSize) + pageOffset
    }

    /// The id of the last row loaded.
    public var oldestLoadedID: Int { newestLoadedID - count + 1 }

    /// Starts a request for `edge`. A refresh cancels a running load-more and returns it as dropped.
    /// Returns `nil` (and starts nothing) when the request is not allowed now.
    public mutating func request(
        _ kind: Request.Kind, for edge: Edge, at time: Timestamp
    ) -> (started: Request?, dropped: Request?) {
        var dropped: Request?
        if let running {
            guard kind == .refresh, running.kind == .nextPage else { return (nil, nil) }
            dropped = running
            self.running = nil
        }
        if kind == .nextPage && !hasMore { return (nil, dropped) }
        let plan = feed.schedule(at: time)
        let request = Request(id: nextRequestID, kind: kind, edge: edge, issued: time, due: plan.due, fails: plan.fails)
        nextRequestID += 1
        running = request
        return (request, dropped)
    }

    /// Drops the running request of `edge`, if any (its answer will be ignored).
    public mutating func cancel(for edge: Edge) -> Request? {
        guard let running, running.edge == edge else { return nil }
        self.running = nil
        return running
    }

    /// Resolves the running request if it is due by `time`. With `keepingLoaded` (the reader is scrolled down),
    /// a refresh whose first page reaches the first row loaded puts its new rows on top of the loaded ones.
    public mutating func resolve(at time: Timestamp, keepingLoaded: Bool = false) -> Result? {
        guard let request = running, request.due <= time else { return nil }
        running = nil
        if request.fails { return .failed(request) }
        let size = feed.configuration.pageSize
        switch request.kind {
        case .refresh:
            feed.publishNewItems()
            let newer = feed.newestID - newestLoadedID
            if keepingLoaded, count > 0, newer < size {
                newestLoadedID = feed.newestID
                count += newer
                return .loaded(request, items: count, hasMore: hasMore, onTop: newer)
            }
            loadFirstPage()
            return .loaded(request, items: count, hasMore: hasMore, onTop: 0)
        case .nextPage:
            let page = feed.page(olderThan: count > 0 ? oldestLoadedID : nil, size: size)
            let items = page.ids?.count ?? 0
            count += items
            hasMore = page.hasMore && items == size
            return .loaded(request, items: items, hasMore: hasMore, onTop: 0)
        }
    }

    /// Applies a new feed configuration. Latency and failures apply to later requests; a new size of the
    /// feed or of its pages starts it over from the first page (IQ resets its models the same way when the
    /// page size changes).
    /// - Returns: whether the feed started over.
    @discardableResult
    public mutating func reconfigure(_ configuration: FeedConfiguration) -> Bool {
        let restart =
            configuration.totalItems != feed.configuration.totalItems
            || configuration.pageSize != feed.configuration.pageSize
        feed.configuration = configuration
        guard restart else { return false }
        feed.restart()
        running = nil
        loadFirstPage()
        return true
    }

    private mutating func loadFirstPage() {
        let first = feed.page(olderThan: nil, size: feed.configuration.pageSize)
        newestLoadedID = first.ids?.upperBound ?? 0
        count = first.ids?.count ?? 0
        hasMore = first.hasMore && count == feed.configuration.pageSize
    }
}
