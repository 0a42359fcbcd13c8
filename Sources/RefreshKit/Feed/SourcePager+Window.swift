/// The window of pages of an external feed (docs/LAYOUT.md, "The window"), as Paging 3's `maxSize`: the pages
/// far from the viewport are dropped (ids, heights and items forgotten; their rows stay as placeholders at the
/// estimate), and loaded again by cursor when the viewport comes within the prefetch distance of them
/// (``WindowSize``), in both directions: `newerThan` the top held item above, `olderThan` the last held item below.
///
/// A page loaded back may not be what was dropped (items deleted or added at the source meanwhile). The rule:
/// it fills the placeholders nearest the held rows, as many as fit (the rest of its items are not shown: a
/// refresh shows them); when the source says there is nothing more that way and the page did not fill them, the
/// placeholders left are removed (the rows they stood for are gone). Either way the first visible row keeps
/// still (the layout's correction).
extension SourcePager {
    /// Whether the window of `size` (``WindowSize``: the prefetch distance, and ``RowLayout/maxHeldRows`` from
    /// the page size, the estimate and the viewport, checked at every observation, so a new page size, estimate or
    /// viewport resizes it at once) has anything to do: to take that size, to drop rows beyond it, or to load
    /// placeholders back (unless a request runs and the list is not `moving` on its own: a fling may replace a
    /// smaller reload, docs/LAYOUT.md "Where a fling stops").
    func windowNeedsWork(_ size: WindowSize, moving: Bool) -> Bool {
        geometry.maxHeldRows != size.heldRows || geometry.heldRowCount > size.heldRows
            || ((geometry.placeholdersAbove > 0 || geometry.placeholdersBelow > 0) && (runningID == 0 || moving))
    }

    /// Takes the rows updates made since the last call, oldest first; `nil` when more were made than
    /// ``RowsUpdate/limit`` and the oldest are forgotten: the pages then need every row anew.
    mutating func takeRowsUpdates() -> [RowsUpdate]? {
        defer {
            window.updates.removeAll()
            window.overflowed = false
        }
        return window.overflowed ? nil : window.updates
    }

    /// Every row as one update: the held items and the placeholders around them (what a page joining is sent).
    public var allRows: RowsUpdate {
        RowsUpdate(
            .replaced(items: loaded.items, above: geometry.placeholdersAbove, below: geometry.placeholdersBelow),
            rowCount: geometry.rowCount)
    }

    /// Whether a load-more may start: the source may have older items and the list's last page is held (while
    /// it is not, the window loads the pages below back first).
    public var mayLoadMore: Bool { hasMore && geometry.placeholdersBelow == 0 }

    // MARK: - Dropping

    /// Drops end pages while more than ``RowLayout/maxHeldRows`` rows are held: the one farther from the
    /// viewport, if it lies more than `prefetch` px outside it and the page next to it has the cursor that will
    /// load it back. - Returns: the sum of the corrections, or `nil` when nothing was dropped.
    mutating func trimWindow(contentOffset: Double, viewportHeight: Double, prefetch: Double) -> Double? {
        var total = 0.0
        var offset = contentOffset
        var dropped = false
        while geometry.heldRowCount > geometry.maxHeldRows, geometry.pageSizes.count > 1,
            window.cursors.count == geometry.pageSizes.count
        {
            let sizes = geometry.pageSizes
            let first = geometry.placeholdersAbove
            let aboveGap = offset - geometry.y(ofRow: first + sizes[0])
            let belowGap =
                geometry.y(ofRow: first + geometry.heldRowCount - sizes[sizes.count - 1]) - (offset + viewportHeight)
            let mayAbove = aboveGap >= prefetch && window.cursors[1].newer != nil
            let mayBelow = belowGap >= prefetch && window.cursors[sizes.count - 2].older != nil
            let edge: PageEdge
            if mayAbove && (!mayBelow || aboveGap >= belowGap) {
                edge = .above
            } else if mayBelow {
                edge = .below
            } else {
                break
            }
            let correction = drop(at: edge, contentOffset: offset)
            offset += correction
            total += correction
            dropped = true
        }
        return dropped ? total : nil
    }

    /// Drops the held page at `edge`: its items, ids, heights and cursors. A reload running at that edge is
    /// given up (its answer would no longer join the held rows; it is dropped as stale).
    private mutating func drop(at edge: PageEdge, contentOffset: Double) -> Double {
        guard let size = edge == .above ? geometry.pageSizes.first : geometry.pageSizes.last else { return 0 }
        if let running, running.kind == .reload, (running.edge == .top) == (edge == .above) { self.running = nil }
        let correction = geometry.dropPage(at: edge, contentOffset: contentOffset)
        loaded.forget(size, at: edge)
        if edge == .above { window.cursors.removeFirst() } else { window.cursors.removeLast() }
        record(.dropped(edge, count: size))
        return correction
    }

    // MARK: - New rows on top

    /// A refresh's `page` while the list's top page is dropped. When the page reaches the list's first item (kept
    /// as ``PageWindow/top``), the items above it are new: they become placeholders above, loaded when scrolled
    /// to, and the rows held stay where they are (the anchor keeps the row being read still). When it does not
    /// reach it (more new items than a page), the list starts over from the newest page, as a refresh whose page
    /// does not reach the top item does when the top is held.
    mutating func newRowsAboveDroppedTop(_ page: FeedPage, merging merged: inout LoadedItems, limit: Int)
        throws(FeedError) -> RowsChange
    {
        guard let top = window.top, let count = page.items.firstIndex(where: { $0.id == top.id }) else {
            return try merged.replace(with: page, limit: limit)
        }
        guard page.items.count <= limit else {
            throw .malformed("the page has \(page.items.count) items, more than the \(limit) asked for")
        }
        var seen = Set<String>()
        let held = loaded.ids
        for item in page.items.prefix(count) where !seen.insert(item.id).inserted || held.contains(item.id) {
            throw .malformed("the item id \"\(item.id)\" is repeated")
        }
        window.top = page.items.first
        return .placeholdersOnTop(count)
    }

    // MARK: - Loading back

    /// The page to ask for next to the held rows, when placeholders come within `prefetch` px of the viewport and
    /// nothing else is asked; not before the back-off after a failure. `nil` when there is none: read, not
    /// written, so that a window with nothing to load leaves the pager as it is.
    /// With `overReload`, a reload may be running (a fling's larger one may replace it, ``FlingPrefetch``).
    func reloadWanted(
        contentOffset: Double, viewportHeight: Double, prefetch: Double, at time: Timestamp, overReload: Bool = false
    ) -> (edge: PageEdge, position: FeedPosition)? {
        // the geometry first, and the running request by its id: most moves stop there, reading no optional
        guard
            let edge = geometry.pageNeeded(
                contentOffset: contentOffset, viewportHeight: viewportHeight, prefetch: prefetch),
            runningID == 0 || (overReload && running?.kind == .reload),
            window.retryNotBefore.map({ time >= $0 }) ?? true
        else { return nil }
        switch edge {
        case .above: return window.cursors.first?.newer.map { (edge, .newerThan($0)) }
        case .below: return window.cursors.last?.older.map { (edge, .olderThan($0)) }
        }
    }

    /// Starts the reload ``FlingPrefetch/reload(for:in:_:at:)`` found.
    mutating func requestReload(_ wanted: (edge: PageEdge, position: FeedPosition, limit: Int), at time: Timestamp) {
        running = makeRequest(
            .reload, edge: wanted.edge == .above ? .top : .bottom, position: wanted.position, limit: wanted.limit,
            at: time)
    }

    /// Applies `answer` when it answers the running reload. - Returns: the correction to add to the content
    /// offset, or `nil` when `answer` is not for the running reload.
    mutating func answerReload(_ answer: FeedAnswerInput, at time: Timestamp, contentOffset: Double) -> Double? {
        guard let request = running, request.kind == .reload, request.id == answer.request else { return nil }
        running = nil
        lastRowsChange = nil
        switch answer.outcome {
        case .failure(let failure):
            failReload(request, failure, durationMs: answer.durationMs, at: time)
            return 0
        case .page(let page):
            do {
                let (correction, kept) = try reload(
                    page, at: request.edge == .top ? .above : .below, limit: request.request.limit,
                    contentOffset: contentOffset)
                log(AnsweredRequest(request: request, outcome: .loaded(items: kept), durationMs: answer.durationMs))
                window.failures = 0
                window.retryNotBefore = nil
                return correction
            } catch {
                failReload(request, FeedFailure(error), durationMs: answer.durationMs, at: time)
                return 0
            }
        }
    }

    /// Fails the running reload if its deadline has come by `time`. - Returns: whether it did.
    mutating func resolveReload(at time: Timestamp) -> Bool {
        guard let request = running, request.kind == .reload, request.deadline <= time else { return false }
        running = nil
        let waited = request.deadline.seconds(since: request.issued) * 1000
        failReload(request, FeedFailure(.timedOut(limitMs: Int(timeoutMs.rounded()))), durationMs: waited, at: time)
        return true
    }

    /// Puts the items of `page` that fit into the placeholders at `edge`, nearest the held rows, and removes the
    /// placeholders left when the source has nothing more that way. Checked first: a page that breaks the items'
    /// rules changes nothing. - Returns: the correction, and how many items were put in.
    private mutating func reload(_ page: FeedPage, at edge: PageEdge, limit: Int, contentOffset: Double)
        throws(FeedError) -> (Double, Int)
    {
        let placeholders = edge == .above ? geometry.placeholdersAbove : geometry.placeholdersBelow
        let fits = min(placeholders, page.items.count)
        let kept = edge == .above ? page.items.suffix(fits) : page.items.prefix(fits)
        try LoadedItems.checkReload(kept, of: page, at: edge, limit: limit, ids: loaded.ids)
        var correction = 0.0
        if !kept.isEmpty {
            // (Its ids are new and unique, checked above, which is all a layout checks of ids.)
            do {
                try geometry.checkFits(kept.count, at: edge)
            } catch {
                throw .malformed("the page does not fit the layout: \(error)")
            }
            correction = geometry.loadPage(kept.count, at: edge, contentOffset: contentOffset)
            loaded.reload(kept, at: edge)
            let whole = fits == page.items.count
            switch edge {
            case .above:
                window.cursors.insert(
                    PageCursors(newer: whole ? page.newerCursor : nil, older: page.olderCursor), at: 0)
            case .below:
                // Cut short, the page ends the list: load-more goes on from the list's end.
                window.cursors.append(
                    PageCursors(newer: page.newerCursor, older: whole ? page.olderCursor : loaded.olderCursor))
            }
        }
        var removed = 0
        let left = placeholders - fits
        if left > 0 && (page.items.isEmpty || !page.hasMore) {
            removed = left
            if edge == .above, let row = heldRow { hold(row >= left ? row - left : nil) }
            correction += geometry.removePlaceholders(at: edge, contentOffset: contentOffset + correction)
            if edge == .below {
                loaded.olderCursor = page.olderCursor ?? loaded.olderCursor
                loaded.hasMore = false
            }
        }
        if geometry.placeholdersAbove == 0 { window.top = loaded.items.first }
        record(.reloaded(edge, items: Array(kept), removed: removed))
        return (correction, kept.count)
    }

    /// Ends a failed reload: logged as any request, and no reload asked for a while (1, 2, 4 … 30 s).
    private mutating func failReload(
        _ request: SourceRequest, _ failure: FeedFailure, durationMs: Double, at time: Timestamp
    ) {
        log(AnsweredRequest(request: request, outcome: .failed(failure), durationMs: durationMs))
        window.failures += 1
        let backOff = min(30, Double(1 << min(window.failures - 1, 5)))
        window.retryNotBefore = time.advanced(bySeconds: backOff)
    }
}
