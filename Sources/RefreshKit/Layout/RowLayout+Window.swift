/// The window of held pages (docs/LAYOUT.md, "The window"), as Paging 3's `maxSize`: pages far from the
/// viewport are dropped to placeholders, and loaded again when the viewport comes near them.
extension RowLayout {
    /// The side where a page should be loaded back: the placeholders there reach within `prefetch` px of the
    /// viewport (`contentOffset ..< contentOffset + viewportHeight`). Above first when both do. Nil when none does.
    public func pageNeeded(contentOffset: Double, viewportHeight: Double, prefetch: Double) -> PageEdge? {
        if placeholdersAbove > 0 && contentOffset - prefetch < heldTop { return .above }
        if placeholdersBelow > 0 && contentOffset + viewportHeight + prefetch > heldBottom { return .below }
        return nil
    }

    /// Drops held pages while more than ``maxHeldRows`` rows are held: each time the end page farther from the
    /// viewport, as long as it lies wholly outside the viewport, and never the last held page. Returns the sum of
    /// the drops' corrections (see ``dropPage(at:contentOffset:)``).
    public mutating func trim(contentOffset: Double, viewportHeight: Double) -> Double {
        var total = 0.0
        var offset = contentOffset
        while heldIDs.count > maxHeldRows, let first = pageSizes.first, let last = pageSizes.last,
            pageSizes.count > 1
        {
            // How far each end page lies outside the viewport (negative when it shows in it).
            let aboveGap = offset - (heldTop + sums.prefix(first))
            let belowGap = (heldTop + sums.prefix(heldIDs.count - last)) - (offset + viewportHeight)
            guard max(aboveGap, belowGap) >= 0 else { break }
            let correction = dropPage(at: aboveGap >= belowGap ? .above : .below, contentOffset: offset)
            offset += correction
            total += correction
        }
        return total
    }

    /// `batch` without the measurements of rows not held while the window holds placeholders: rows of a page it
    /// dropped while the page's measurement was on its way (the page laid them out before it was told), stale as
    /// a batch made at another width is. Without placeholders every row is held, and `batch` is kept whole (an
    /// unknown id is then the page's mistake: ``check(_:)`` refuses it).
    public func withoutDroppedRows(_ batch: [RowMeasurement]) -> [RowMeasurement] {
        guard placeholdersAbove + placeholdersBelow > 0 else { return batch }
        let held = Set(heldIDs)
        return batch.filter { held.contains($0.id) }
    }

    /// `count` new rows above the list's first row while the top is not held (new items on top while scrolled
    /// far down): placeholders, loaded when scrolled to. - Returns: the correction that keeps the anchor still.
    public mutating func insertPlaceholdersOnTop(_ count: Int, contentOffset: Double) -> Double {
        guard count > 0 else { return 0 }
        let pin = pin(at: contentOffset)
        placeholdersAbove += count
        return correction(keeping: pin, shift: count)
    }
}
