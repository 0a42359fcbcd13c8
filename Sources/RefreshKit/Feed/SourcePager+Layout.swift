/// The list's rows (any source's) in its ``RowLayout`` (docs/LAYOUT.md, "Wiring"): loaded pages go in as ids, the
/// page's measurements change their heights, and each change returns the content-offset correction that keeps
/// the first visible row still. Every change of the rows is also recorded for the pages (``RowsUpdate``).
extension SourcePager {
    /// An empty layout whose rows are `estimatedHeight` px until measured, holding about `maxHeldRows` rows.
    static func emptyLayout(estimatedHeight: Double, maxHeldRows: Int) -> RowLayout {
        RowLayout(
            estimatedHeight: min(max(estimatedHeight, .leastNormalMagnitude), RowLayout.maximumRowHeight),
            maxHeldRows: maxHeldRows)
    }

    /// Puts what the last answer changed in the loaded items (`change`) into the layout: every row anew (a
    /// replace), rows on top (a refresh), rows at the end (load more), with the answered page's cursors.
    /// - Returns: the correction to add to the content offset (`contentOffset` when the answer was applied).
    public mutating func place(_ change: RowsChange, contentOffset: Double) -> Double {
        let items = loaded.items
        switch change {
        case .replaced:
            layout = Self.emptyLayout(estimatedHeight: layout.estimatedHeight, maxHeldRows: layout.maxHeldRows)
            guard let correction = try? layout.append(items.map(\.id), contentOffset: contentOffset) else {
                return resynchronize()
            }
            window.cursors = items.isEmpty ? [] : [window.answered]
            window.top = items.first
            record(.replaced(items: items, above: 0, below: 0))
            return correction
        case .prepended(let count):
            let ids = items.prefix(count).map(\.id)
            guard let correction = try? layout.insertOnTop(ids, contentOffset: contentOffset),
                layout.heldRowCount == items.count
            else { return resynchronize() }
            // The new rows' older end has no cursor of its own (the page went on into rows already held).
            window.cursors.insert(PageCursors(newer: window.answered.newer, older: nil), at: 0)
            window.top = items.first
            record(.prepended(Array(items.prefix(count))))
            return correction
        case .placeholdersOnTop(let count):
            let correction = layout.insertPlaceholdersOnTop(count, contentOffset: contentOffset)
            record(.replaced(items: items, above: layout.placeholdersAbove, below: layout.placeholdersBelow))
            return correction
        case .appended(let count):
            guard let correction = try? layout.append(items.suffix(count).map(\.id), contentOffset: contentOffset),
                layout.heldRowCount == items.count
            else { return resynchronize() }
            // A page whose first items were skipped (already held) has no newer cursor for its first fresh item.
            window.cursors.append(
                window.answeredWhole ? window.answered : PageCursors(newer: nil, older: window.answered.older))
            record(.appended(Array(items.suffix(count))))
            return correction
        }
    }

    /// Applies a batch of measurements (``RowLayout/measure(_:contentOffset:)``): all or nothing.
    /// - Returns: the correction to add to the content offset.
    public mutating func measure(_ rows: [RowMeasurement], contentOffset: Double) throws(LayoutError) -> Double {
        try layout.measure(rows, contentOffset: contentOffset)
    }

    /// Counts a stale `measure` batch (made at another width), which changes nothing else.
    public mutating func countStaleMeasurement() {
        staleMeasurements += 1
    }

    /// Every held row the page has measured, top to bottom, with its accepted height.
    public var measuredHeights: [RowMeasurement] {
        let first = layout.placeholdersAbove
        return (first..<first + layout.heldRowCount).compactMap { row in
            guard layout.isMeasured(row: row), let id = layout.id(ofRow: row) else { return nil }
            return RowMeasurement(id: id, height: layout.height(ofRow: row))
        }
    }

    /// Rebuilds the layout from the loaded items at the estimate, as one page without placeholders: only if the
    /// layout and the items disagree, which the items' own rules (new, unique ids) rule out. No correction.
    private mutating func resynchronize() -> Double {
        layout = Self.emptyLayout(estimatedHeight: layout.estimatedHeight, maxHeldRows: layout.maxHeldRows)
        _ = try? layout.append(loaded.items.map(\.id), contentOffset: 0)
        window.cursors = loaded.items.isEmpty ? [] : [PageCursors(newer: loaded.newerCursor, older: loaded.olderCursor)]
        window.top = loaded.items.first
        record(.replaced(items: loaded.items, above: 0, below: 0))
        return 0
    }

    /// A new estimate (`rowHeight` configured): the rows not measured take it (placeholders too); measured rows
    /// keep their heights; the pages and placeholders stay as they are.
    mutating func reestimate(_ estimatedHeight: Double) {
        let kept = measuredHeights
        var fresh = Self.emptyLayout(estimatedHeight: estimatedHeight, maxHeldRows: layout.maxHeldRows)
        var start = 0
        for size in layout.pageSizes {
            _ = try? fresh.append(layout.heldIDs[start..<start + size].map { $0 }, contentOffset: 0)
            start += size
        }
        fresh.placeholdersAbove = layout.placeholdersAbove
        fresh.placeholdersBelow = layout.placeholdersBelow
        _ = try? fresh.measure(kept, contentOffset: 0)
        layout = fresh
    }

    /// Records a change of the rows for the pages (``ListModel/takeRowsUpdates()``).
    mutating func record(_ change: RowsUpdate.Change) {
        if window.updates.count >= RowsUpdate.limit {
            window.updates.removeAll()
            window.overflowed = true
        }
        window.updates.append(RowsUpdate(change, rowCount: layout.rowCount))
    }
}
