/// The demo's feed inside the engine: one more source behind the list's ``SourcePager``, which answers the
/// model's requests itself, at their due time (docs/FEEDS.md, "The simulated feed").
///
/// A reverse-chronological feed of ids, newest first: before every refresh a few new items appear at the top;
/// older pages run out after `totalItems`. Each request (but the first load, answered at once so the list
/// opens full) answers after `latencyMs`, or fails with probability `failureRate` (one draw of a seeded
/// generator per request), or, when `latencyMs` is over `timeoutMs`, fails at `timeoutMs`. Item `n` is by
/// "Item n" and its text, of a varying length, follows from `n` alone; the newest item when the feed starts is
/// dated at its start, each older one 7 minutes before the next, and each published later a second after the one
/// before (``start``), so every page and every replay shows the same rows. All of it is deterministic.
public struct SimulatedFeed: Hashable, Sendable, Codable {
    /// The start of a feed given none, µs since 1970 (2026-01-01T00:00:00Z).
    public static let epochMicros: Int64 = 1_767_225_600_000_000
    /// How far apart the items there at the start are dated, µs.
    static let spacingMicros: Int64 = 7 * 60_000_000

    /// A request the feed has taken and will answer at `due`.
    public struct Pending: Hashable, Sendable, Codable {
        /// The request.
        public var request: SourceRequest
        /// When the answer comes.
        public var due: Timestamp
        /// Whether it is a failure.
        public var fails: Bool
    }

    public var configuration: FeedConfiguration
    /// When the feed (re)started: its newest item then is dated at it (a model's start; the session's clock).
    public private(set) var start: Timestamp
    /// The newest id when the feed (re)started.
    private var startID: Int
    /// The newest id that exists.
    public private(set) var newestID: Int
    /// The oldest id that exists.
    public private(set) var oldestID: Int
    /// The request being answered, if any.
    public private(set) var pending: Pending?
    private var generator: SeededGenerator

    /// A feed of `configuration.totalItems` items whose newest is dated at `start`; its failures drawn from `seed`.
    public init(
        configuration: FeedConfiguration, seed: UInt64, start: Timestamp = Timestamp(microseconds: Self.epochMicros)
    ) {
        self.configuration = configuration
        self.generator = SeededGenerator(seed: seed)
        self.start = start
        self.oldestID = 1
        self.newestID = max(0, configuration.totalItems)
        self.startID = newestID
    }

    /// Starts the feed over at `time` with `totalItems` items (the generator keeps its sequence).
    public mutating func restart(at time: Timestamp) {
        oldestID = 1
        newestID = max(0, configuration.totalItems)
        startID = newestID
        start = time
        pending = nil
    }

    /// New items arrive at the top, as they would on a real feed between two refreshes.
    public mutating func publishNewItems() {
        newestID += max(0, configuration.newItemsPerRefresh)
    }

    /// Takes `request` (the pager's running one), unless it is the one already taken: decides, once per
    /// request, when its answer is due and whether it fails. A first load is due at once and never fails.
    public mutating func take(_ request: SourceRequest) {
        guard pending?.request.id != request.id else { return }
        guard request.kind != .firstLoad else {
            pending = Pending(request: request, due: request.issued, fails: false)
            return
        }
        let fails = generator.unit() < configuration.failureRate
        if configuration.latencyMs > configuration.timeoutMs {
            pending = Pending(
                request: request, due: request.issued.advanced(bySeconds: configuration.timeoutMs / 1000), fails: true)
        } else {
            pending = Pending(
                request: request, due: request.issued.advanced(bySeconds: configuration.latencyMs / 1000),
                fails: fails)
        }
    }

    /// A pager for the feed as it is, with its first page loaded and placed at once (the list opens full).
    public mutating func firstPage(_ configuration: FeedConfiguration, at time: Timestamp) -> SourcePager {
        var pager = SourcePager(configuration: configuration, at: time)
        if let first = pager.running {
            take(first)
            if let answer = answer(at: time), pager.answer(answer) != nil, let change = pager.lastRowsChange {
                _ = pager.place(change, contentOffset: 0)
            }
        }
        return pager
    }

    /// Forgets the request taken (the pager dropped it: its answer would be stale).
    public mutating func drop() {
        pending = nil
    }

    /// The answer to the request taken, if it is due by `time`. A refresh finds the new items first.
    public mutating func answer(at time: Timestamp) -> FeedAnswerInput? {
        guard let pending, pending.due <= time else { return nil }
        self.pending = nil
        let waited = pending.due.seconds(since: pending.request.issued) * 1000
        if pending.fails {
            let failure: FeedError =
                configuration.latencyMs > configuration.timeoutMs
                ? .timedOut(limitMs: Int(configuration.timeoutMs.rounded()))
                : .unavailable("the simulated feed failed this request (feed.failureRate)")
            return FeedAnswerInput(
                request: pending.request.id, outcome: .failure(FeedFailure(failure)), durationMs: waited)
        }
        if pending.request.kind == .refresh { publishNewItems() }
        return FeedAnswerInput(
            request: pending.request.id, outcome: .page(page(pending.request.request)), durationMs: waited)
    }

    /// The page `request` asks for: the newest items, those older or newer than a cursor (an item's id), or those
    /// around an item (an empty page when the feed does not hold it).
    public func page(_ request: FeedRequest) -> FeedPage {
        let limit = request.limit
        switch request.position {
        case .newest:
            return olderPage(below: newestID + 1, limit: limit)
        case .olderThan(let cursor):
            return olderPage(below: Self.id(cursor) ?? oldestID, limit: limit)
        case .newerThan(let cursor):
            let id = Self.id(cursor) ?? newestID
            let first = max(id + 1, oldestID)
            let last = min(newestID, id + limit)
            guard first <= last else {
                return FeedPage(items: [], olderCursor: cursor, newerCursor: cursor, hasMore: false)
            }
            return FeedPage(
                items: (first...last).reversed().map(item), olderCursor: FeedCursor(String(first)),
                newerCursor: FeedCursor(String(last)), hasMore: last < newestID)
        case .around(let text):
            // The item with a quarter of the page above it (as the SQLite source); nothing for an id it does not hold.
            guard let id = Int(text), id >= oldestID, id <= newestID else {
                return FeedPage(items: [], olderCursor: nil, newerCursor: nil, hasMore: false)
            }
            let top = min(newestID, id + (limit - 1) / 4)
            let bottom = max(oldestID, top - limit + 1)
            return FeedPage(
                items: (bottom...top).reversed().map(item), olderCursor: FeedCursor(String(bottom)),
                newerCursor: FeedCursor(String(top)), hasMore: bottom > oldestID, above: newestID - top)
        }
    }

    /// At most `limit` items older than `id`, newest first.
    private func olderPage(below id: Int, limit: Int) -> FeedPage {
        let first = min(newestID, id - 1)
        guard first >= oldestID else { return FeedPage(items: [], olderCursor: nil, newerCursor: nil, hasMore: false) }
        let last = max(oldestID, first - limit + 1)
        return FeedPage(
            items: (last...first).reversed().map(item), olderCursor: FeedCursor(String(last)),
            newerCursor: FeedCursor(String(first)), hasMore: last > oldestID)
    }

    private static func id(_ cursor: FeedCursor) -> Int? { Int(cursor.value) }

    /// Item `id`: by "Item `id`", its text a sentence or several (`SimulatedText`), dated from ``start``.
    public func item(_ id: Int) -> FeedItem {
        let after = Int64(id - startID)
        let time = start.microseconds + (after > 0 ? after * 1_000_000 : after * Self.spacingMicros)
        return FeedItem(
            id: String(id), text: SimulatedText.text(of: id), author: SimulatedText.author(of: id), timeMicros: time)
    }
}
