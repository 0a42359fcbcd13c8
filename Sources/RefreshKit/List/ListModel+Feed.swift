/// The list's feed (docs/FEEDS.md, "How answers reach the engine", "The simulated feed"): one ``SourcePager``
/// whichever source answers. A source outside the engine gets the pager's running request from the host
/// (``sourceRequest``) and answers it as an input (``Input/feedAnswer(_:)``); the engine's own ``SimulatedFeed``
/// answers it inside the model, at its due time. Either way the answer goes through the same rules, rows and layout.
extension ListModel {
    /// A pager for `mode`, asking for its first page at `time`, and the engine's own source for the simulated
    /// feed, whose first page is in at once (so the list opens full, and the footers start from it).
    static func startFeed(_ mode: FeedMode, configuration: FeedConfiguration, seed: UInt64, at time: Timestamp)
        -> (SourcePager, SimulatedFeed?)
    {
        guard mode == .simulated else { return (SourcePager(configuration: configuration, at: time), nil) }
        var feed = SimulatedFeed(configuration: configuration, seed: seed, start: time)
        return (feed.firstPage(configuration, at: time), feed)
    }

    /// The simulated feed starts over (a new size of the feed or of its pages): a new pager with the new first
    /// page, as IQPullToRefresh resets its models when the page size changes.
    mutating func restartSimulatedFeed(_ configuration: FeedConfiguration) {
        guard var feed = simulated else { return }
        feed.configuration = configuration
        feed.restart(at: now)
        pager = feed.firstPage(configuration, at: now)
        simulated = feed
    }

    /// The engine's own source takes the pager's running request (or lets go of one dropped), once per change.
    @inline(never)
    mutating func followSimulatedRequest() {
        followedRequest.value = pager.runningID
        guard simulated != nil else { return }
        if let running = pager.running { simulated?.take(running) } else { simulated?.drop() }
    }

    /// When the feed next acts by itself: the engine's own source answers, or a request to a source outside the
    /// engine fails for want of an answer. `nil` when no request runs.
    public var feedDue: Timestamp? { simulated == nil ? pager.running?.deadline : simulated?.pending?.due }

    /// Where the model's items come from.
    public var feedMode: FeedMode { simulated == nil ? .external : .simulated }

    /// The request the model has running to a source outside the engine (``FeedMode/external``), or `nil`
    /// (the simulated feed answers its own). A host submits it to the source when its ``SourceRequest/id``
    /// differs from the last one it submitted for the session (so a session rebuilt by a replay asks again), and
    /// applies the answer as an ``Input/feedAnswer(_:)``.
    public var sourceRequest: SourceRequest? { simulated == nil ? pager.running : nil }

    /// The rows started over (a first page, a refresh's new list, a jump, a new feed): the footers follow `hasMore`.
    mutating func resetFooters() {
        for index in controls.indices where controls[index].configuration.role == .loadMore {
            controls[index].feedReset(hasMore: pager.hasMore, at: now, events: &events)
        }
    }
}
