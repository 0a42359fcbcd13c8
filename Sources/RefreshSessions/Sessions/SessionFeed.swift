import RefreshKit

/// What the host keeps of a session's external feed besides its model (which holds the items and requests):
/// the last request handed to the source, how many ended requests its members were told of, and the "N new"
/// notice they were last sent. Not recorded: each follows from the model and the polls, and a session rebuilt
/// by a replay starts afresh (so it asks its running request again).
struct SessionFeed {
    /// The ``SourceRequest/id`` last handed to the source (``HostAction/requestFeed(session:id:request:)``).
    var submitted: Int?
    /// How many ended requests (``ListModel/answeredRequests``) the members were sent as `feed_request`.
    var requestsAnnounced = 0
    /// The last `new_items` sent.
    var newItems = NewItems.none
}

/// How many items the source holds above a session's top item, as the `new_items` message says it (the
/// timelines' "N new"): counted in the source's newest page, so at most its size, with `more` when the page
/// is all new and the source has more.
public struct NewItems: Hashable, Sendable {
    /// New items in the polled page.
    public var count: Int
    /// Every item of the polled page is new, and there are more beyond it.
    public var more: Bool

    /// Nothing new.
    public static let none = NewItems(count: 0, more: false)

    /// A count; see the properties.
    public init(count: Int, more: Bool) {
        self.count = count
        self.more = more
    }

    /// The items of `polled` (the source's newest page, newest first) above `top` (a session's top item): those
    /// before it when the page holds it, else those newer than it. Nothing while nothing is loaded (the first
    /// page brings the newest).
    public init(polled: FeedPage, top: FeedItem?) {
        guard let top else {
            self = .none
            return
        }
        if let index = polled.items.firstIndex(where: { $0.id == top.id }) {
            self.init(count: index, more: false)
            return
        }
        // Not in the page: the items dated after it (an undated top item tells nothing, an undated item is not new).
        guard let topTime = top.timeMicros else {
            self = .none
            return
        }
        let newer = polled.items.prefix { ($0.timeMicros ?? .min) > topTime }.count
        self.init(count: newer, more: newer == polled.items.count && polled.hasMore)
    }
}
