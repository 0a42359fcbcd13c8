/// Measurements: the page's heights for the rows it laid out.
extension RowLayout {
    /// Applies a batch of measured heights and returns the content-offset correction that keeps the anchor still.
    ///
    /// The whole batch or nothing: every measurement is checked first, and the first bad one (a height that is
    /// not finite, is 0 or less or above ``maximumRowHeight``; an id no held row has) is thrown, naming the
    /// row, with the layout unchanged. A row named twice takes its last height. Each height costs O(log n).
    public mutating func measure(_ batch: [RowMeasurement], contentOffset: Double) throws(LayoutError) -> Double {
        let positions = try check(batch)
        let pin = pin(at: contentOffset)
        for (measurement, position) in zip(batch, positions) {
            sums.set(position, to: measurement.height)
            measured[position] = true
        }
        return correction(keeping: pin)
    }

    /// Checks a batch as ``measure(_:contentOffset:)`` does, changing nothing: throws its first bad measurement.
    /// - Returns: each measurement's held position.
    @discardableResult
    public func check(_ batch: [RowMeasurement]) throws(LayoutError) -> [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(batch.count)
        let held = heldPositions()
        for measurement in batch {
            let height = measurement.height
            guard height.isFinite, height > 0, height <= Self.maximumRowHeight else {
                throw .heightOutOfRange(id: measurement.id, height: height)
            }
            guard let position = held[measurement.id] else { throw .unknownRow(id: measurement.id) }
            positions.append(position)
        }
        return positions
    }

    /// Forgets every measurement (the page's width changed): the held rows go back to the estimate until they are
    /// measured again. Returns the correction that keeps the anchor still.
    public mutating func forgetMeasurements(contentOffset: Double) -> Double {
        let pin = pin(at: contentOffset)
        sums = HeightSums(Array(repeating: estimatedHeight, count: heldIDs.count))
        measured = Array(repeating: false, count: heldIDs.count)
        return correction(keeping: pin)
    }
}
