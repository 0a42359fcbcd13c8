/// A feed source's answer to the model's ``SourceRequest``, applied as an input (``Input/feedAnswer(_:)``) at
/// the time it reached the service thread, so a trace that records it replays without the source.
///
/// An answer for a request that is no longer running (it was answered, timed out, cancelled or preempted)
/// is dropped: a `feedDropped` event with the cause `stale`, and nothing else changes.
public struct FeedAnswerInput: Hashable, Sendable, Codable {
    /// The ``SourceRequest/id`` answered.
    public var request: Int
    /// The page, or the failure.
    public var outcome: FeedOutcome
    /// How long the source took, milliseconds: for the request log only (the engine's time is the input's).
    public var durationMs: Double

    /// An answer to request `request`.
    public init(request: Int, outcome: FeedOutcome, durationMs: Double = 0) {
        self.request = request
        self.outcome = outcome
        self.durationMs = durationMs
    }
}
