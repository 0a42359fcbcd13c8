import RefreshKit

/// What a ``FeedWorker`` delivers for each request it was given: exactly one answer per request.
public struct FeedAnswer: Sendable {
    /// The id ``FeedWorker/submit(_:)`` returned for the request.
    public var id: Int
    /// The request answered.
    public var request: FeedRequest
    /// The checked page, or why there is none.
    public var outcome: Result<FeedPage, FeedError>
    /// From submission to this answer, microseconds (the time in the queue included).
    public var durationMicros: Int64

    /// An answer; see the properties.
    public init(id: Int, request: FeedRequest, outcome: Result<FeedPage, FeedError>, durationMicros: Int64) {
        self.id = id
        self.request = request
        self.outcome = outcome
        self.durationMicros = durationMicros
    }
}
