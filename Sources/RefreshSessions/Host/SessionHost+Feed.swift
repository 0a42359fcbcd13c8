import RefreshKit
import RefreshWire

// An external feed source behind the sessions' lists (docs/FEEDS.md, "Serving"; docs/PROTOCOL.md, "Feeds").
//
// The host never calls the source: a session's model asks (``ListModel/sourceRequest``), the host hands the
// request to the transport (``HostAction/requestFeed(session:id:request:)``), and the transport brings the answer
// back (``SessionHost/feedAnswered(session:answer:at:)``), which is applied through the recorded model as the
// reserved member −1's `feed_answer` message, so a trace replays it without the source and a take-over (which
// replays the stored trace) gets the rows back. The members are sent what changed: `rows`, `feed_request`,
// `new_items`.
extension SessionHost {
    /// The member number a source's answers are recorded under (pages count up from 0).
    public static let feedMember = -1

    /// The source answered `answer.request` of session `id`, at `now`: applied (and recorded) as a timed
    /// input; the members get the rows it changed before the frame that shows them.
    public func feedAnswered(session id: String, answer: FeedAnswerInput, at now: Int64) {
        flushHeldFrame()
        guard !shuttingDown, let session = registry.sessions[id] else {
            logger.debug("feed answer for a session no longer held", metadata: ["session": "\(id)"])
            return
        }
        let text = feedAnswerText(answer)
        let before = session.model.answeredRequests.total
        let refusal = text.withUnsafeBytes { bytes -> ListModelError? in
            do throws(ListModelError) {
                try session.apply(
                    ReceivedInput(.feedAnswer(answer), text: bytes), member: Self.feedMember,
                    at: Timestamp(microseconds: now))
                return nil
            } catch {
                return error
            }
        }
        if let refusal {
            logger.error("the engine refused a feed answer", metadata: ["session": "\(id)", "reason": "\(refusal)"])
        }
        registry.account(session)
        if session.model.answeredRequests.total > before, let change = session.model.lastRowsChange {
            sendRows(change, of: session, to: session.connections)
        }
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

    /// After every change of `session` (``writeFrames(of:)``): submits its running request when it is new
    /// (a replayed session asks again), and tells its members of requests that ended and of new items.
    func followFeed(of session: Session) {
        guard session.model.feedMode == .external else { return }
        if let request = session.model.sourceRequest, session.feed.submitted != request.id {
            session.feed.submitted = request.id
            actions.append(.requestFeed(session: session.id, id: request.id, request: request.request))
        }
        let (recent, total) = session.model.answeredRequests
        if total > session.feed.requestsAnnounced {
            let fresh = recent.suffix(min(recent.count, total - session.feed.requestsAnnounced))
            session.feed.requestsAnnounced = total
            for connection in session.connections where connection.lifecycle.takesSessionOutput {
                for message in fresh.compactMap(feedRequestMessage) { enqueue(message, on: connection) }
            }
        }
        announceNewItems(of: session)
    }

    /// After a `welcome` to `connection`: every loaded item (`rows` `replace`) and the notice of new items.
    func welcomeFeed(_ connection: Connection, to session: Session) {
        guard session.model.feedMode == .external else { return }
        sendRows(.replaced, of: session, to: [connection])
        if session.feed.newItems.count > 0, let message = newItemsMessage(session.feed.newItems) {
            enqueue(message, on: connection)
        }
    }

    /// Sends `change`'s items (`rows`) to `connections`.
    private func sendRows(_ change: RowsChange, of session: Session, to connections: [Connection]) {
        let items = session.model.feedItems
        let made: ServerMessage? =
            switch change {
            case .replaced: rowsMessage("replace", items: items, count: items.count)
            case .prepended(let count): rowsMessage("prepend", items: Array(items.prefix(count)), count: items.count)
            case .appended(let count): rowsMessage("append", items: Array(items.suffix(count)), count: items.count)
            }
        guard let message = made else { return }
        for connection in connections where connection.lifecycle.takesSessionOutput {
            enqueue(message, on: connection)
        }
    }

    /// Tells `session`'s members how many polled items are newer than its top item, when that changed.
    private func announceNewItems(of session: Session) {
        guard session.model.feedMode == .external, let polled = polledFeed else { return }
        let news = NewItems(polled: polled, top: session.model.feedItems.first)
        guard news != session.feed.newItems else { return }
        session.feed.newItems = news
        guard let message = newItemsMessage(news) else { return }
        for connection in session.connections where connection.lifecycle.takesSessionOutput {
            enqueue(message, on: connection)
            actions.append(.wantWrite(connection))
        }
    }
}
