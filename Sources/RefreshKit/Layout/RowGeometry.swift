/// A ``RowLayout`` without its rows' ids: the held pages' heights and measured flags, the placeholders around them
/// and the page sizes, and everything worked out from them (positions, the anchor's correction, the window). A row
/// is known by its index here; what names rows by id (``RowLayout``, the pager) holds the ids beside it.
///
/// The list's pager keeps this alone and reads the held rows' ids from its loaded items, which are the same rows
/// and hold them already (docs/LAYOUT.md, "The window, wired": the layout's held pages and the loaded items are the
/// same rows, always; docs/PERFORMANCE.md, "Memory per connected session").
struct RowGeometry: Hashable, Sendable {
    /// ``RowLayout/estimatedHeight``.
    let estimatedHeight: Double
    /// ``RowLayout/maxHeldRows``.
    var maxHeldRows: Int
    /// ``RowLayout/placeholdersAbove``.
    var placeholdersAbove = 0
    /// ``RowLayout/placeholdersBelow``.
    var placeholdersBelow = 0
    /// ``RowLayout/pageSizes``.
    var pageSizes: [Int] = []
    /// Whether each held row has been measured: one flag per held row, so also how many rows are held.
    var measured: [Bool] = []
    /// The held rows' heights and their prefix sums.
    var sums = HeightSums()

    init(estimatedHeight: Double, maxHeldRows: Int) {
        precondition(
            estimatedHeight.isFinite && estimatedHeight > 0 && estimatedHeight <= RowLayout.maximumRowHeight,
            "estimatedHeight \(estimatedHeight) out of range")
        precondition(maxHeldRows > 0, "maxHeldRows \(maxHeldRows) must be positive")
        self.estimatedHeight = estimatedHeight
        self.maxHeldRows = maxHeldRows
    }

    /// A geometry as a layout coded it (``RowLayout/init(from:)``, which checks it).
    init(
        coded estimatedHeight: Double, maxHeldRows: Int, placeholdersAbove: Int, placeholdersBelow: Int,
        pageSizes: [Int], measured: [Bool], sums: HeightSums
    ) {
        self.estimatedHeight = estimatedHeight
        self.maxHeldRows = maxHeldRows
        self.placeholdersAbove = placeholdersAbove
        self.placeholdersBelow = placeholdersBelow
        self.pageSizes = pageSizes
        self.measured = measured
        self.sums = sums
    }
}

// Counts, heights and positions (``RowLayout``'s, which says what each is).
extension RowGeometry {
    var heldRowCount: Int { measured.count }

    var rowCount: Int { placeholdersAbove + heldRowCount + placeholdersBelow }

    var heldTop: Double { Double(placeholdersAbove) * estimatedHeight }

    var heldBottom: Double { heldTop + sums.total }

    var contentHeight: Double { heldBottom + Double(placeholdersBelow) * estimatedHeight }

    /// The row's index among the held rows, or nil when `row` is a placeholder.
    func heldPosition(ofRow row: Int) -> Int? {
        let position = row - placeholdersAbove
        return position >= 0 && position < heldRowCount ? position : nil
    }

    func height(ofRow row: Int) -> Double {
        precondition(row >= 0 && row < rowCount, "row \(row) outside 0..<\(rowCount)")
        return heldPosition(ofRow: row).map { sums.values[$0] } ?? estimatedHeight
    }

    func isMeasured(row: Int) -> Bool {
        heldPosition(ofRow: row).map { measured[$0] } ?? false
    }

    func y(ofRow row: Int) -> Double {
        precondition(row >= 0 && row <= rowCount, "row \(row) outside 0...\(rowCount)")
        if row <= placeholdersAbove { return Double(row) * estimatedHeight }
        let held = row - placeholdersAbove
        if held <= heldRowCount { return heldTop + sums.prefix(held) }
        return heldBottom + Double(held - heldRowCount) * estimatedHeight
    }

    func row(at y: Double) -> Int? {
        guard rowCount > 0 else { return nil }
        if y <= 0 { return 0 }
        if y < heldTop { return placeholderRow(at: y, from: 0, count: placeholdersAbove) }
        if y < heldBottom, heldRowCount > 0 { return placeholdersAbove + sums.index(containing: y - heldTop) }
        if placeholdersBelow == 0 { return rowCount - 1 }
        return placeholderRow(at: y, from: placeholdersAbove + heldRowCount, count: placeholdersBelow)
    }

    /// The placeholder among `count` rows from `first` that holds `y`, agreeing with ``y(ofRow:)``'s rounding.
    private func placeholderRow(at y: Double, from first: Int, count: Int) -> Int {
        let top = self.y(ofRow: first)
        var row = first + min(max(Int(((y - top) / estimatedHeight).rounded(.down)), 0), count - 1)
        while row > first && self.y(ofRow: row) > y { row -= 1 }
        while row + 1 < first + count && self.y(ofRow: row + 1) <= y { row += 1 }
        return row
    }
}

// Anchoring (``RowLayout/anchor(at:)``; docs/LAYOUT.md, "Anchoring").
extension RowGeometry {
    /// What a change must keep still: the anchor's row and its top's y before the change. Nil at the top
    /// (`contentOffset ≤ 0`): there, new rows on top are shown, as the seed libraries do, and nothing is above
    /// the first row to move it.
    struct Pin {
        var row: Int
        var y: Double
    }

    /// The pin for a change made at `contentOffset`.
    func pin(at contentOffset: Double) -> Pin? {
        guard contentOffset > 0, let row = row(at: contentOffset) else { return nil }
        return Pin(row: row, y: y(ofRow: row))
    }

    /// The correction after a change: the pinned row's new top minus its old one. `shift` is how many rows the
    /// change put above every row (new rows on top) or took from there (placeholders removed on top); a pinned
    /// row the change removed hands its place to the row that now has its index.
    func correction(keeping pin: Pin?, shift: Int = 0) -> Double {
        guard let pin, rowCount > 0 else { return 0 }
        let row = min(max(pin.row + shift, 0), rowCount - 1)
        return y(ofRow: row) - pin.y
    }
}
