/// What ``ListModel``'s observation reads of the feed on every turn of its loop over the controls: whether a
/// control of each role may start now (never two requests at once, a refresh wins over a load-more, and a
/// load-more needs another page), and whether another page may exist.
///
/// Three flags that stay in registers, rather than the whole ``FeedPager/Status`` (an optional request, a count,
/// flags), which the loop moved about on the stack on every turn (callgrind, ListModel.observe per call: 612 → 496).
struct FeedStarts {
    var refresh: Bool
    var loadMore: Bool
    var hasMore: Bool

    init(_ feed: FeedPager.Status) {
        refresh = feed.running?.kind != .refresh
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
