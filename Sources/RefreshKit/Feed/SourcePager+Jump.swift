/// A jump (docs/LAYOUT.md, "A jump"): a `scrollToItem` to an item that is not loaded asks the source for the page
/// around it (``FeedPosition/around(_:)``). Its answer replaces the rows: the page is held `above` rows down, the
/// rows above it placeholders that the window loads back by the page's newer cursor as the reader scrolls up, the
/// rows below loaded by its older cursor as load-more does; the item is held where it lands.
extension SourcePager {
    /// Starts the page around the item `id`, landing as `landing` says. A running first load, load-more or window
    /// reload gives way (returned as dropped, its answer then stale); while a refresh runs, nothing starts.
    mutating func requestJump(to id: String, landing: SourceRequest.Landing, at time: Timestamp)
        -> (started: SourceRequest?, dropped: SourceRequest?)
    {
        var dropped: SourceRequest?
        if let running {
            guard running.kind != .refresh else { return (nil, nil) }
            dropped = running
            self.running = nil
        }
        var request = makeRequest(.jump, edge: .top, position: .around(id), at: time)
        request.landing = landing
        running = request
        return (request, dropped)
    }

    /// Refuses a jump to `id` that cannot start now: a refresh is on its way.
    func checkJump(to id: String) throws(ListModelError) {
        guard let running, running.kind == .refresh else { return }
        throw ListModelError(
            .unknownItem,
            message: "scrollToItem: '\(id.prefix(64))' is not loaded, and a refresh is on its way: "
                + "send it again once it ends")
    }

    /// Applies `answer` when it answers the running jump. - Returns: `nil` when it does not (another request's, or
    /// stale); else the row the item is on and where it lands, or `nil` row when the jump failed (logged, the rows
    /// as they were).
    mutating func answerJump(_ answer: FeedAnswerInput) -> (row: Int?, landing: SourceRequest.Landing)? {
        guard let request = running, request.kind == .jump, request.id == answer.request,
            case .around(let id) = request.request.position
        else { return nil }
        let landing = request.landing ?? SourceRequest.Landing(align: .start, animated: false)
        running = nil
        lastRowsChange = nil
        switch answer.outcome {
        case .failure(let failure):
            log(AnsweredRequest(request: request, outcome: .failed(failure), durationMs: answer.durationMs))
            return (nil, landing)
        case .page(let page):
            do throws(FeedError) {
                let row = try replace(with: page, around: id, limit: request.request.limit)
                log(
                    AnsweredRequest(
                        request: request, outcome: .loaded(items: page.items.count), durationMs: answer.durationMs))
                return (row, landing)
            } catch {
                log(
                    AnsweredRequest(
                        request: request, outcome: .failed(FeedFailure(error)), durationMs: answer.durationMs))
                return (nil, landing)
            }
        }
    }

    /// A jump that failed before anything was loaded (it took the first load's place: a place kept that the source
    /// no longer has) leaves no list: the newest page is asked for instead.
    mutating func startOverIfEmpty(at time: Timestamp) {
        guard geometry.rowCount == 0, running == nil else { return }
        _ = request(.firstLoad, for: .top, at: time)
    }

    /// The offset into its row the held row is to land at, px (``keepLanding(_:)``).
    var landingOffset: Double { Double(landingQuarters) / 4 }

    /// Keeps where the held row is to land (`nil`: it landed, nothing to keep).
    mutating func keepLanding(_ kept: SourceRequest.Landing?) {
        (landing, landingQuarters) = (kept?.align, kept?.quarters ?? 0)
    }

    /// Fails the running jump if its deadline has come by `time`. - Returns: whether it did.
    mutating func resolveJump(at time: Timestamp) -> Bool {
        guard let request = running, request.kind == .jump, request.deadline <= time else { return false }
        running = nil
        let waited = request.deadline.seconds(since: request.issued) * 1000
        let failure = FeedFailure(.timedOut(limitMs: Int(timeoutMs.rounded())))
        log(AnsweredRequest(request: request, outcome: .failed(failure), durationMs: waited))
        return true
    }

    /// The rows anew: `page` held below `page.above` placeholders, its cursors the window's. Checked first (the
    /// items' rules, and the item `id` among them): a page that breaks them changes nothing. - Returns: the row
    /// of `id`.
    private mutating func replace(with page: FeedPage, around id: String, limit: Int) throws(FeedError) -> Int {
        let page = try LoadedItems.checked(page, limit: limit)
        guard let position = page.items.firstIndex(where: { $0.id == id }) else {
            throw .malformed("the page around \"\(id.prefix(64))\" does not hold it")
        }
        let above = max(0, page.above ?? 0)
        guard above <= Int(Int32.max) - page.items.count else {
            throw .malformed("the page says \(above) items are above it")
        }
        let top = window.top
        loaded = LoadedItems(replacingWith: page)
        geometry = Self.emptyGeometry(estimatedHeight: geometry.estimatedHeight, maxHeldRows: geometry.maxHeldRows)
        _ = geometry.append(page.items.count, contentOffset: 0)
        _ = geometry.insertPlaceholdersOnTop(above, contentOffset: 0)
        window.cursors = [PageCursors(newer: page.newerCursor, older: page.olderCursor)]
        window.answered = window.cursors[0]
        window.answeredWhole = true
        // The list's first item stays what "N new" counts from while the top is not held.
        window.top = above == 0 ? page.items.first : top ?? page.items.first
        lastRowsChange = .replaced
        record(.replaced(items: page.items, above: above, below: 0))
        hold(above + position)
        return above + position
    }
}
