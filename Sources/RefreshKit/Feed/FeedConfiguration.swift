/// A list's feed settings (`configure`'s `feed`): the page size, the estimated row height and the time limit apply
/// to every source; the latency, failures, size and new items shape the engine's own ``SimulatedFeed``.
public struct FeedConfiguration: Hashable, Sendable, Codable {
    /// Time from a request to its answer, milliseconds (the simulated feed).
    public var latencyMs: Double
    /// Probability that a request fails, 0…1 (the simulated feed).
    public var failureRate: Double
    /// Items per page.
    public var pageSize: Int
    /// Items that exist in all (older pages run out after this many; the simulated feed).
    public var totalItems: Int
    /// New items that appear at the top of the feed before each refresh (the simulated feed).
    public var newItemsPerRefresh: Int
    /// The estimated height of a row the page has not measured, CSS px.
    public var rowHeight: Double
    /// A request that has not answered after this long fails, milliseconds.
    public var timeoutMs: Double
    /// The height of a section's header, CSS px: the band a page draws at the top of a section's first row (in
    /// the row's measured height), and the header pinned at the top of the viewport (docs/LAYOUT.md, "Section
    /// headers"). Read only when items carry a ``FeedItem/section``.
    public var sectionHeaderHeight: Double

    public init(
        latencyMs: Double = 1200,
        failureRate: Double = 0,
        pageSize: Int = 20,
        totalItems: Int = 200,
        newItemsPerRefresh: Int = 3,
        rowHeight: Double = 72,
        timeoutMs: Double = 10_000,
        sectionHeaderHeight: Double = 28
    ) {
        self.latencyMs = latencyMs
        self.failureRate = failureRate
        self.pageSize = pageSize
        self.totalItems = totalItems
        self.newItemsPerRefresh = newItemsPerRefresh
        self.rowHeight = rowHeight
        self.timeoutMs = timeoutMs
        self.sectionHeaderHeight = sectionHeaderHeight
    }
}

// Coded as before sections had a header height, which is coded only when it is not the default: a snapshot taken by a
// process of an earlier version is read with the default, and one that does not use sections is coded as that process
// coded it (docs/SCALING.md, "Take-over").
extension FeedConfiguration {
    private enum CodingKeys: String, CodingKey {
        case latencyMs, failureRate, pageSize, totalItems, newItemsPerRefresh, rowHeight, timeoutMs, sectionHeaderHeight
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            latencyMs: try container.decode(Double.self, forKey: .latencyMs),
            failureRate: try container.decode(Double.self, forKey: .failureRate),
            pageSize: try container.decode(Int.self, forKey: .pageSize),
            totalItems: try container.decode(Int.self, forKey: .totalItems),
            newItemsPerRefresh: try container.decode(Int.self, forKey: .newItemsPerRefresh),
            rowHeight: try container.decode(Double.self, forKey: .rowHeight),
            timeoutMs: try container.decode(Double.self, forKey: .timeoutMs))
        if let height = try container.decodeIfPresent(Double.self, forKey: .sectionHeaderHeight) {
            sectionHeaderHeight = height
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latencyMs, forKey: .latencyMs)
        try container.encode(failureRate, forKey: .failureRate)
        try container.encode(pageSize, forKey: .pageSize)
        try container.encode(totalItems, forKey: .totalItems)
        try container.encode(newItemsPerRefresh, forKey: .newItemsPerRefresh)
        try container.encode(rowHeight, forKey: .rowHeight)
        try container.encode(timeoutMs, forKey: .timeoutMs)
        if sectionHeaderHeight != FeedConfiguration().sectionHeaderHeight {
            try container.encode(sectionHeaderHeight, forKey: .sectionHeaderHeight)
        }
    }
}
