/// The list's rows (any source's) in its ``RowLayout`` (docs/LAYOUT.md, "Wiring"): loaded pages go in as ids, the
/// page's measurements change their heights, and each change returns the content-offset correction that keeps
/// the first visible row still. Every change of the rows is also recorded for the pages (``RowsUpdate``).
extension SourcePager {
    /// An empty layout whose rows are `estimatedHeight` px until measured, holding about `maxHeldRows` rows.
    static func emptyGeometry(estimatedHeight: Double, maxHeldRows: Int) -> RowGeometry {
        RowGeometry(
            estimatedHeight: min(max(estimatedHeight, .leastNormalMagnitude), RowLayout.maximumRowHeight),
            maxHeldRows: maxHeldRows)
    }

    /// Puts what the last answer changed in the loaded items (`change`) into the layout: every row anew (a
    /// replace), rows on top (a refresh), rows at the end (load more), with the answered page's cursors. The
    /// items' own rules keep their ids new and unique (``LoadedItems``), which is all a layout checks of ids.
    /// - Returns: the correction to add to the content offset (`contentOffset` when the answer was applied).
    public mutating func place(_ change: RowsChange, contentOffset: Double) -> Double {
        let before = heldTop
        // Rows on top move the held row down by as many; a replace starts the rows anew and lets it go.
        switch change {
        case .replaced: release()
        case .prepended(let count), .placeholdersOnTop(let count):
            if heldRowIndex >= 0 { heldRowIndex += Int32(clamping: count) }
        case .appended: break
        }
        return keepingHeld(from: before, placeRows(change, contentOffset: contentOffset))
    }

    private mutating func placeRows(_ change: RowsChange, contentOffset: Double) -> Double {
        let items = loaded.items
        switch change {
        case .replaced:
            geometry = Self.emptyGeometry(estimatedHeight: geometry.estimatedHeight, maxHeldRows: geometry.maxHeldRows)
            let correction = geometry.append(items.count, contentOffset: contentOffset)
            window.cursors = items.isEmpty ? [] : [window.answered]
            window.top = items.first
            record(.replaced(items: items, above: 0, below: 0))
            return correction
        case .prepended(let count):
            let correction = geometry.insertOnTop(count, contentOffset: contentOffset)
            guard geometry.heldRowCount == items.count else { return resynchronize() }
            // The new rows' older end has no cursor of its own (the page went on into rows already held).
            window.cursors.insert(PageCursors(newer: window.answered.newer, older: nil), at: 0)
            window.top = items.first
            record(.prepended(Array(items.prefix(count))))
            return correction
        case .placeholdersOnTop(let count):
            let correction = geometry.insertPlaceholdersOnTop(count, contentOffset: contentOffset)
            record(.replaced(items: items, above: geometry.placeholdersAbove, below: geometry.placeholdersBelow))
            return correction
        case .appended(let count):
            let correction = geometry.append(count, contentOffset: contentOffset)
            guard geometry.heldRowCount == items.count else { return resynchronize() }
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
        let positions = try check(rows)
        let before = heldTop
        return keepingHeld(from: before, geometry.measure(rows, at: positions, contentOffset: contentOffset))
    }

    /// The row a `scrollToItem` landed on and holds (docs/LAYOUT.md, "Anchoring"), nil when none is.
    public var heldRow: Int? { heldRowIndex >= 0 ? Int(heldRowIndex) : nil }

    /// Holds row `row` where it is on screen from now on (nil: none): each change of the rows then moves the content
    /// offset by that row's move, not the first visible row's.
    mutating func hold(_ row: Int?) {
        heldRowIndex = row.map { Int32(clamping: $0) } ?? -1
        if row == nil { (landing, landingQuarters) = (nil, 0) }
    }

    /// Lets the held row go: the first visible row is kept still again.
    mutating func release() {
        heldRowIndex = -1
        (landing, landingQuarters) = (nil, 0)
    }

    /// The top of the held row in the content, nil when none is held (or it is no longer a row of the list).
    private var heldTop: Double? {
        guard let row = heldRow, row < geometry.rowCount else { return nil }
        return geometry.y(ofRow: row)
    }

    /// A change's correction: the held row's move when it was held before the change (`before`) and still is,
    /// else the first visible row's (`correction`); a held row that left the list lets go.
    private mutating func keepingHeld(from before: Double?, _ correction: Double) -> Double {
        guard heldRowIndex >= 0 else { return correction }
        guard let before, let after = heldTop else {
            release()
            return correction
        }
        return after - before
    }

    /// Checks a batch as ``measure(_:contentOffset:)`` does, changing nothing (``RowLayout/check(_:)``).
    /// - Returns: each measurement's held position.
    @discardableResult
    func check(_ rows: [RowMeasurement]) throws(LayoutError) -> [Int] {
        try RowLayout.check(rows, heldPositions: RowLayout.positions(of: loaded.items.lazy.map(\.id)))
    }

    /// `rows` without those of pages the window dropped (``RowLayout/withoutDroppedRows(_:)``).
    func withoutDroppedRows(_ rows: [RowMeasurement]) -> [RowMeasurement] {
        RowLayout.withoutDroppedRows(rows, geometry: geometry, heldIDs: loaded.items.lazy.map(\.id))
    }

    /// Counts a stale `measure` batch (made at another width), which changes nothing else.
    public mutating func countStaleMeasurement() {
        staleMeasurements += 1
    }

    /// Every held row the page has measured, top to bottom, with its accepted height.
    public var measuredHeights: [RowMeasurement] {
        let items = loaded.items
        return geometry.measured.indices.compactMap { position in
            guard geometry.measured[position] else { return nil }
            return RowMeasurement(id: items[position].id, height: geometry.sums.values[position])
        }
    }

    /// Rebuilds the layout from the loaded items at the estimate, as one page without placeholders: only if the
    /// layout and the items disagree, which the items' own rules (new, unique ids) rule out. No correction.
    private mutating func resynchronize() -> Double {
        geometry = Self.emptyGeometry(estimatedHeight: geometry.estimatedHeight, maxHeldRows: geometry.maxHeldRows)
        _ = geometry.append(loaded.items.count, contentOffset: 0)
        window.cursors = loaded.items.isEmpty ? [] : [PageCursors(newer: loaded.newerCursor, older: loaded.olderCursor)]
        window.top = loaded.items.first
        record(.replaced(items: loaded.items, above: 0, below: 0))
        return 0
    }

    /// A new estimate (`rowHeight` configured): the rows not measured take it (placeholders too); measured rows
    /// keep their heights; the pages and placeholders stay as they are.
    mutating func reestimate(_ estimatedHeight: Double) {
        let kept = measuredHeights
        var fresh = Self.emptyGeometry(estimatedHeight: estimatedHeight, maxHeldRows: geometry.maxHeldRows)
        for size in geometry.pageSizes {
            _ = fresh.append(size, contentOffset: 0)
        }
        fresh.placeholdersAbove = geometry.placeholdersAbove
        fresh.placeholdersBelow = geometry.placeholdersBelow
        geometry = fresh
        if let positions = try? check(kept) { _ = geometry.measure(kept, at: positions, contentOffset: 0) }
    }

    /// Records a change of the rows for the pages (``ListModel/takeRowsUpdates()``).
    mutating func record(_ change: RowsUpdate.Change) {
        if window.updates.count >= RowsUpdate.limit {
            window.updates.removeAll()
            window.overflowed = true
        }
        window.updates.append(RowsUpdate(change, rowCount: geometry.rowCount))
    }
}
