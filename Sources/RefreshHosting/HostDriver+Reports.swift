import RefreshFeeds
import RefreshKit
import RefreshSessions

// What the other threads left for the host: the feed's reports and the store's answers.
extension HostDriver {
    /// Tells the host what arrived from another thread (the transport's hop brought it here).
    public func take(_ arrival: HostArrival, on transport: some HostTransport) {
        switch arrival {
        case .feedReports:
            deliverFeedReports()
        case .storeRead(let answer):
            host.storeRead(answer, at: clock.now())
        }
        carryOutActions(on: transport)
    }

    /// Takes what the feed's threads left (answers, the poll's page, posts written) and tells whom it concerns.
    func deliverFeedReports() {
        guard let feed else { return }
        for report in feed.takeReports() {
            switch report {
            case .answered(let session, let request, let answer):
                if case .success(let page) = answer.outcome { pageArrived?(page) }
                host.feedAnswered(session: session, answer: answer.input(answering: request), at: clock.now())
            case .polled(let outcome):
                notePoll(outcome, of: feed)
                if case .success(let page) = outcome { pageArrived?(page) }
                host.feedPolled(try? outcome.get(), at: clock.now())
            case .posted(let ticket, let outcome):
                postAnswered?(ticket, outcome)
            }
        }
    }

    /// A failing poll is logged once, and again once it works (not every few seconds).
    private func notePoll(_ outcome: Result<FeedPage, FeedError>, of feed: FeedService) {
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
    }

    /// Tells the host what the store thread did with its batches.
    func deliverStoreReports() {
        guard let storeThread else { return }
        for report in storeThread.takeReports() { host.storeAnswered(report, at: clock.now()) }
    }
}
