/// The external feed's rows in its ``RowLayout`` (docs/LAYOUT.md, "Wiring"): loaded pages go in as ids, the
/// page's measurements change their heights, and each change returns the content-offset correction that keeps
/// the first visible row still.
extension SourcePager {
    /// Rows the layout holds before it drops far pages. The window of pages is not wired yet: every loaded row
    /// is held (docs/LAYOUT.md, "Wiring").
    static let heldRowsLimit = Int.max

    /// An empty layout whose rows are `estimatedHeight` px until measured.
    static func emptyLayout(estimatedHeight: Double) -> RowLayout {
        RowLayout(
            estimatedHeight: min(max(estimatedHeight, .leastNormalMagnitude), RowLayout.maximumRowHeight),
            maxHeldRows: heldRowsLimit)
    }

    /// Puts what the last answer changed in the loaded items (`change`) into the layout: every row anew (a
    /// replace), rows on top (a refresh), rows at the end (load more).
    /// - Returns: the correction to add to the content offset (`contentOffset` when the answer was applied).
    public mutating func place(_ change: RowsChange, contentOffset: Double) -> Double {
        let items = loaded.items
        switch change {
        case .replaced:
            layout = Self.emptyLayout(estimatedHeight: layout.estimatedHeight)
            return hold(items.map(\.id), contentOffset: contentOffset)
        case .prepended(let count):
            let ids = items.prefix(count).map(\.id)
            do {
                return try layout.insertOnTop(ids, contentOffset: contentOffset)
            } catch {
                return resynchronize()
            }
        case .appended(let count):
            return hold(items.suffix(count).map(\.id), contentOffset: contentOffset)
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

    /// Appends `ids` as a held page at the end of the layout.
    private mutating func hold(_ ids: [String], contentOffset: Double) -> Double {
        do {
            return try layout.append(ids, contentOffset: contentOffset)
        } catch {
            return resynchronize()
        }
    }

    /// Rebuilds the layout from the loaded items at the estimate: only if the layout and the items disagree,
    /// which the items' own rules (new, unique ids) rule out. No correction.
    private mutating func resynchronize() -> Double {
        layout = Self.emptyLayout(estimatedHeight: layout.estimatedHeight)
        _ = try? layout.append(loaded.items.map(\.id), contentOffset: 0)
        return 0
    }

    /// A new estimate (`rowHeight` configured): the rows not measured take it; measured rows keep their heights.
    mutating func reestimate(_ estimatedHeight: Double) {
        let kept = measuredHeights
        layout = Self.emptyLayout(estimatedHeight: estimatedHeight)
        _ = try? layout.append(loaded.items.map(\.id), contentOffset: 0)
        _ = try? layout.measure(kept, contentOffset: 0)
    }
}
