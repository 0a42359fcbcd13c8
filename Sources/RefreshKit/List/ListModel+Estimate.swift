/// A new estimate for the rows not measured yet (`configure` of `feed.rowHeight`): the rows
/// above the first visible one change height like any other change of rows above, so the first visible row is
/// kept still on screen as for a measurement (docs/LAYOUT.md, "Anchoring"): at rest, during a drag and during a
/// fling, whose velocity is left as it is. At the top (offset ≤ 0) nothing is above the first row to move it.
extension ListModel {
    /// Applies `feed` to the pager (``SourcePager/reconfigure(_:)``) and adds to the content offset what the
    /// layout moved the first visible row by. The simulated feed starts over when the size of the feed or of its
    /// pages changes (``restartSimulatedFeed(_:)``); latency and failures apply to later requests.
    /// - Returns: whether the feed started over.
    mutating func reconfigureFeedKeepingTheFirstVisibleRow(_ feed: FeedConfiguration) -> Bool {
        if let current = simulated?.configuration,
            current.totalItems != feed.totalItems || current.pageSize != feed.pageSize
        {
            restartSimulatedFeed(feed)
            return true
        }
        simulated?.configuration = feed
        let offset = scroll.offset.y
        let before = offset > 0 ? rowLayout.anchor(at: offset) : nil
        pager.reconfigure(feed)
        guard let before else { return false }
        let layout = rowLayout
        let row = before.id.flatMap { layout.row(of: $0) } ?? before.row
        guard row < layout.rowCount else { return false }
        let correction = layout.y(ofRow: row) - (offset - before.offset)
        if correction != 0 { scroll.shift(by: correction, contentSize: contentSize) }
        return false
    }
}
