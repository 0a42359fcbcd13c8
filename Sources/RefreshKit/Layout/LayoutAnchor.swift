/// The first visible row and where the viewport's top edge is within it: the row that stays still on screen
/// when anything above it changes (docs/LAYOUT.md, "Anchoring").
public struct LayoutAnchor: Hashable, Sendable, Codable {
    /// The row's index in the whole list (0 = the newest row), placeholders included.
    public var row: Int
    /// The row's id, or nil when the row is a placeholder (its page is not held).
    public var id: String?
    /// The content offset minus the row's top y: how far the viewport's top is below the row's top (negative
    /// above the first row, when the list is pulled down past its top).
    public var offset: Double

    /// The anchor at `offset` px into the row `row` (named `id` when held).
    public init(row: Int, id: String?, offset: Double) {
        self.row = row
        self.id = id
        self.offset = offset
    }
}
