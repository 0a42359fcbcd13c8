import CLibWebSockets
import Logging
import RefreshFeeds
import RefreshKit
import RefreshSessions

// The external feed (docs/FEEDS.md, "Serving"): opened when the context is made, its answers brought to the host
// on this thread (the feed's threads wake the loop), its posts answered over HTTP.
extension ServiceLoop {
    /// Opens `--feed`'s source (a clear ``ServerError/feedFailed(address:reason:)`` when it cannot work) and sets
    /// up `POST /feed/items`. Called by ``create()`` before the port is bound.
    func openFeed() throws(ServerError) {
        let source = try FeedStart.open(configuration.feed, limits: FeedLimits(), logger: logger)
        feed = source.map {
            FeedService(
                source: $0, limits: FeedLimits(), pollMilliseconds: configuration.feedPollMilliseconds, logger: logger)
        }
        let allow = (try? AddressAllowList.parse(configuration.feedPostAllow).get()) ?? AddressAllowList()
        let posts = FeedPosts(feed: feed, address: configuration.feed, allow: allow, logger: logger)
        feedPosts = posts
        gatekeeper.feedPosts = posts
    }

    /// Takes what the feed's threads left (answers, the poll's page, posts written) and tells whom it concerns.
    func deliverFeedReports() {
        guard let feed else { return }
        for report in feed.takeReports() {
            switch report {
            case .answered:
                break
            case .polled:
                break
            case .posted(let ticket, let outcome):
                feedPosts?.posted(ticket: ticket, outcome)
            }
        }
    }
}
