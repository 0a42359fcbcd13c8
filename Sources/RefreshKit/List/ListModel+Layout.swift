/// Rows of measured heights (external feeds, docs/LAYOUT.md, "Wiring"): the content size follows the feed's
/// ``RowLayout``, and every change of the rows above the first visible row moves the scroll offset by the
/// layout's correction (``ScrollModel/shift(by:contentSize:)``): at rest, during a drag and during a fling,
/// whose velocity is left as it is.
extension ListModel {
    /// The external feed's row layout (`nil` for the simulated feed, whose rows are `feed.rowHeight` each).
    public var rowLayout: RowLayout? { pager.source?.layout }

    /// How many `measure` batches were stale and ignored: made at a width other than the viewport's, or naming
    /// rows of a page the window dropped meanwhile (those rows are ignored, the others applied).
    public var staleMeasurements: Int { pager.source?.staleMeasurements ?? 0 }

    /// Every measured height the layout holds, top to bottom (what a page joining the session is sent).
    public var measuredHeights: [RowMeasurement] { pager.source?.measuredHeights ?? [] }

    /// The list's content size: the viewport's width, and the rows' height.
    var contentSize: Size {
        Size(width: scroll.viewport.width, height: pager.contentHeight(rowHeight: configuration.feed.rowHeight))
    }

    /// Whether `batch` would be applied (`true`), or is stale and only counted (`false`); throws, changing
    /// nothing, for a batch the layout refuses (naming the row) or a session without an external feed.
    func checkMeasurement(_ batch: MeasureInput) throws(ListModelError) -> Bool {
        guard let layout = pager.source?.layout else {
            throw ListModelError(.badMeasurement, message: "measure needs a session with an external feed")
        }
        guard batch.width == scroll.viewport.width else { return false }
        do {
            // Rows of a page the window dropped meanwhile are stale, not wrong (RowLayout+Window.swift).
            try layout.check(measuredRows(of: batch))
        } catch {
            throw ListModelError(.badMeasurement, message: "measure: \(error)")
        }
        return true
    }

    /// The rows of `batch` a measurement applies: none when it was made at another width (or without an external
    /// feed), and none of a page the window does not hold (`RowLayout.withoutDroppedRows`). Read after the step
    /// that applied it, the rows it applied that the layout still holds: what the host announces in `heights`.
    public func measuredRows(of batch: MeasureInput) -> [RowMeasurement] {
        guard batch.width == scroll.viewport.width, let layout = pager.source?.layout else { return [] }
        return layout.withoutDroppedRows(batch.rows)
    }

    /// Applies a batch ``checkMeasurement(_:)`` accepted, or counts a stale one.
    mutating func applyMeasurement(_ batch: MeasureInput, fresh: Bool) {
        guard fresh else {
            pager.countStaleMeasurement()
            return
        }
        let rows = measuredRows(of: batch)
        if rows.count < batch.rows.count { pager.countStaleMeasurement() }
        let correction = (try? pager.measure(rows, contentOffset: scroll.offset.y)) ?? 0
        scroll.shift(by: correction, contentSize: contentSize)
    }

    /// Puts the rows an external answer just loaded into the layout, and keeps the first visible row still.
    mutating func placeLoadedRows() {
        guard pager.source?.lastRowsChange != nil else { return }
        let correction = pager.placeLastChange(contentOffset: scroll.offset.y)
        scroll.shift(by: correction, contentSize: contentSize)
    }
}
