/// The vertical layout of a list of rows of varying heights, newest first: each row's height (an estimate until
/// the page measures it), the rows' positions, the first visible row (the anchor), and a window of pages held
/// around the viewport (docs/LAYOUT.md).
///
/// The list is three spans, top to bottom:
///
///     placeholdersAbove rows × estimatedHeight   (pages dropped above, or new rows not loaded yet)
///     the held pages: ids, heights, measured     (at most about maxHeldRows rows)
///     placeholdersBelow rows × estimatedHeight   (pages dropped below)
///
/// Content y runs from 0 (the top of the first row) to ``contentHeight``; a row's index counts every row from
/// the top, placeholders included. Every change that can move rows takes the current content offset and
/// returns the content-offset correction that keeps the anchor's top at the same screen y (``anchor(at:)``).
///
/// Memory: the held pages' rows (ids, heights, one flag) and two counts; nothing grows with the list's length.
public struct RowLayout: Hashable, Sendable, Codable {
    /// The tallest height a row may be measured at, in CSS px (about twenty phone screens): a measurement above
    /// it is a page's mistake, refused with ``LayoutError/heightOutOfRange(id:height:)``.
    public static let maximumRowHeight: Double = 16_384

    /// The height of a row that is not measured (a placeholder, or a held row before its measurement), in px.
    public let estimatedHeight: Double

    /// The window: ``trim(contentOffset:viewportHeight:)`` drops far pages while more rows than this are held
    /// (as Paging 3's `maxSize`; it should be at least a page plus two prefetch distances).
    public internal(set) var maxHeldRows: Int

    /// How many rows above the held pages are placeholders.
    public internal(set) var placeholdersAbove = 0

    /// How many rows below the held pages are placeholders.
    public internal(set) var placeholdersBelow = 0

    /// The held pages' sizes in rows, top to bottom, as they were loaded.
    public internal(set) var pageSizes: [Int] = []

    /// The held rows' ids, top to bottom.
    public internal(set) var heldIDs: [String] = []

    /// Whether each held row has been measured.
    var measured: [Bool] = []

    /// The held rows' heights and their prefix sums.
    var sums = HeightSums()

    /// An empty layout: rows are `estimatedHeight` px until measured; about `maxHeldRows` rows are held.
    public init(estimatedHeight: Double, maxHeldRows: Int) {
        precondition(
            estimatedHeight.isFinite && estimatedHeight > 0 && estimatedHeight <= Self.maximumRowHeight,
            "estimatedHeight \(estimatedHeight) out of range")
        precondition(maxHeldRows > 0, "maxHeldRows \(maxHeldRows) must be positive")
        self.estimatedHeight = estimatedHeight
        self.maxHeldRows = maxHeldRows
    }

    // MARK: - Counts and heights

    /// Every row of the list, placeholders included.
    public var rowCount: Int { placeholdersAbove + heldIDs.count + placeholdersBelow }

    /// How many rows are held (ids and heights stored).
    public var heldRowCount: Int { heldIDs.count }

    /// The y of the first held row (the placeholders above it at the estimate).
    public var heldTop: Double { Double(placeholdersAbove) * estimatedHeight }

    /// The y just below the last held row.
    public var heldBottom: Double { heldTop + sums.total }

    /// The height of the whole list, in px.
    public var contentHeight: Double { heldBottom + Double(placeholdersBelow) * estimatedHeight }

    /// The row's index among the held rows, or nil when `row` is a placeholder.
    func heldPosition(ofRow row: Int) -> Int? {
        let position = row - placeholdersAbove
        return position >= 0 && position < heldIDs.count ? position : nil
    }

    /// The id of the row at `row`, or nil when it is a placeholder.
    public func id(ofRow row: Int) -> String? {
        heldPosition(ofRow: row).map { heldIDs[$0] }
    }

    /// The index in the list of the held row `id`, or nil when no held row has it.
    public func row(of id: String) -> Int? {
        heldIDs.firstIndex(of: id).map { $0 + placeholdersAbove }
    }

    /// Each held row's index among the held rows, by id: made for a batch of look-ups, not kept beside the ids
    /// (docs/LAYOUT.md, "Complexity").
    func heldPositions() -> [String: Int] {
        Dictionary(heldIDs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The height of the row at `row`: its measurement, or the estimate.
    public func height(ofRow row: Int) -> Double {
        precondition(row >= 0 && row < rowCount, "row \(row) outside 0..<\(rowCount)")
        return heldPosition(ofRow: row).map { sums.values[$0] } ?? estimatedHeight
    }

    /// Whether the row at `row` has been measured (a placeholder never is).
    public func isMeasured(row: Int) -> Bool {
        heldPosition(ofRow: row).map { measured[$0] } ?? false
    }

    // MARK: - Positions

    /// The y of the top of the row at `row` (`rowCount` gives the content's height). O(log n).
    public func y(ofRow row: Int) -> Double {
        precondition(row >= 0 && row <= rowCount, "row \(row) outside 0...\(rowCount)")
        if row <= placeholdersAbove { return Double(row) * estimatedHeight }
        let held = row - placeholdersAbove
        if held <= heldIDs.count { return heldTop + sums.prefix(held) }
        return heldBottom + Double(held - heldIDs.count) * estimatedHeight
    }

    /// The y of the top of the held row `id`, or nil when no held row has it.
    public func y(of id: String) -> Double? {
        row(of: id).map { y(ofRow: $0) }
    }

    /// The row that holds `y`: the last row whose top is at or above `y`, clamped to the list (0 above the top,
    /// the last row below the end). Nil for an empty list. O(log n).
    public func row(at y: Double) -> Int? {
        guard rowCount > 0 else { return nil }
        if y <= 0 { return 0 }
        if y < heldTop { return placeholderRow(at: y, from: 0, count: placeholdersAbove) }
        if y < heldBottom, !heldIDs.isEmpty { return placeholdersAbove + sums.index(containing: y - heldTop) }
        if placeholdersBelow == 0 { return rowCount - 1 }
        return placeholderRow(at: y, from: placeholdersAbove + heldIDs.count, count: placeholdersBelow)
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
