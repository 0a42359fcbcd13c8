/// Rows coming and going, measurements and the window, by count and position: ``RowLayout``'s changes without its
/// ids (which it checks and keeps itself; the pager's items are checked by their own rules). Each returns the
/// content-offset correction that keeps the anchor still.
extension RowGeometry {
    /// Whether `count` new rows on top would be held (else they become placeholders): the top of the list is held.
    func holdsNewRowsOnTop() -> Bool {
        !(placeholdersAbove > 0 || heldRowCount == 0 && placeholdersBelow > 0)
    }

    /// ``RowLayout/insertOnTop(_:contentOffset:)`` of `count` rows.
    mutating func insertOnTop(_ count: Int, contentOffset: Double) -> Double {
        guard count > 0 else { return 0 }
        let pin = pin(at: contentOffset)
        if holdsNewRowsOnTop() {
            hold(count, at: .above)
        } else {
            placeholdersAbove += count
        }
        return correction(keeping: pin, shift: count)
    }

    /// ``RowLayout/append(_:contentOffset:)`` of `count` rows: held when the end is held (no placeholders below).
    mutating func append(_ count: Int, contentOffset: Double) -> Double {
        guard count > 0 else { return 0 }
        let pin = pin(at: contentOffset)
        if placeholdersBelow > 0 {
            placeholdersBelow += count
        } else {
            hold(count, at: .below)
        }
        return correction(keeping: pin)
    }

    /// Throws when a page of `count` rows does not fit the placeholders on `edge` (``loadPage(_:at:contentOffset:)``).
    func checkFits(_ count: Int, at edge: PageEdge) throws(LayoutError) {
        let placeholders = edge == .above ? placeholdersAbove : placeholdersBelow
        guard count <= placeholders else {
            throw .pageDoesNotFit(edge: edge, rows: count, placeholders: placeholders)
        }
    }

    /// ``RowLayout/loadPage(_:at:contentOffset:)`` of `count` rows, which fit (``checkFits(_:at:)``).
    mutating func loadPage(_ count: Int, at edge: PageEdge, contentOffset: Double) -> Double {
        guard count > 0 else { return 0 }
        let pin = pin(at: contentOffset)
        switch edge {
        case .above: placeholdersAbove -= count
        case .below: placeholdersBelow -= count
        }
        hold(count, at: edge)
        return correction(keeping: pin)
    }

    /// ``RowLayout/dropPage(at:contentOffset:)``: the held page on `edge` becomes placeholders. Nothing happens
    /// when no page is held.
    mutating func dropPage(at edge: PageEdge, contentOffset: Double) -> Double {
        guard let size = edge == .above ? pageSizes.first : pageSizes.last else { return 0 }
        let pin = pin(at: contentOffset)
        switch edge {
        case .above:
            placeholdersAbove += size
            pageSizes.removeFirst()
            measured.removeFirst(size)
            sums = HeightSums(Array(sums.values.dropFirst(size)))
        case .below:
            placeholdersBelow += size
            pageSizes.removeLast()
            measured.removeLast(size)
            sums.removeLast(size)
        }
        return correction(keeping: pin)
    }

    /// ``RowLayout/removePlaceholders(at:contentOffset:)``.
    mutating func removePlaceholders(at edge: PageEdge, contentOffset: Double) -> Double {
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

    /// Holds `count` rows as a new page on `edge` of the held pages, at the estimate.
    private mutating func hold(_ count: Int, at edge: PageEdge) {
        switch edge {
        case .above:
            pageSizes.insert(count, at: 0)
            measured.insert(contentsOf: Array(repeating: false, count: count), at: 0)
            sums = HeightSums(Array(repeating: estimatedHeight, count: count) + sums.values)
        case .below:
            pageSizes.append(count)
            // Room for exactly the rows held, a page at a time: every session holds its rows, and an array grown
            // by doubling keeps up to twice their room (docs/PERFORMANCE.md, "Memory per connected session").
            let total = heldRowCount + count
            measured.reserveCapacity(total)
            sums.reserveCapacity(total)
            for _ in 0..<count {
                measured.append(false)
                sums.append(estimatedHeight)
            }
        }
    }

    // MARK: - Measurements

    /// Throws for a height ``RowLayout/check(_:)`` refuses (not finite, 0 or less, above the maximum).
    static func checkHeight(_ measurement: RowMeasurement) throws(LayoutError) {
        let height = measurement.height
        guard height.isFinite, height > 0, height <= RowLayout.maximumRowHeight else {
            throw .heightOutOfRange(id: measurement.id, height: height)
        }
    }

    /// Sets the heights of `batch` (checked) at the held `positions`, each measurement's in turn.
    mutating func measure(_ batch: [RowMeasurement], at positions: [Int], contentOffset: Double) -> Double {
        let pin = pin(at: contentOffset)
        for (measurement, position) in zip(batch, positions) {
            sums.set(position, to: measurement.height)
            measured[position] = true
        }
        return correction(keeping: pin)
    }

    /// ``RowLayout/forgetMeasurements(contentOffset:)``.
    mutating func forgetMeasurements(contentOffset: Double) -> Double {
        let pin = pin(at: contentOffset)
        sums = HeightSums(Array(repeating: estimatedHeight, count: heldRowCount))
        measured = Array(repeating: false, count: heldRowCount)
        return correction(keeping: pin)
    }

    // MARK: - The window

    /// ``RowLayout/pageNeeded(contentOffset:viewportHeight:prefetch:)``.
    func pageNeeded(contentOffset: Double, viewportHeight: Double, prefetch: Double) -> PageEdge? {
        if placeholdersAbove > 0 && contentOffset - prefetch < heldTop { return .above }
        if placeholdersBelow > 0 && contentOffset + viewportHeight + prefetch > heldBottom { return .below }
        return nil
    }

    /// The end page ``RowLayout/trim(contentOffset:viewportHeight:)`` drops next, if any.
    func pageToTrim(contentOffset offset: Double, viewportHeight: Double) -> PageEdge? {
        guard heldRowCount > maxHeldRows, let first = pageSizes.first, let last = pageSizes.last, pageSizes.count > 1
        else { return nil }
        // How far each end page lies outside the viewport (negative when it shows in it).
        let aboveGap = offset - (heldTop + sums.prefix(first))
        let belowGap = (heldTop + sums.prefix(heldRowCount - last)) - (offset + viewportHeight)
        guard max(aboveGap, belowGap) >= 0 else { return nil }
        return aboveGap >= belowGap ? .above : .below
    }

    /// ``RowLayout/insertPlaceholdersOnTop(_:contentOffset:)``.
    mutating func insertPlaceholdersOnTop(_ count: Int, contentOffset: Double) -> Double {
        guard count > 0 else { return 0 }
        let pin = pin(at: contentOffset)
        placeholdersAbove += count
        return correction(keeping: pin, shift: count)
    }
}
