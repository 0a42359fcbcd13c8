import CLibWebSockets
import Logging
import RefreshAccess
import RefreshFeeds
import RefreshKit
import RefreshSessions

// The external feed (docs/FEEDS.md, "Serving"): opened when the context is made, its answers brought to the host
// on this thread (the feed's threads wake the loop), its posts answered over HTTP.
extension ServiceLoop {
    /// Takes the app's own source, or opens `--feed`'s (a clear ``ServerError/feedFailed(address:reason:)`` when it cannot work) and sets
    /// up `POST /feed/items`. Called by ``create()`` before the port is bound.
    func openFeed() throws(ServerError) {
        let source: (any FeedSource)?
        // where the server's fetches may connect (docs/FEEDS.md, "What is fetched, and what is refused")
        let policy = FetchPolicy(allowsPrivate: configuration.feedAllowPrivate)
        if let appSource {
            logger.info("feed opened", metadata: ["feed": "\(appSource.address)", "kind": "custom"])
            source = appSource
        } else {
            source = try FeedStart.open(configuration.feed, limits: FeedLimits(), policy: policy, logger: logger)
        }
        feed = source.map {
            FeedService(
                source: $0, limits: FeedLimits(), pollMilliseconds: configuration.feedPollMilliseconds)
        }
        gatekeeper.door.writeAllow =
            (try? AddressAllowList.parse(configuration.feedPostAllow).get()) ?? AddressAllowList()
        let posts = FeedPosts(feed: feed, address: source?.address ?? configuration.feed, logger: logger)
        feedPosts = posts
        gatekeeper.feedPosts = posts
        if feed != nil {
            // the images as the feed's own documents: its host as written, and the internet
            let images = (source as? WebFeedSource)?.policy ?? policy
            gatekeeper.images = ImageRequests(limits: configuration.images, policy: images, logger: logger) {
                [unowned self] url in host.holdsFeedImage(url)
            }
        }
    }

    /// `HostAction.requestFeed`: hands the request to the source's worker (a session can only ask with an
    /// external feed; without one it is answered `unavailable` at once).
    func requestFeed(session: String, id: Int, request: FeedRequest) {
        guard let feed else {
            let failure = FeedFailure(.unavailable("the server has no feed source"))
            host.feedAnswered(
                session: session, answer: FeedAnswerInput(request: id, outcome: .failure(failure)), at: clock.now())
            return
        }
        feed.submit(request, session: session, request: id)
    }

    /// Takes what the feed's threads left (answers, the poll's page, posts written) and tells whom it concerns.
    func deliverFeedReports() {
        gatekeeper.images?.deliver()
        guard let feed else { return }
        for report in feed.takeReports() {
            switch report {
            case .answered(let session, let request, let answer):
                if case .success(let page) = answer.outcome { gatekeeper.images?.learn(page.items) }
                host.feedAnswered(session: session, answer: answer.input(answering: request), at: clock.now())
            case .polled(let outcome):
                switch outcome {
                case .failure(let error) where !feed.pollFailing:
                    logger.notice(
                        "feed poll failed; 'N new' waits until it works again",
                        metadata: ["feed": "\(feed.address)", "code": "\(error.code)", "reason": "\(error)"])
                    feed.pollFailing = true
                case .success where feed.pollFailing:
                    logger.notice("feed poll works again", metadata: ["feed": "\(feed.address)"])
                    feed.pollFailing = false
                default:
                    break
                }
                if case .success(let page) = outcome { gatekeeper.images?.learn(page.items) }
                host.feedPolled(try? outcome.get(), at: clock.now())
            case .posted(let ticket, let outcome):
                feedPosts?.posted(ticket: ticket, outcome)
            }
        }
    }
}
