import RefreshKit

/// `welcome.feed`: the session's feed as a joining page needs it: the source, whether it takes posts, and
/// the last requests to it (docs/PROTOCOL.md, "welcome").
public struct WelcomeFeed: Hashable, Sendable {
    /// What kind of source it is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A SQLite file.
        case sqlite
        /// A feed on the web, of any format (`feed:URL`).
        case feed
        /// The same, by its older name (`jsonfeed:URL`).
        case jsonfeed
        /// The engine's simulated feed.
        case simulated
        /// An app's own source.
        case custom
    }

    /// The source's address as shown to people (`sqlite:demo.sqlite`, `simulated`).
    public var source: String
    /// What kind of source it is.
    public var kind: Kind
    /// Whether the source takes new items (`POST /feed/items`).
    public var postable: Bool
    /// The last requests to the source that ended, oldest first (`SourcePager.answeredRequests`), written as
    /// `requests` in the shape of the `feed_request` message (without its `type`).
    public var requests: [AnsweredRequest]

    /// A feed; see the properties.
    public init(source: String, kind: Kind, postable: Bool = false, requests: [AnsweredRequest] = []) {
        self.source = source
        self.kind = kind
        self.postable = postable
        self.requests = requests
    }

    /// The engine's simulated feed.
    public static let simulated = WelcomeFeed(source: "simulated", kind: .simulated)
}
