/// Where a list's items come from: the engine's own simulated feed, or answers from a source outside it.
public enum FeedMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// The deterministic ``SimulatedFeed`` inside the engine (rows are ids only): tests, the bench, demos.
    case simulated
    /// A feed source outside the engine (SQLite, a JSON Feed, an app's own): the model asks with a
    /// ``SourceRequest`` and each answer comes back as an ``Input/feedAnswer(_:)`` (docs/FEEDS.md).
    case external
}
