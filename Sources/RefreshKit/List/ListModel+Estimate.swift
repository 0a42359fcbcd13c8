/// A new estimate for the rows not measured yet (`configure` of `feed.rowHeight` on an external feed): the rows
/// above the first visible one change height like any other change of rows above, so the first visible row is
/// kept still on screen as for a measurement (docs/LAYOUT.md, "Anchoring"): at rest, during a drag and during a
/// fling, whose velocity is left as it is. At the top (offset ≤ 0) nothing is above the first row to move it.
extension ListModel {
    /// Applies `feed` to the pager (``FeedPager/reconfigure(_:)``) and adds to the content offset what the
    /// external feed's layout moved the first visible row by.
    /// - Returns: whether the feed started over (``FeedPager/reconfigure(_:)``).
    mutating func reconfigureFeedKeepingTheFirstVisibleRow(_ feed: FeedConfiguration) -> Bool {
        let offset = scroll.offset.y
        let before = offset > 0 ? rowLayout?.anchor(at: offset) : nil
        let restarted = pager.reconfigure(feed)
        guard let before, let layout = rowLayout else { return restarted }
        let row = before.id.flatMap { layout.row(of: $0) } ?? before.row
        guard row < layout.rowCount else { return restarted }
        let correction = layout.y(ofRow: row) - (offset - before.offset)
        if correction != 0 { scroll.shift(by: correction, contentSize: contentSize) }
        return restarted
    }
}
