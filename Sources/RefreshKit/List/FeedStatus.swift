/// What ``ListModel`` reads of its feed on every input and frame, in one value kept between changes of the
/// pager (``ListModel/feedStatus()``): the request in flight, when something is due of it, and the rows.
///
/// The one-byte members follow the optional time, in the bytes its tag leaves: the value takes 24 bytes, not 40, in
/// the model that every session holds (docs/PERFORMANCE.md, "Memory per connected session").
struct FeedStatus: Hashable, Sendable {
    /// When the feed next acts by itself: the engine's own answer, or the deadline of a request to a source
    /// outside the engine.
    var due: Timestamp?
    /// The kind of the request in flight, if any.
    var running: SourceRequest.Kind?
    /// Whether a load-more may find another page.
    var hasMore: Bool
    /// Whether a load-more may start now (``SourcePager/mayLoadMore``).
    var mayLoadMore: Bool
    /// Whether a held item has a section: frames then carry the pinned header (``SectionHeaders/any(in:)``).
    var hasSections: Bool
    /// Rows in the layout, the placeholders of dropped pages included.
    var count: Int
}

/// What ``ListModel``'s observation reads of the feed on every turn of its loop over the controls: whether a
/// control of each role may start now (never two requests at once, a refresh wins over a load-more or a reload,
/// and a load-more needs another page), and whether another page may exist. Three flags rather than the whole
/// ``FeedStatus``, so the loop keeps them in registers (docs/PERFORMANCE.md, "No copies per input").
struct FeedStarts {
    var refresh: Bool
    var loadMore: Bool
    var hasMore: Bool

    init(_ feed: FeedStatus) {
        refresh = feed.running != .refresh && feed.running != .firstLoad
        loadMore = feed.running == nil && feed.mayLoadMore
        hasMore = feed.hasMore
    }

    /// Whether a control of `role` may start.
    @inline(__always)
    func allow(_ role: EdgeConfiguration.Role) -> Bool {
        switch role {
        case .refresh: refresh
        case .loadMore: loadMore
        }
    }
}
