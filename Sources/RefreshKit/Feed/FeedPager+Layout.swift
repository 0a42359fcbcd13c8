/// The rows' heights behind the list's content size: fixed rows for the simulated feed (so its recorded traces
/// replay to the same bytes), the external feed's ``RowLayout`` otherwise (docs/LAYOUT.md, "Wiring").
extension FeedPager {
    /// The height of every row together, in px: `count × rowHeight` for the simulated feed, the layout's content
    /// height for an external one.
    public func contentHeight(rowHeight: Double) -> Double {
        switch self {
        case .simulated(let pager): Double(pager.count) * rowHeight
        case .external(let source): source.layout.contentHeight
        }
    }

    /// Puts the last answer's change into the external feed's layout (``SourcePager/place(_:contentOffset:)``);
    /// 0 for the simulated feed or when nothing changed.
    mutating func placeLastChange(contentOffset: Double) -> Double {
        guard let change = source?.lastRowsChange else { return 0 }
        return withSource { $0.place(change, contentOffset: contentOffset) }
    }

    /// Applies a batch of measurements to the external feed's layout; the correction to add to the offset.
    mutating func measure(_ rows: [RowMeasurement], contentOffset: Double) throws(LayoutError) -> Double {
        guard source != nil else { return 0 }
        let result: Result<Double, LayoutError> = withSource { source in
            Result { () throws(LayoutError) in try source.measure(rows, contentOffset: contentOffset) }
        }
        return try result.get()
    }

    /// Counts a stale measurement batch.
    mutating func countStaleMeasurement() {
        guard source != nil else { return }
        withSource { $0.countStaleMeasurement() }
    }
}
