import RefreshFeeds
import RefreshWire

/// The feed source behind every session's list, as a ``HostDriver`` serves it (docs/FEEDS.md, "Serving").
public struct HostedSource {
    /// The source, asked on the feed's worker threads.
    public let source: any FeedSource
    /// What the `welcome` calls it.
    public let kind: WelcomeFeed.Kind
    /// Whether the transport's `POST /feed/items` writes to it (the `welcome` says so).
    public let postable: Bool
    /// How often its newest page is polled for "N new", milliseconds (0: never).
    public let pollMilliseconds: Int

    /// A source; see the properties. An app's own source is `custom`, and takes posts only through the app's
    /// own routes.
    public init(
        _ source: any FeedSource, kind: WelcomeFeed.Kind = .custom, postable: Bool = false,
        pollMilliseconds: Int = 5000
    ) {
        self.source = source
        self.kind = kind
        self.postable = postable
        self.pollMilliseconds = pollMilliseconds
    }
}
