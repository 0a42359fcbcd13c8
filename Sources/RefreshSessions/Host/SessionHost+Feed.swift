import RefreshKit
import RefreshWire

// The feed behind the sessions' lists (docs/FEEDS.md, "Serving"; docs/PROTOCOL.md, "Feeds").
//
// The engine's simulated feed answers inside the model; for a source outside the engine, the host never calls the
// source: a session's model asks (``ListModel/sourceRequest``), the host hands the
// request to the transport (``HostAction/requestFeed(session:id:request:)``), and the transport brings the answer
// back (``SessionHost/feedAnswered(session:answer:at:)``), which is applied through the recorded model as the
// reserved member −1's `feed_answer` message, so a trace replays it without the source and a take-over (which
// replays the stored trace) gets the rows back. The members are sent what changed: `rows`, `feed_request`,
// `new_items`.
extension SessionHost {
    /// The source answered `answer.request` of session `id`, at `now`: applied (and recorded) as a timed
    /// input; the members get the rows it changed before the frame that shows them.
    public func feedAnswered(session id: String, answer: FeedAnswerInput, at now: Int64) {
        flushHeldFrame()
        guard !shuttingDown, let session = registry.sessions[id] else {
            logger.debug("feed answer for a session no longer held", metadata: ["session": "\(SessionLogID(id))"])
            return
        }
        let before = session.model.pager.answeredRequests.total
        var refusal: ListModelError?
        do {
            try session.apply(feedAnswer: answer, at: Timestamp(microseconds: now))
        } catch {
            refusal = error
        }
        if let refusal {
            logger.error(
                "the engine refused a feed answer",
                metadata: ["session": "\(SessionLogID(id))", "reason": "\(refusal)"])
        }
        registry.account(session)
        if session.model.pager.answeredRequests.total > before { sendRowsUpdates(of: session) }
        broadcast(session.takeEvents(), in: session)
        armTick(for: session, at: now)
    }

    /// The source's newest page, polled (`nil`: the poll failed, and the counts stay as they are): every
    /// session showing the source is told how many of its items are newer than its top item.
    public func feedPolled(_ page: FeedPage?, at now: Int64) {
        flushHeldFrame()
        guard let page, !shuttingDown else { return }
        polledFeed = page
        for session in registry.sessions.values { announceNewItems(of: session) }
    }

    /// After every change of `session` (``writeFrames(of:)``): submits its running request to a source outside
    /// the engine when it is new (a replayed session asks again), and tells its members of rows that changed, of
    /// requests that ended and of new items. (The test inlined in its caller, which runs after every input: a
    /// simulated feed's session has nothing to do on most inputs; the work out of line.)
    @inline(__always)
    func followFeed(of session: Session) {
        guard
            session.traced.feedMode == .external || session.traced.feedNews.rows
                || session.traced.feedNews.answered != session.feed.requestsAnnounced
        else { return }
        followFeedChanges(of: session)
    }

    @inline(never)
    private func followFeedChanges(of session: Session) {
        sendRowsUpdates(of: session)
        if let request = session.model.sourceRequest, session.feed.submitted != request.id {
            session.feed.submitted = request.id
            actions.append(.requestFeed(session: session.id, id: request.id, request: request.request))
        }
        let (recent, total) = session.model.pager.answeredRequests
        if total > session.feed.requestsAnnounced {
            let fresh = recent.suffix(min(recent.count, total - session.feed.requestsAnnounced))
            session.feed.requestsAnnounced = total
            for entry in fresh {
                guard case .failed(let failure) = entry.outcome else { continue }
                logger.notice(
                    "feed request failed",
                    metadata: [
                        "session": "\(SessionLogID(session.id))", "request": "\(entry.request.id)",
                        "kind": "\(entry.request.kind.rawValue)", "code": "\(failure.code)",
                        "reason": "\(failure.message)", "ms": "\(entry.durationMs)",
                    ])
            }
            for connection in session.connections where connection.lifecycle.takesSessionOutput {
                for entry in fresh { enqueue(.feedRequest(entry), on: connection) }
            }
        }
        announceNewItems(of: session)
    }

    /// The `welcome`'s `feed`: the source, whether it takes posts, and its last requests.
    func welcomeFeed(of session: Session) -> WelcomeFeed {
        let requests = session.model.pager.answeredRequests.recent
        guard session.traced.feedMode == .external else {
            return WelcomeFeed(source: "simulated", kind: .simulated, requests: requests)
        }
        let source = session.traced.recorder.header.feedSource ?? configuration.feedSource ?? "custom"
        return WelcomeFeed(
            source: source, kind: configuration.feedKind, postable: configuration.feedPostable, requests: requests)
    }

    /// After a `welcome` to `connection`: every loaded item (`rows` `replace`) and the notice of new items.
    func welcomeFeed(_ connection: Connection, to session: Session) {
        // The members already there get what changed first; the one joining gets every row as it is now.
        sendRowsUpdates(of: session, skipping: connection)
        enqueue(.rowsUpdate(session.model.pager.allRows), on: connection)
        welcomeHeights(connection, to: session)
        let news = session.feed.newItems
        if news.count > 0 { enqueue(.newItems(count: news.count, more: news.more), on: connection) }
    }

    /// Sends the changes of the session's rows since the last call (`rows`, docs/PROTOCOL.md) to its members
    /// (but `skipping`), in the order they happened; every row anew (`replace`) when more happened than the
    /// model keeps (``RowsUpdate/limit``).
    private func sendRowsUpdates(of session: Session, skipping: Connection? = nil) {
        let updates: [RowsUpdate]
        if let taken = session.takeRowsUpdates() {
            updates = taken
        } else {
            updates = [session.model.pager.allRows]
        }
        for update in updates {
            let message = ServerMessage.rowsUpdate(update)
            for connection in session.connections where connection.lifecycle.takesSessionOutput {
                if connection !== skipping { enqueue(message, on: connection) }
            }
        }
    }

    /// Tells `session`'s members how many polled items are newer than its top item, when that changed.
    private func announceNewItems(of session: Session) {
        guard session.traced.feedMode == .external, let polled = polledFeed else { return }
        let news = NewItems(polled: polled, top: session.model.pager.topItem)
        guard news != session.feed.newItems else { return }
        session.feed.newItems = news
        for connection in session.connections where connection.lifecycle.takesSessionOutput {
            enqueue(.newItems(count: news.count, more: news.more), on: connection)
            actions.append(.wantWrite(connection))
        }
    }
}
