/// Rows coming and going (new rows on top, rows at the end, pages dropped from the window and loaded back), the
/// page's measurements, and the window. Each change returns the content-offset correction that keeps the anchor
/// still; the ids are checked and kept here, the rest is the geometry's (``RowGeometry``).
extension RowLayout {
    // MARK: - Rows

    /// New rows at the top of the list (a refresh's newer items), newest first.
    ///
    /// When the top of the list is held they become a held page on top, at the estimate; when it is not (pages
    /// above were dropped) they become placeholders there, loaded when scrolled to. Below the top (content
    /// offset above 0) the correction is their height, so the row being read stays still; at the top it is 0 and
    /// the new rows are shown. An id already held, or named twice, is refused and nothing changes.
    public mutating func insertOnTop(_ ids: [String], contentOffset: Double) throws(LayoutError) -> Double {
        guard !ids.isEmpty else { return 0 }
        let held = geometry.holdsNewRowsOnTop()
        if held { try checkNew(ids) }
        let correction = geometry.insertOnTop(ids.count, contentOffset: contentOffset)
        if held { heldIDs.insert(contentsOf: ids, at: 0) }
        return correction
    }

    /// Rows at the end of the list (load more's older items): a held page at the end, or placeholders when the
    /// end is not held. Nothing above them moves, so the correction is 0 (returned for uniformity).
    public mutating func append(_ ids: [String], contentOffset: Double) throws(LayoutError) -> Double {
        guard !ids.isEmpty else { return 0 }
        let held = geometry.placeholdersBelow == 0
        if held { try checkNew(ids) }
        let correction = geometry.append(ids.count, contentOffset: contentOffset)
        if held { hold(ids, at: .below) }
        return correction
    }

    /// A page loaded back beside the held pages, into the placeholders on `edge` (the rows nearest the held
    /// pages). Its rows are at the estimate until measured, as the placeholders were, so the correction is 0
    /// until they are measured. A page with more rows than those placeholders, or with an id already held, is
    /// refused and nothing changes.
    public mutating func loadPage(_ ids: [String], at edge: PageEdge, contentOffset: Double) throws(LayoutError)
        -> Double
    {
        guard !ids.isEmpty else { return 0 }
        try geometry.checkFits(ids.count, at: edge)
        try checkNew(ids)
        let correction = geometry.loadPage(ids.count, at: edge, contentOffset: contentOffset)
        hold(ids, at: edge)
        return correction
    }

    /// Drops the held page on `edge`: its rows become placeholders at the estimate (their ids and measured
    /// heights are forgotten; a page loaded again is measured again). Returns the correction: the dropped rows'
    /// measured height minus their estimate when they are above the anchor, 0 below it. Nothing happens when no
    /// page is held.
    public mutating func dropPage(at edge: PageEdge, contentOffset: Double) -> Double {
        guard let size = edge == .above ? pageSizes.first : pageSizes.last else { return 0 }
        if edge == .above { heldIDs.removeFirst(size) } else { heldIDs.removeLast(size) }
        return geometry.dropPage(at: edge, contentOffset: contentOffset)
    }

    /// Removes the placeholders on `edge` (the source says there is nothing more that way: the rows they stood
    /// for are gone). Above the anchor the correction takes their height back.
    public mutating func removePlaceholders(at edge: PageEdge, contentOffset: Double) -> Double {
        geometry.removePlaceholders(at: edge, contentOffset: contentOffset)
    }

    /// Throws for the first id already held or named twice in `ids`.
    private func checkNew(_ ids: [String]) throws(LayoutError) {
        var seen = Set(heldIDs)
        for id in ids {
            guard seen.insert(id).inserted else { throw .duplicateRow(id: id) }
        }
    }

    /// Keeps `ids` as the ids of the page the geometry just held on `edge`.
    private mutating func hold(_ ids: [String], at edge: PageEdge) {
        switch edge {
        case .above:
            heldIDs.insert(contentsOf: ids, at: 0)
        case .below:
            // Room for exactly the rows held, as the geometry's (docs/PERFORMANCE.md, "Memory per connected
            // session").
            heldIDs.reserveCapacity(heldIDs.count + ids.count)
            heldIDs.append(contentsOf: ids)
        }
    }

    // MARK: - Measurements

    /// Applies a batch of measured heights and returns the content-offset correction that keeps the anchor still.
    ///
    /// The whole batch or nothing: every measurement is checked first, and the first bad one (a height that is
    /// not finite, is 0 or less or above ``maximumRowHeight``; an id no held row has) is thrown, naming the
    /// row, with the layout unchanged. A row named twice takes its last height. Each height costs O(log n).
    public mutating func measure(_ batch: [RowMeasurement], contentOffset: Double) throws(LayoutError) -> Double {
        let positions = try check(batch)
        return geometry.measure(batch, at: positions, contentOffset: contentOffset)
    }

    /// Checks a batch as ``measure(_:contentOffset:)`` does, changing nothing: throws its first bad measurement.
    /// - Returns: each measurement's held position.
    @discardableResult
    public func check(_ batch: [RowMeasurement]) throws(LayoutError) -> [Int] {
        try Self.check(batch, heldPositions: Self.positions(of: heldIDs))
    }

    /// ``check(_:)`` against the held rows' positions by id.
    static func check(_ batch: [RowMeasurement], heldPositions held: [String: Int]) throws(LayoutError) -> [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(batch.count)
        for measurement in batch {
            try RowGeometry.checkHeight(measurement)
            guard let position = held[measurement.id] else { throw .unknownRow(id: measurement.id) }
            positions.append(position)
        }
        return positions
    }

    /// Forgets every measurement (the page's width changed): the held rows go back to the estimate until they are
    /// measured again. Returns the correction that keeps the anchor still.
    public mutating func forgetMeasurements(contentOffset: Double) -> Double {
        geometry.forgetMeasurements(contentOffset: contentOffset)
    }

    // MARK: - The window (docs/LAYOUT.md, "The window"), as Paging 3's `maxSize`

    /// The side where a page should be loaded back: the placeholders there reach within `prefetch` px of the
    /// viewport (`contentOffset ..< contentOffset + viewportHeight`). Above first when both do. Nil when none does.
    public func pageNeeded(contentOffset: Double, viewportHeight: Double, prefetch: Double) -> PageEdge? {
        geometry.pageNeeded(contentOffset: contentOffset, viewportHeight: viewportHeight, prefetch: prefetch)
    }

    /// Drops held pages while more than ``maxHeldRows`` rows are held: each time the end page farther from the
    /// viewport, as long as it lies wholly outside the viewport, and never the last held page. Returns the sum of
    /// the drops' corrections (see ``dropPage(at:contentOffset:)``).
    public mutating func trim(contentOffset: Double, viewportHeight: Double) -> Double {
        var total = 0.0
        var offset = contentOffset
        while let edge = geometry.pageToTrim(contentOffset: offset, viewportHeight: viewportHeight) {
            let correction = dropPage(at: edge, contentOffset: offset)
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
        Self.withoutDroppedRows(batch, geometry: geometry, heldIDs: heldIDs)
    }

    /// ``withoutDroppedRows(_:)`` for `geometry`, whose held rows are `heldIDs`.
    static func withoutDroppedRows(
        _ batch: [RowMeasurement], geometry: RowGeometry, heldIDs: @autoclosure () -> some Sequence<String>
    ) -> [RowMeasurement] {
        guard geometry.placeholdersAbove + geometry.placeholdersBelow > 0 else { return batch }
        let held = Set(heldIDs())
        return batch.filter { held.contains($0.id) }
    }

    /// `count` new rows above the list's first row while the top is not held (new items on top while scrolled
    /// far down): placeholders, loaded when scrolled to. - Returns: the correction that keeps the anchor still.
    public mutating func insertPlaceholdersOnTop(_ count: Int, contentOffset: Double) -> Double {
        geometry.insertPlaceholdersOnTop(count, contentOffset: contentOffset)
    }
}

// Coded as its members were before the ids and the geometry were apart, in their order (docs/LAYOUT.md: an engine
// snapshot stores the layout as it is, Fenwick nodes included).
extension RowLayout: Codable {
    private enum CodingKeys: String, CodingKey {
        case estimatedHeight, maxHeldRows, placeholdersAbove, placeholdersBelow, pageSizes, heldIDs, measured, sums
    }

    /// Decodes a layout as ``encode(to:)`` codes it; refuses one whose ids, flags and heights are not one per held
    /// row.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let estimatedHeight = try container.decode(Double.self, forKey: .estimatedHeight)
        let maxHeldRows = try container.decode(Int.self, forKey: .maxHeldRows)
        let placeholdersAbove = try container.decode(Int.self, forKey: .placeholdersAbove)
        let placeholdersBelow = try container.decode(Int.self, forKey: .placeholdersBelow)
        let pageSizes = try container.decode([Int].self, forKey: .pageSizes)
        let ids = try container.decode([String].self, forKey: .heldIDs)
        let measured = try container.decode([Bool].self, forKey: .measured)
        let sums = try container.decode(HeightSums.self, forKey: .sums)
        guard ids.count == measured.count, ids.count == sums.count else {
            throw DecodingError.dataCorruptedError(
                forKey: .heldIDs, in: container,
                debugDescription: "\(ids.count) ids for \(measured.count) flags and \(sums.count) heights")
        }
        self.init(
            geometry: RowGeometry(
                coded: estimatedHeight, maxHeldRows: maxHeldRows, placeholdersAbove: placeholdersAbove,
                placeholdersBelow: placeholdersBelow, pageSizes: pageSizes, measured: measured, sums: sums),
            heldIDs: ids)
    }

    /// Encodes the layout as ``init(from:)`` decodes it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(geometry.estimatedHeight, forKey: .estimatedHeight)
        try container.encode(geometry.maxHeldRows, forKey: .maxHeldRows)
        try container.encode(geometry.placeholdersAbove, forKey: .placeholdersAbove)
        try container.encode(geometry.placeholdersBelow, forKey: .placeholdersBelow)
        try container.encode(geometry.pageSizes, forKey: .pageSizes)
        try container.encode(heldIDs, forKey: .heldIDs)
        try container.encode(geometry.measured, forKey: .measured)
        try container.encode(geometry.sums, forKey: .sums)
    }
}
