/// The pager behind a list, in its feed's mode: the simulated ``Pager`` (unchanged, so recorded traces replay
/// to the same bytes) or the ``SourcePager`` of an external source. ``ListModel`` drives both through the
/// same few calls and sees a request as a ``Pager/Request`` (an external request's `due` is its deadline).
public enum FeedPager: Hashable, Sendable, Codable {
    /// The engine's simulated feed.
    case simulated(Pager)
    /// An external source's answers.
    case external(SourcePager)

    /// A pager for `mode`: the simulated feed (seeded by `seed`, first page loaded) or an external one that
    /// asks for its first page at `time`.
    public init(_ mode: FeedMode, configuration: FeedConfiguration, seed: UInt64, at time: Timestamp) {
        switch mode {
        case .simulated: self = .simulated(Pager(feed: SimulatedFeed(configuration: configuration, seed: seed)))
        case .external: self = .external(SourcePager(configuration: configuration, at: time))
        }
    }

    /// The feed's mode.
    public var mode: FeedMode {
        switch self {
        case .simulated: .simulated
        case .external: .external
        }
    }

    /// The external pager, in ``FeedMode/external``.
    public var source: SourcePager? {
        guard case .external(let source) = self else { return nil }
        return source
    }

    /// Rows loaded; for an external feed, every row of its layout, the placeholders of dropped pages included.
    public var count: Int {
        switch self {
        case .simulated(let pager): pager.count
        case .external(let source): source.layout.rowCount
        }
    }

    /// Whether a load-more may start now: another page may exist, and (external) the list's last page is held.
    public var mayLoadMore: Bool {
        switch self {
        case .simulated(let pager): pager.hasMore
        case .external(let source): source.mayLoadMore
        }
    }

    /// Whether a load-more may find another page.
    public var hasMore: Bool {
        switch self {
        case .simulated(let pager): pager.hasMore
        case .external(let source): source.hasMore
        }
    }

    /// The simulated feed's first row id; 0 for an external feed (its rows have ids of their own).
    public var newestLoadedID: Int {
        switch self {
        case .simulated(let pager): pager.newestLoadedID
        case .external: 0
        }
    }

    /// The request in flight, if any.
    public var running: Pager.Request? {
        switch self {
        case .simulated(let pager): pager.running
        case .external(let source): source.running.map(Self.request)
        }
    }

    /// The members the model reads on every input and frame, together (``status``).
    public struct Status: Hashable, Sendable {
        /// ``FeedPager/running``.
        public var running: Pager.Request?
        /// ``FeedPager/count``.
        public var count: Int
        /// ``FeedPager/hasMore``.
        public var hasMore: Bool
        /// ``FeedPager/mayLoadMore``.
        public var mayLoadMore: Bool
        /// ``FeedPager/newestLoadedID``.
        public var newestLoadedID: Int
    }

    /// ``running``, ``count``, ``hasMore``, ``mayLoadMore`` and ``newestLoadedID`` in one read. Reading a
    /// payload out of this enum copies the whole enum (some 460 bytes) first; a getter's caller copies it once
    /// more to hand it over, and an inlined getter copies it twice. The model reads this once where it needs
    /// several of them (a frame, an observation): `mutating` only so that the enum is read where it lies, one
    /// copy a read (callgrind, docs/PERFORMANCE.md "Profile").
    public mutating func status() -> Status {
        switch self {
        case .simulated(let pager):
            Status(
                running: pager.running, count: pager.count, hasMore: pager.hasMore, mayLoadMore: pager.hasMore,
                newestLoadedID: pager.newestLoadedID)
        case .external(let source):
            Status(
                running: source.running.map(Self.request), count: source.layout.rowCount, hasMore: source.hasMore,
                mayLoadMore: source.mayLoadMore, newestLoadedID: 0)
        }
    }

    /// Starts a request for `edge` (``Pager/request(_:for:at:)``).
    public mutating func request(
        _ kind: Pager.Request.Kind, for edge: Edge, at time: Timestamp
    ) -> (started: Pager.Request?, dropped: Pager.Request?) {
        switch self {
        case .simulated(var pager):
            let result = pager.request(kind, for: edge, at: time)
            self = .simulated(pager)
            return result
        case .external:
            let (started, dropped) = withSource {
                $0.request(kind == .refresh ? .refresh : .nextPage, for: edge, at: time)
            }
            // A reload of the window's has no control to end.
            return (started.map(Self.request), dropped.flatMap { $0.kind == .reload ? nil : Self.request($0) })
        }
    }

    /// Drops the running request of `edge`, if any.
    public mutating func cancel(for edge: Edge) -> Pager.Request? {
        switch self {
        case .simulated(var pager):
            let dropped = pager.cancel(for: edge)
            self = .simulated(pager)
            return dropped
        case .external:
            return withSource { $0.cancel(for: edge) }.map(Self.request)
        }
    }

    /// Resolves the running request if it is due by `time` (an external one fails at its deadline);
    /// `keepingLoaded`: ``Pager/resolve(at:keepingLoaded:)`` (an external feed places its rows itself).
    public mutating func resolve(at time: Timestamp, keepingLoaded: Bool = false) -> Pager.Result? {
        switch self {
        case .simulated(var pager):
            guard let due = pager.running?.due, due <= time else { return nil }
            let result = pager.resolve(at: time, keepingLoaded: keepingLoaded)
            self = .simulated(pager)
            return result
        case .external(let source):
            guard let running = source.running, running.deadline <= time else { return nil }
            // A reload of the window's fails by itself: no control waits for it.
            if running.kind == .reload {
                withSource { _ = $0.resolveReload(at: time) }
                return nil
            }
            return withSource { $0.resolve(at: time) }.map(Self.result)
        }
    }

    /// Applies an external source's answer; `nil` when it answers no running request (or the feed is
    /// simulated): the model drops it as stale.
    public mutating func answer(_ answer: FeedAnswerInput) -> Pager.Result? {
        guard case .external = self else { return nil }
        return withSource { $0.answer(answer) }.map(Self.result)
    }

    /// Applies a new feed configuration (``Pager/reconfigure(_:)``). - Returns: whether the feed started
    /// over (an external feed never does: its items are the source's).
    public mutating func reconfigure(_ configuration: FeedConfiguration) -> Bool {
        switch self {
        case .simulated(var pager):
            let restarted = pager.reconfigure(configuration)
            self = .simulated(pager)
            return restarted
        case .external:
            withSource { $0.reconfigure(configuration) }
            return false
        }
    }

    /// Runs `body` on the external pager in place: the enum's copy is swapped out first, so the loaded items
    /// are not copied on write.
    mutating func withSource<R>(_ body: (inout SourcePager) -> R) -> R {
        guard case .external(var source) = self else { preconditionFailure("not an external feed") }
        self = .external(Self.placeholder)
        defer { self = .external(source) }
        return body(&source)
    }

    private static let placeholder = SourcePager(configuration: FeedConfiguration(), at: Timestamp(microseconds: 0))

    private static func request(_ request: SourceRequest) -> Pager.Request {
        Pager.Request(
            id: request.id, kind: request.kind == .refresh || request.kind == .firstLoad ? .refresh : .nextPage,
            edge: request.edge,
            issued: request.issued, due: request.deadline, fails: false)
    }

    private static func result(_ result: SourcePager.Result) -> Pager.Result {
        switch result {
        case .loaded(let request, let items, let hasMore):
            .loaded(Self.request(request), items: items, hasMore: hasMore, onTop: 0)
        case .failed(let request): .failed(Self.request(request))
        }
    }
}
