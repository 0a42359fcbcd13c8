import RefreshKit

/// The image addresses the feed itself gave: the only ones `GET /feed/image` fetches, so the server is no open
/// proxy. Filled from every page the feed's workers bring (a session's answers, the poll's newest page) and from
/// the sessions' loaded items when an address is not known yet (a session rebuilt by a take-over from its
/// trace). At most `limit` addresses: when full, the older half is forgotten (asked again, an address still in a
/// session is found there again).
struct KnownImageURLs: Sendable {
    let limit: Int
    private var urls: [String: UInt64] = [:]
    private var counter: UInt64 = 0

    init(limit: Int) {
        self.limit = limit
    }

    var count: Int { urls.count }

    func contains(_ url: String) -> Bool { urls[url] != nil }

    /// Remembers the images of `items`.
    mutating func learn(_ items: some Sequence<FeedItem>) {
        for item in items {
            if let url = item.image?.url { learn(url) }
        }
    }

    mutating func learn(_ url: String) {
        counter += 1
        urls[url] = counter
        guard urls.count > limit else { return }
        let cut = counter - UInt64(limit / 2)
        urls = urls.filter { $0.value > cut }
    }
}
