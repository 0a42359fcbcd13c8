/// Rows of measured heights (docs/LAYOUT.md, "Wiring"): the content size follows the feed's
/// ``RowLayout``, and every change of the rows above the first visible row moves the scroll offset by the
/// layout's correction (``ScrollModel/shift(by:contentSize:)``): at rest, during a drag and during a fling,
/// whose velocity is left as it is.
extension ListModel {
    /// The rows' layout: their ids, heights (the estimate, `feed.rowHeight`, until the page measures them) and
    /// positions.
    public var rowLayout: RowLayout { pager.layout }

    /// The list's content size: the viewport's width, and the rows' height.
    var contentSize: Size {
        Size(width: scroll.viewport.width, height: pager.geometry.contentHeight)
    }

    /// Whether `batch` would be applied (`true`), or is stale and only counted (`false`); throws, changing
    /// nothing, for a batch the layout refuses (naming the row).
    func checkMeasurement(_ batch: MeasureInput) throws(ListModelError) -> Bool {
        guard batch.width == scroll.viewport.width else { return false }
        do {
            // Rows of a page the window dropped meanwhile are stale, not wrong (RowLayout+Changes.swift).
            try pager.check(measuredRows(of: batch))
        } catch {
            throw ListModelError(.badMeasurement, message: "measure: \(error)")
        }
        return true
    }

    /// The rows of `batch` a measurement applies: none when it was made at another width, and none of a page the window does not hold (`RowLayout.withoutDroppedRows`). Read after the step
    /// that applied it, the rows it applied that the layout still holds: what the host announces in `heights`.
    public func measuredRows(of batch: MeasureInput) -> [RowMeasurement] {
        guard batch.width == scroll.viewport.width else { return [] }
        return pager.withoutDroppedRows(batch.rows)
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

    /// Puts the rows an answer just loaded into the layout, and keeps the first visible row still.
    mutating func placeLoadedRows() {
        guard let change = pager.lastRowsChange else { return }
        let correction = pager.place(change, contentOffset: scroll.offset.y)
        scroll.shift(by: correction, contentSize: contentSize)
    }
}
