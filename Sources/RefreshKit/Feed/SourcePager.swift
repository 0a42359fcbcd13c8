/// The pager of a list's feed (``ListModel/pager``), whichever source answers: the one request in flight, the
/// items loaded, and the log of answered requests. It never calls a source: it asks (``running``), and the
/// answer comes back to it (``answer(_:)``) from the engine's own ``SimulatedFeed`` (``FeedMode/simulated``)
/// or, as an input the host brings, from a source outside the engine (``FeedMode/external``).
///
/// The rules are the same whichever source answers: never two requests at once; a refresh replaces a running
/// load-more (whose late answer is then dropped as stale); a load-more waits while a refresh runs and needs
/// an older cursor. A request that has no answer by its deadline fails, as a lost answer would.
///
/// ```
///            request ──────────▶ running ── answer (page, checked) ──▶ loaded (rows change)
///                                  │  └──── answer (failure, refused page) ──▶ failed
///                                  └─ deadline ──▶ failed (timed out)
///  answer for another id ──▶ dropped (stale)
/// ```
public struct SourcePager: Hashable, Sendable, Codable {
    /// Added to the feed's `timeoutMs` before the engine gives up on an answer: the source's own time limit
    /// comes first, and its `timed_out` answer needs a moment to reach the service thread.
    public static let graceMs = 1_000.0
    /// How many answered requests ``answered`` keeps.
    public static let logLength = 8

    /// The items loaded, and their cursors.
    public internal(set) var loaded = LoadedItems()
    /// The request in flight, if any.
    public internal(set) var running: SourceRequest? {
        didSet { runningID = running?.id ?? 0 }
    }
    /// The id of ``running``, 0 when none runs: what an observation compares, without reading the request.
    public private(set) var runningID = 0
    /// What the last applied answer changed in the items (`nil`: nothing, or a failure).
    public internal(set) var lastRowsChange: RowsChange?
    /// The last ``logLength`` requests that ended, oldest first.
    public private(set) var answered: [AnsweredRequest] = []
    /// How many requests ended in all (a host sends the log's entries it has not sent).
    public private(set) var answeredCount = 0
    /// Items per page.
    public private(set) var pageSize: Int
    /// The feed's time limit, milliseconds.
    public private(set) var timeoutMs: Double
    /// The rows' layout without their ids, which are the loaded items' (``layout``): their heights (the estimate,
    /// `rowHeight`, until the page measures them) and positions (docs/LAYOUT.md, "Wiring"). Kept in step with
    /// ``loaded`` by ``place(_:contentOffset:)``.
    var geometry: RowGeometry
    /// How many `measure` batches were stale (made at another width) and ignored.
    public internal(set) var staleMeasurements = 0
    /// The window of pages: each held page's cursors, the rows updates for the pages, the list's top item
    /// (docs/LAYOUT.md, "The window"; SourcePager+Window.swift).
    public internal(set) var window = PageWindow()
    /// A jump's alignment, and its offset into the row in quarter pixels, while its item could not land there yet
    /// (too few rows below it to put it at the top: the offset stopped at the content's end); it lands again as rows
    /// come below it (Jump/Jump.swift). Three bytes in the room before ``heldRowIndex``'s alignment: no
    /// larger session.
    var landing: ItemAlignment?
    var landingQuarters: Int16 = 0
    /// The row a `scrollToItem` landed on (its index in the whole list; −1 for none), kept still on screen whatever
    /// the rows around it do, in place of the first visible row, until a gesture or another scroll
    /// (SourcePager+Layout.swift; docs/LAYOUT.md, "Anchoring"). An `Int32` right after the window, whose last field
    /// leaves it room: the session object keeps its allocator class (docs/PERFORMANCE.md, "Memory per connected
    /// session").
    var heldRowIndex: Int32 = -1
    private var nextRequestID = 1

    /// How a request ended, for the model.
    public enum Result: Hashable, Sendable {
        /// A page was applied: `items` of it, and whether older items may exist now.
        case loaded(SourceRequest, items: Int, hasMore: Bool)
        /// It failed.
        case failed(SourceRequest)
    }

    /// A pager that asks for the first page at `time` (``SourceRequest/Kind/firstLoad``).
    public init(configuration: FeedConfiguration, at time: Timestamp) {
        pageSize = max(1, configuration.pageSize)
        timeoutMs = configuration.timeoutMs
        // Sized for no viewport until the model's first observation sizes the window (``window(viewportHeight:)``).
        geometry = Self.emptyGeometry(
            estimatedHeight: configuration.rowHeight,
            maxHeldRows: WindowSize(pageSize: pageSize, estimatedHeight: configuration.rowHeight, viewportHeight: 0)
                .heldRows)
        running = makeRequest(.firstLoad, edge: .top, position: .newest, at: time)
        runningID = running?.id ?? 0  // an initialiser's assignment calls no `didSet`
    }

    /// The rows' layout: the loaded items' ids with `geometry` (made for each read: a model's own reads go to
    /// the geometry and the items).
    public var layout: RowLayout { RowLayout(geometry: geometry, heldIDs: loaded.items.map(\.id)) }
    /// Items loaded.
    public var count: Int { loaded.items.count }
    /// The items loaded, newest first (those of the pages the window holds).
    public var items: [FeedItem] { loaded.items }
    /// The list's first item, also while its page is dropped (where "N new" counts from); `nil` before the
    /// first page.
    public var topItem: FeedItem? { window.top ?? loaded.items.first }
    /// The last requests that ended, oldest first (at most ``logLength``), and how many ended in all.
    public var answeredRequests: (recent: [AnsweredRequest], total: Int) { (answered, answeredCount) }
    /// Whether a load-more may find older items.
    public var hasMore: Bool { loaded.hasMore }

    /// Starts a request for `edge`. A refresh cancels a running load-more and returns it as dropped.
    /// Returns `nil` (and starts nothing) when the request is not allowed now.
    public mutating func request(
        _ kind: SourceRequest.Kind, for edge: Edge, at time: Timestamp
    ) -> (started: SourceRequest?, dropped: SourceRequest?) {
        var dropped: SourceRequest?
        if let running {
            guard kind == .refresh, running.kind != .refresh, running.kind != .firstLoad else { return (nil, nil) }
            dropped = running
            self.running = nil
        }
        let position: FeedPosition
        switch kind {
        case .firstLoad, .refresh:
            position = .newest
        case .nextPage:
            guard hasMore, let cursor = loaded.olderCursor else { return (nil, dropped) }
            position = .olderThan(cursor)
        case .reload, .jump:
            return (nil, dropped)
        }
        let request = makeRequest(kind, edge: edge, position: position, at: time)
        running = request
        return (request, dropped)
    }

    /// Drops the running request of `edge`, if any (its answer will be dropped as stale).
    public mutating func cancel(for edge: Edge) -> SourceRequest? {
        guard let running, running.edge == edge else { return nil }
        self.running = nil
        return running
    }

    /// Fails the running request if its deadline has come by `time`.
    public mutating func resolve(at time: Timestamp) -> Result? {
        guard let request = running, request.deadline <= time else { return nil }
        running = nil
        let waited = request.deadline.seconds(since: request.issued) * 1000
        return fail(request, FeedFailure(.timedOut(limitMs: Int(timeoutMs.rounded()))), durationMs: waited)
    }

    /// Applies `answer`: a page is checked and merged, a failure fails the request.
    /// - Returns: how the request ended, or `nil` when the answer is for no running request (stale).
    public mutating func answer(_ answer: FeedAnswerInput) -> Result? {
        guard let request = running, request.id == answer.request else { return nil }
        running = nil
        lastRowsChange = nil
        switch answer.outcome {
        case .failure(let failure):
            return fail(request, failure, durationMs: answer.durationMs)
        case .page(let page):
            var merged = loaded
            let change: RowsChange?
            do {
                switch request.kind {
                case .firstLoad, .refresh:
                    change =
                        geometry.placeholdersAbove > 0
                        ? try newRowsAboveDroppedTop(page, merging: &merged, limit: request.request.limit)
                        : try merged.mergeNewest(page, limit: request.request.limit)
                case .nextPage, .reload, .jump: change = try merged.append(page, limit: request.request.limit)
                }
            } catch {
                return fail(request, FeedFailure(error), durationMs: answer.durationMs)
            }
            loaded = merged
            lastRowsChange = change
            window.answered = PageCursors(newer: page.newerCursor, older: page.olderCursor)
            window.answeredWhole = change == .appended(page.items.count)
            log(
                AnsweredRequest(
                    request: request, outcome: .loaded(items: page.items.count), durationMs: answer.durationMs))
            return .loaded(request, items: page.items.count, hasMore: hasMore)
        }
    }

    /// Takes the page size and time limit of `configuration` for later requests (the items stay).
    public mutating func reconfigure(_ configuration: FeedConfiguration) {
        pageSize = max(1, configuration.pageSize)
        timeoutMs = configuration.timeoutMs
        // The window follows the page size: the next observation resizes it (``window(viewportHeight:)``).
        if configuration.rowHeight != geometry.estimatedHeight { reestimate(configuration.rowHeight) }
    }

    private mutating func fail(_ request: SourceRequest, _ failure: FeedFailure, durationMs: Double) -> Result {
        log(AnsweredRequest(request: request, outcome: .failed(failure), durationMs: durationMs))
        return .failed(request)
    }

    mutating func log(_ entry: AnsweredRequest) {
        if answered.count == Self.logLength { answered.removeFirst() }
        answered.append(entry)
        answeredCount += 1
    }

    mutating func makeRequest(
        _ kind: SourceRequest.Kind, edge: Edge, position: FeedPosition, limit: Int? = nil, at time: Timestamp
    ) -> SourceRequest {
        defer { nextRequestID += 1 }
        return SourceRequest(
            id: nextRequestID, kind: kind, edge: edge, request: FeedRequest(position, limit: limit ?? pageSize),
            issued: time,
            deadline: time.advanced(bySeconds: (timeoutMs + Self.graceMs) / 1000))
    }
}

// Coded as its members were when the layout kept the ids itself: ``layout`` among them, in their order. A coded
// layout whose ids are not the loaded items' is refused (they are the same rows: docs/LAYOUT.md, "The window,
// wired").
extension SourcePager {
    private enum CodingKeys: String, CodingKey {
        case loaded, running, runningID, lastRowsChange, answered, answeredCount, pageSize, timeoutMs, layout
        case staleMeasurements, window, nextRequestID, held, landing, landingQuarters
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        loaded = try container.decode(LoadedItems.self, forKey: .loaded)
        running = try container.decodeIfPresent(SourceRequest.self, forKey: .running)
        runningID = try container.decode(Int.self, forKey: .runningID)
        lastRowsChange = try container.decodeIfPresent(RowsChange.self, forKey: .lastRowsChange)
        answered = try container.decode([AnsweredRequest].self, forKey: .answered)
        answeredCount = try container.decode(Int.self, forKey: .answeredCount)
        pageSize = try container.decode(Int.self, forKey: .pageSize)
        timeoutMs = try container.decode(Double.self, forKey: .timeoutMs)
        let layout = try container.decode(RowLayout.self, forKey: .layout)
        guard layout.heldIDs.elementsEqual(loaded.items.lazy.map(\.id)) else {
            throw DecodingError.dataCorruptedError(
                forKey: .layout, in: container, debugDescription: "the layout's rows are not the loaded items")
        }
        geometry = layout.geometry
        staleMeasurements = try container.decode(Int.self, forKey: .staleMeasurements)
        window = try container.decode(PageWindow.self, forKey: .window)
        nextRequestID = try container.decode(Int.self, forKey: .nextRequestID)
        heldRowIndex = try container.decodeIfPresent(Int32.self, forKey: .held) ?? -1
        landing = try container.decodeIfPresent(ItemAlignment.self, forKey: .landing)
        landingQuarters = try container.decodeIfPresent(Int16.self, forKey: .landingQuarters) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(loaded, forKey: .loaded)
        try container.encodeIfPresent(running, forKey: .running)
        try container.encode(runningID, forKey: .runningID)
        try container.encodeIfPresent(lastRowsChange, forKey: .lastRowsChange)
        try container.encode(answered, forKey: .answered)
        try container.encode(answeredCount, forKey: .answeredCount)
        try container.encode(pageSize, forKey: .pageSize)
        try container.encode(timeoutMs, forKey: .timeoutMs)
        try container.encode(layout, forKey: .layout)
        try container.encode(staleMeasurements, forKey: .staleMeasurements)
        try container.encode(window, forKey: .window)
        try container.encode(nextRequestID, forKey: .nextRequestID)
        if heldRowIndex >= 0 { try container.encode(heldRowIndex, forKey: .held) }
        try container.encodeIfPresent(landing, forKey: .landing)
        if landingQuarters != 0 { try container.encode(landingQuarters, forKey: .landingQuarters) }
    }
}
