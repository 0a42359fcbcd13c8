/// One row's height as the page laid it out: the row's id and its height in CSS px.
public struct RowMeasurement: Hashable, Sendable, Codable {
    /// The row's id (the feed item's id).
    public var id: String
    /// The row's laid-out height in CSS px: finite, above 0 and at most ``RowLayout/maximumRowHeight``.
    public var height: Double

    /// A measurement of `height` px for the row `id`.
    public init(id: String, height: Double) {
        self.id = id
        self.height = height
    }
}
