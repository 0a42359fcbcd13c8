/// Rows coming and going: new rows on top (a refresh), rows at the end (load more), pages dropped from the
/// window and loaded back. Each returns the content-offset correction that keeps the anchor still.
extension RowLayout {
    /// New rows at the top of the list (a refresh's newer items), newest first.
    ///
    /// When the top of the list is held they become a held page on top, at the estimate; when it is not (pages
    /// above were dropped) they become placeholders there, loaded when scrolled to. Below the top (content
    /// offset above 0) the correction is their height, so the row being read stays still; at the top it is 0 and
    /// the new rows are shown. An id already held, or named twice, is refused and nothing changes.
    public mutating func insertOnTop(_ ids: [String], contentOffset: Double) throws(LayoutError) -> Double {
        guard !ids.isEmpty else { return 0 }
        let pin = pin(at: contentOffset)
        if placeholdersAbove > 0 || heldIDs.isEmpty && placeholdersBelow > 0 {
            placeholdersAbove += ids.count
        } else {
            try checkNew(ids)
            hold(ids, at: .above)
        }
        return correction(keeping: pin, shift: ids.count)
    }

    /// Rows at the end of the list (load more's older items): a held page at the end, or placeholders when the
    /// end is not held. Nothing above them moves, so the correction is 0 (returned for uniformity).
    public mutating func append(_ ids: [String], contentOffset: Double) throws(LayoutError) -> Double {
        guard !ids.isEmpty else { return 0 }
        let pin = pin(at: contentOffset)
        if placeholdersBelow > 0 {
            placeholdersBelow += ids.count
        } else {
            try checkNew(ids)
            hold(ids, at: .below)
        }
        return correction(keeping: pin)
    }

    /// A page loaded back beside the held pages, into the placeholders on `edge` (the rows nearest the held
    /// pages). Its rows are at the estimate until measured, as the placeholders were, so the correction is 0
    /// until they are measured. A page with more rows than those placeholders, or with an id already held, is
    /// refused and nothing changes.
    public mutating func loadPage(_ ids: [String], at edge: PageEdge, contentOffset: Double) throws(LayoutError)
        -> Double
    {
        guard !ids.isEmpty else { return 0 }
        let placeholders = edge == .above ? placeholdersAbove : placeholdersBelow
        guard ids.count <= placeholders else {
            throw .pageDoesNotFit(edge: edge, rows: ids.count, placeholders: placeholders)
        }
        try checkNew(ids)
        let pin = pin(at: contentOffset)
        switch edge {
        case .above: placeholdersAbove -= ids.count
        case .below: placeholdersBelow -= ids.count
        }
        hold(ids, at: edge)
        return correction(keeping: pin)
    }

    /// Drops the held page on `edge`: its rows become placeholders at the estimate (their ids and measured
    /// heights are forgotten; a page loaded again is measured again). Returns the correction: the dropped rows'
    /// measured height minus their estimate when they are above the anchor, 0 below it. Nothing happens when no
    /// page is held.
    public mutating func dropPage(at edge: PageEdge, contentOffset: Double) -> Double {
        guard let size = edge == .above ? pageSizes.first : pageSizes.last else { return 0 }
        let pin = pin(at: contentOffset)
        switch edge {
        case .above:
            placeholdersAbove += size
            pageSizes.removeFirst()
            heldIDs.removeFirst(size)
            measured.removeFirst(size)
            sums = HeightSums(Array(sums.values.dropFirst(size)))
        case .below:
            placeholdersBelow += size
            pageSizes.removeLast()
            heldIDs.removeLast(size)
            measured.removeLast(size)
            sums.removeLast(size)
        }
        return correction(keeping: pin)
    }

    /// Removes the placeholders on `edge` (the source says there is nothing more that way: the rows they stood
    /// for are gone). Above the anchor the correction takes their height back.
    public mutating func removePlaceholders(at edge: PageEdge, contentOffset: Double) -> Double {
        let pin = pin(at: contentOffset)
        switch edge {
        case .above:
            let removed = placeholdersAbove
            placeholdersAbove = 0
            return correction(keeping: pin, shift: -removed)
        case .below:
            placeholdersBelow = 0
            return correction(keeping: pin)
        }
    }

    /// Throws for the first id already held or named twice in `ids`.
    private func checkNew(_ ids: [String]) throws(LayoutError) {
        var seen = Set(heldIDs)
        for id in ids {
            guard seen.insert(id).inserted else { throw .duplicateRow(id: id) }
        }
    }

    /// Holds `ids` as a new page on `edge` of the held pages, at the estimate.
    private mutating func hold(_ ids: [String], at edge: PageEdge) {
        switch edge {
        case .above:
            pageSizes.insert(ids.count, at: 0)
            heldIDs.insert(contentsOf: ids, at: 0)
            measured.insert(contentsOf: Array(repeating: false, count: ids.count), at: 0)
            sums = HeightSums(Array(repeating: estimatedHeight, count: ids.count) + sums.values)
        case .below:
            pageSizes.append(ids.count)
            // Room for exactly the rows held, a page at a time: every session holds its rows, and an array grown
            // by doubling keeps up to twice their room (docs/PERFORMANCE.md, "Memory per connected session").
            let count = heldIDs.count + ids.count
            heldIDs.reserveCapacity(count)
            measured.reserveCapacity(count)
            sums.reserveCapacity(count)
            for id in ids {
                heldIDs.append(id)
                measured.append(false)
                sums.append(estimatedHeight)
            }
        }
    }

}
