/// The demo's content source: a reverse-chronological feed whose items are just ids, newest first.
///
/// Before every refresh a few new items appear at the top; older pages run out after `totalItems`. Each
/// request answers after `latencyMs`, or fails with probability `failureRate` (decided by a seeded
/// generator), or never answers within `timeoutMs` and fails then. All of it is deterministic.
public struct SimulatedFeed: Hashable, Sendable, Codable {
    public var configuration: FeedConfiguration
    /// The newest id that exists.
    public private(set) var newestID: Int
    /// The oldest id that exists.
    public private(set) var oldestID: Int
    private var generator: SeededGenerator

    public init(configuration: FeedConfiguration, seed: UInt64) {
        self.configuration = configuration
        self.generator = SeededGenerator(seed: seed)
        self.oldestID = 1
        self.newestID = max(0, configuration.totalItems)
    }

    /// The items of one page: ids strictly older than `olderThan` (or the newest when `nil`), newest
    /// first, at most `size`; and whether older items remain after them.
    public func page(olderThan: Int?, size: Int) -> (ids: ClosedRange<Int>?, hasMore: Bool) {
        let first = min(newestID, (olderThan ?? Int.max) - 1)
        guard first >= oldestID, size > 0 else { return (nil, false) }
        let last = max(oldestID, first - size + 1)
        return (last...first, last > oldestID)
    }

    /// Starts the feed over with `totalItems` items (the generator keeps its sequence).
    public mutating func restart() {
        oldestID = 1
        newestID = max(0, configuration.totalItems)
    }

    /// New items arrive at the top, as they would on a real feed between two refreshes.
    public mutating func publishNewItems() {
        newestID += max(0, configuration.newItemsPerRefresh)
    }

    /// Decides, once per request, whether it fails; and when its answer is due.
    public mutating func schedule(at time: Timestamp) -> (due: Timestamp, fails: Bool) {
        let roll = generator.unit()
        let fails = roll < configuration.failureRate
        if configuration.latencyMs > configuration.timeoutMs {
            return (time.advanced(bySeconds: configuration.timeoutMs / 1000), true)
        }
        return (time.advanced(bySeconds: configuration.latencyMs / 1000), fails)
    }
}
