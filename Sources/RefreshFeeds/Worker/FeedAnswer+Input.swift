import RefreshKit

extension FeedAnswer {
    /// This answer as the engine's input for its request `request` (`ListModel.sourceRequest`'s id, which
    /// the host kept beside the worker's ``id``): the page, or the error as a `FeedFailure` (its code and
    /// message), and the time it took in milliseconds. The host applies it with
    /// `TracedListModel.apply(feedAnswer:at:)` (docs/FEEDS.md, "How answers reach the engine").
    public func input(answering request: Int) -> FeedAnswerInput {
        let outcome: FeedOutcome =
            switch self.outcome {
            case .success(let page): .page(page)
            case .failure(let error): .failure(FeedFailure(error))
            }
        return FeedAnswerInput(request: request, outcome: outcome, durationMs: Double(durationMicros) / 1000)
    }
}
