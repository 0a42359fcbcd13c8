/// One request to an external source and how it ended: an entry of the request log that the debug panel
/// shows (the `feed_request` message, docs/PROTOCOL.md).
public struct AnsweredRequest: Hashable, Sendable, Codable {
    /// The request.
    public var request: SourceRequest
    /// How it ended: the items of the page applied, or the failure (the source's, the engine's check of
    /// the page, or the deadline).
    public var outcome: Outcome
    /// How long the source took, milliseconds (the answer's own figure; the time to the deadline when none
    /// came).
    public var durationMs: Double

    /// How a request ended.
    public enum Outcome: Hashable, Sendable, Codable {
        /// A page of this many items was applied.
        case loaded(items: Int)
        /// It failed.
        case failed(FeedFailure)
    }

    /// An entry; see the properties.
    public init(request: SourceRequest, outcome: Outcome, durationMs: Double) {
        self.request = request
        self.outcome = outcome
        self.durationMs = durationMs
    }
}
