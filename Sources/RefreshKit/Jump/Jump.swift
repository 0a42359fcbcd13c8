/// A jump (docs/LAYOUT.md, "A jump"): a `scrollToItem` to an item that is not loaded asks the source for the page
/// around it (``FeedPosition/around(_:)``). Its answer replaces the rows (``JumpRows``): the page is held `above` rows
/// down, the rows above it placeholders that the window loads back by the page's newer cursor as the reader scrolls
/// up, the rows below loaded by its older cursor as load-more does; the item is held where it lands.
///
/// The jump's rules, over the list's rows: the pager keeps the state (the running request, which carries the
/// ``SourceRequest/Landing``, and the landing still owed, in room it had), this room decides.
enum Jump {
    /// Refuses a jump to `id` that cannot start now: a refresh is on its way.
    static func check(to id: String, in pager: SourcePager) throws(ListModelError) {
        guard let running = pager.running, running.kind == .refresh else { return }
        throw ListModelError(
            .unknownItem,
            message: "scrollToItem: '\(id.prefix(64))' is not loaded, and a refresh is on its way: "
                + "send it again once it ends")
    }

    /// Starts the page around the item `id`, landing as `landing` says. A running first load, load-more or window
    /// reload gives way (returned, its answer then stale); while a refresh runs, nothing starts.
    static func start(
        to id: String, landing: SourceRequest.Landing, in pager: inout SourcePager, at time: Timestamp
    ) -> (started: SourceRequest?, dropped: SourceRequest?) {
        var dropped: SourceRequest?
        if let running = pager.running {
            guard running.kind != .refresh else { return (nil, nil) }
            dropped = running
            pager.running = nil
        }
        var request = pager.makeRequest(.jump, edge: .top, position: .around(id), at: time)
        request.landing = landing
        pager.running = request
        return (request, dropped)
    }

    /// Applies `answer` when it answers the running jump. - Returns: `nil` when it does not (another request's, or
    /// stale); else the row the item is on and where it lands, or a `nil` row when the jump failed (logged, the rows
    /// as they were).
    static func answer(_ answer: FeedAnswerInput, in pager: inout SourcePager)
        -> (row: Int?, landing: SourceRequest.Landing)?
    {
        guard let request = pager.running, request.kind == .jump, request.id == answer.request,
            case .around(let id) = request.request.position
        else { return nil }
        let landing = request.landing ?? SourceRequest.Landing(align: .start, animated: false)
        pager.running = nil
        pager.lastRowsChange = nil
        let outcome: AnsweredRequest.Outcome
        var row: Int?
        switch answer.outcome {
        case .failure(let failure):
            outcome = .failed(failure)
        case .page(let page):
            do throws(FeedError) {
                let rows = try JumpRows(page, around: id, limit: request.request.limit, replacing: pager.geometry)
                row = rows.row
                rows.apply(to: &pager)
                outcome = .loaded(items: page.items.count)
            } catch {
                outcome = .failed(FeedFailure(error))
            }
        }
        pager.log(AnsweredRequest(request: request, outcome: outcome, durationMs: answer.durationMs))
        return (row, landing)
    }

    /// Fails the running jump if its deadline has come by `time`. - Returns: whether it did.
    static func expire(in pager: inout SourcePager, at time: Timestamp) -> Bool {
        guard let request = pager.running, request.kind == .jump, request.deadline <= time else { return false }
        pager.running = nil
        let waited = request.deadline.seconds(since: request.issued) * 1000
        let failure = FeedFailure(.timedOut(limitMs: Int(pager.timeoutMs.rounded())))
        pager.log(AnsweredRequest(request: request, outcome: .failed(failure), durationMs: waited))
        return true
    }

    /// A jump that failed before anything was loaded (it took the first load's place: a place kept that the source
    /// no longer has) leaves no list: the newest page is asked for instead.
    static func startOverIfEmpty(_ pager: inout SourcePager, at time: Timestamp) {
        guard pager.geometry.rowCount == 0, pager.running == nil else { return }
        _ = pager.request(.firstLoad, for: .top, at: time)
    }

    /// The landing a held row still owes (its item stopped short of its alignment by the list's end), if any.
    static func owed(by pager: SourcePager) -> (row: Int, align: ItemAlignment, offset: Double)? {
        guard let align = pager.landing, let row = pager.heldRow else { return nil }
        return (row, align, Double(pager.landingQuarters) / 4)
    }

    /// Keeps the landing the held row still owes (`nil`: it landed, nothing is owed).
    static func owe(_ landing: SourceRequest.Landing?, in pager: inout SourcePager) {
        (pager.landing, pager.landingQuarters) = (landing?.align, landing?.quarters ?? 0)
    }
}
