/// Why a layout refused a change. A refused change changes nothing: the layout is as it was before the call.
public enum LayoutError: Error, Hashable, Sendable, Codable {
    /// The measured height is NaN, infinite, 0 or less, or above ``RowLayout/maximumRowHeight``.
    case heightOutOfRange(id: String, height: Double)
    /// No held row has this id (the row is unknown, or its page is not held).
    case unknownRow(id: String)
    /// A new row has the id of a held row, or of another row of the same change.
    case duplicateRow(id: String)
    /// A page loaded back beside the held pages has more rows than the placeholders on that side.
    case pageDoesNotFit(edge: PageEdge, rows: Int, placeholders: Int)
}

extension LayoutError: CustomStringConvertible {
    /// A sentence for the log and the wire.
    public var description: String {
        switch self {
        case .heightOutOfRange(let id, let height):
            return "row \(id): height \(height) is out of range (finite, above 0, at most "
                + "\(RowLayout.maximumRowHeight) px)"
        case .unknownRow(let id):
            return "row \(id) is not a held row"
        case .duplicateRow(let id):
            return "row \(id) is already in the list"
        case .pageDoesNotFit(let edge, let rows, let placeholders):
            return
                "a page of \(rows) rows does not fit the \(placeholders) placeholders \(edge.rawValue) the held pages"
        }
    }
}
