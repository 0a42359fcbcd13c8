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

    public init(
        latencyMs: Double = 1200,
        failureRate: Double = 0,
        pageSize: Int = 20,
        totalItems: Int = 200,
        newItemsPerRefresh: Int = 3,
        rowHeight: Double = 72,
        timeoutMs: Double = 10_000
    ) {
        self.latencyMs = latencyMs
        self.failureRate = failureRate
        self.pageSize = pageSize
        self.totalItems = totalItems
        self.newItemsPerRefresh = newItemsPerRefresh
        self.rowHeight = rowHeight
        self.timeoutMs = timeoutMs
    }
}
