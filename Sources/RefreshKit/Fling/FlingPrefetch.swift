/// Prefetch where a fling stops (docs/LAYOUT.md, "Where a fling stops"): while the list moves on its own, the window's
/// reload covers the motion's whole way at once, rather than a page at a time as placeholders come near the viewport.
///
/// The rules, over the list's rows: the pager keeps the state (the running request) and asks the source
/// (``SourcePager/reloadWanted(contentOffset:viewportHeight:prefetch:at:overReload:)``); this room decides how much a
/// reload asks for and whether it replaces one running.
enum FlingPrefetch {
    /// The reload to start for the window of `size` keeping `reach` loaded, with how many items it asks for, or
    /// `nil`. Along a motion's way, one request fills the way, and may replace a reload running the same way for a
    /// page or more fewer items; with the viewport alone, a page when nothing runs.
    static func reload(
        for reach: WindowReach, in pager: SourcePager, _ size: WindowSize, at time: Timestamp
    ) -> (edge: PageEdge, position: FeedPosition, limit: Int)? {
        guard
            let wanted = pager.reloadWanted(
                contentOffset: reach.top, viewportHeight: reach.height, prefetch: size.prefetch, at: time,
                overReload: reach.alongMotion)
        else { return nil }
        guard reach.alongMotion else { return (wanted.edge, wanted.position, pager.pageSize) }
        let limit = limit(at: wanted.edge, of: reach, in: pager, prefetch: size.prefetch, most: 2 * size.heldRows)
        guard mayReplace(pager.running, at: wanted.edge, limit: limit, pageSize: pager.pageSize) else { return nil }
        return (wanted.edge, wanted.position, limit)
    }

    /// How many items a reload at `edge` asks for: the placeholders between the held rows and `prefetch` px beyond
    /// the far end of `reach`, and a page beyond, so that the reader's next drag from where the fling stops starts
    /// among loaded rows; a page at least, `most` at most.
    static func limit(at edge: PageEdge, of reach: WindowReach, in pager: SourcePager, prefetch: Double, most: Int)
        -> Int
    {
        let geometry = pager.geometry
        let needed: Int
        switch edge {
        case .above:
            needed = geometry.placeholdersAbove - (geometry.row(at: reach.top - prefetch) ?? 0)
        case .below:
            let last = geometry.row(at: reach.top + reach.height + prefetch) ?? (geometry.rowCount - 1)
            needed = last + 1 - (geometry.placeholdersAbove + geometry.heldRowCount)
        }
        return max(pager.pageSize, min(needed + pager.pageSize, most))
    }

    /// Whether a reload of `limit` items at `edge` starts with `running` under way: nothing runs, or a reload runs
    /// the same way for a page or more fewer (a page asked for while the finger dragged, before the release said how
    /// far the fling goes). The new one replaces it, and its answer, when it comes, is stale.
    static func mayReplace(_ running: SourceRequest?, at edge: PageEdge, limit: Int, pageSize: Int) -> Bool {
        guard let running else { return true }
        return running.kind == .reload && (running.edge == .top) == (edge == .above)
            && running.request.limit + pageSize <= limit
    }
}
