import Logging
import RefreshAccess
import RefreshFeeds
import RefreshHosting

// The feed's HTTP side (docs/FEEDS.md, "Serving"): `POST /feed/items` and `/feed/image`. The feed's workers, their
// answers and the poll are the host driver's.
extension ServiceLoop {
    /// Sets up `POST /feed/items` for the driver's feed, and with a feed the images it may fetch through
    /// `/feed/image` (`images`: where those fetches may connect). Called by ``init(configuration:source:logger:stopFlag:)``.
    func servePosts(policy images: FetchPolicy) {
        let feed = driver.feed
        gatekeeper.door.writeAllow =
            (try? AddressAllowList.parse(configuration.feedPostAllow).get()) ?? AddressAllowList()
        let posts = FeedPosts(feed: feed, address: feed?.address ?? configuration.feed, logger: logger)
        feedPosts = posts
        gatekeeper.feedPosts = posts
        driver.postAnswered = { [unowned posts] ticket, outcome in posts.posted(ticket: ticket, outcome) }
        guard feed != nil else { return }
        let requests = ImageRequests(limits: configuration.images, policy: images, logger: logger) {
            [unowned self] url in host.holdsFeedImage(url)
        }
        gatekeeper.images = requests
        // every page the feed brings names the images `/feed/image` may fetch
        driver.pageArrived = { [unowned requests] page in requests.learn(page.items) }
    }
}
