/// What a feed source answered to a request: a page, or why there is none.
public enum FeedOutcome: Hashable, Sendable, Codable {
    /// The page the source returned (checked against what is loaded before it is shown).
    case page(FeedPage)
    /// The source failed; the list shows its failed state with the message and a Retry.
    case failure(FeedFailure)
}
