import Logging
import RefreshAccess
import RefreshFeeds
import RefreshHosting

// The feed's HTTP side (docs/FEEDS.md, "Serving"): `POST /feed/items` and `/feed/image`. The feed's workers, their
// answers and the poll are the host driver's.
extension ServiceLoop {
    /// Sets up `POST /feed/items` for the driver's feed, and hands `/feed/image` the images every page the feed
    /// brings names. Called by ``init(configuration:source:logger:stopFlag:)``.
    func servePosts() {
        let feed = driver.feed
        gatekeeper.door.writeAllow =
            (try? AddressAllowList.parse(configuration.feedPostAllow).get()) ?? AddressAllowList()
        let posts = FeedPosts(feed: feed, address: feed?.address ?? configuration.feed, logger: logger)
        feedPosts = posts
        gatekeeper.feedPosts = posts
        driver.postAnswered = { [unowned posts] ticket, outcome in posts.posted(ticket: ticket, outcome) }
        guard let images else { return }
        gatekeeper.images = images
        driver.pageArrived = { [unowned images] page in images.learn(page.items) }
    }

    /// `/feed/image`'s requests, with a feed (`policy`: where their fetches may connect, as the feed's own
    /// documents': its host as written, and the internet).
    static func images(
        for driver: HostDriver, configuration: ServerConfiguration, policy: FetchPolicy, logger: Logger
    ) -> ImageRequests? {
        guard driver.feed != nil else { return nil }
        let host = driver.host
        return ImageRequests(limits: configuration.images, policy: policy, logger: logger) { url in
            host.holdsFeedImage(url)
        }
    }
}
