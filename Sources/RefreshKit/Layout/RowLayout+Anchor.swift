/// Anchoring (docs/LAYOUT.md, "Anchoring"): every change that can move rows returns the correction to add to
/// the content offset so that the first visible row's top stays at the same screen y.
extension RowLayout {
    /// The first visible row at content offset `contentOffset`: the row that holds the viewport's top edge (row 0
    /// when the offset is at or above the top). Nil for an empty list.
    public func anchor(at contentOffset: Double) -> LayoutAnchor? {
        guard let row = row(at: contentOffset) else { return nil }
        return LayoutAnchor(row: row, id: id(ofRow: row), offset: contentOffset - y(ofRow: row))
    }

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
