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
/// The ids are the layout's own; the rest is its `RowGeometry`, which a list's pager keeps without the ids
/// (its items hold them: ``SourcePager/layout`` is made from the two).
public struct RowLayout: Hashable, Sendable {
    /// The tallest height a row may be measured at, in CSS px (about twenty phone screens): a measurement above
    /// it is a page's mistake, refused with ``LayoutError/heightOutOfRange(id:height:)``.
    public static let maximumRowHeight: Double = 16_384

    /// Everything but the ids.
    var geometry: RowGeometry

    /// The held rows' ids, top to bottom.
    public internal(set) var heldIDs: [String] = []

    /// An empty layout: rows are `estimatedHeight` px until measured; about `maxHeldRows` rows are held.
    public init(estimatedHeight: Double, maxHeldRows: Int) {
        geometry = RowGeometry(estimatedHeight: estimatedHeight, maxHeldRows: maxHeldRows)
    }

    /// The layout of `geometry`, whose held rows are `heldIDs` (as many).
    init(geometry: RowGeometry, heldIDs: [String]) {
        precondition(geometry.heldRowCount == heldIDs.count, "one id per held row")
        self.geometry = geometry
        self.heldIDs = heldIDs
    }

    /// The height of a row that is not measured (a placeholder, or a held row before its measurement), in px.
    public var estimatedHeight: Double { geometry.estimatedHeight }

    /// The window: ``trim(contentOffset:viewportHeight:)`` drops far pages while more rows than this are held
    /// (as Paging 3's `maxSize`; it should be at least a page plus two prefetch distances).
    public internal(set) var maxHeldRows: Int {
        get { geometry.maxHeldRows }
        set { geometry.maxHeldRows = newValue }
    }

    /// How many rows above the held pages are placeholders.
    public var placeholdersAbove: Int { geometry.placeholdersAbove }

    /// How many rows below the held pages are placeholders.
    public var placeholdersBelow: Int { geometry.placeholdersBelow }

    /// The held pages' sizes in rows, top to bottom, as they were loaded.
    public var pageSizes: [Int] { geometry.pageSizes }

    // MARK: - Counts and heights

    /// Every row of the list, placeholders included.
    public var rowCount: Int { geometry.rowCount }

    /// How many rows are held (ids and heights stored).
    public var heldRowCount: Int { geometry.heldRowCount }

    /// The y of the first held row (the placeholders above it at the estimate).
    public var heldTop: Double { geometry.heldTop }

    /// The y just below the last held row.
    public var heldBottom: Double { geometry.heldBottom }

    /// The height of the whole list, in px.
    public var contentHeight: Double { geometry.contentHeight }

    /// The id of the row at `row`, or nil when it is a placeholder.
    public func id(ofRow row: Int) -> String? {
        geometry.heldPosition(ofRow: row).map { heldIDs[$0] }
    }

    /// The index in the list of the held row `id`, or nil when no held row has it.
    public func row(of id: String) -> Int? {
        heldIDs.firstIndex(of: id).map { $0 + placeholdersAbove }
    }

    /// Each held row's index among the held rows, by id: made for a batch of look-ups, not kept beside the ids
    /// (docs/LAYOUT.md, "Complexity").
    static func positions(of ids: some Sequence<String>) -> [String: Int] {
        Dictionary(ids.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The height of the row at `row`: its measurement, or the estimate.
    public func height(ofRow row: Int) -> Double { geometry.height(ofRow: row) }

    /// Whether the row at `row` has been measured (a placeholder never is).
    public func isMeasured(row: Int) -> Bool { geometry.isMeasured(row: row) }

    // MARK: - Positions

    /// The y of the top of the row at `row` (`rowCount` gives the content's height). O(log n).
    public func y(ofRow row: Int) -> Double { geometry.y(ofRow: row) }

    /// The y of the top of the held row `id`, or nil when no held row has it.
    public func y(of id: String) -> Double? {
        row(of: id).map { y(ofRow: $0) }
    }

    /// The row that holds `y`: the last row whose top is at or above `y`, clamped to the list (0 above the top,
    /// the last row below the end). Nil for an empty list. O(log n).
    public func row(at y: Double) -> Int? { geometry.row(at: y) }

    // MARK: - Anchoring (docs/LAYOUT.md, "Anchoring")

    /// The first visible row at content offset `contentOffset`: the row that holds the viewport's top edge (row 0
    /// when the offset is at or above the top). Nil for an empty list.
    public func anchor(at contentOffset: Double) -> LayoutAnchor? {
        guard let row = row(at: contentOffset) else { return nil }
        return LayoutAnchor(row: row, id: id(ofRow: row), offset: contentOffset - y(ofRow: row))
    }
}
