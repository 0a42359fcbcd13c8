/// The window of pages, wired (docs/LAYOUT.md, "The window"): after every observation the model drops the pages far
/// from the viewport (and a fling's way) and asks for dropped pages they come near again; each drop's correction goes
/// to ``ScrollModel/shift(by:contentSize:)``, so the first visible row keeps still (a fling's velocity too).
extension ListModel {
    /// The changes of the rows since the last call, oldest first, each to be sent to the pages as a `rows`
    /// message; `nil` when more happened than ``RowsUpdate/limit`` (send ``SourcePager/allRows`` instead).
    public mutating func takeRowsUpdates() -> [RowsUpdate]? {
        pager.takeRowsUpdates()
    }

    /// Whether rows changed since the last ``takeRowsUpdates()``, and how many requests ended in all: what a host
    /// reads after every input to know whether the pages need to hear of the feed. `mutating` only so that the
    /// model is read where it lies, not copied.
    public mutating func feedNews() -> (rows: Bool, answered: Int) {
        (pager.window.overflowed || !pager.window.updates.isEmpty, pager.answeredCount)
    }

    /// Sizes the window for the viewport (``WindowSize``), drops the pages far from the viewport and asks for a
    /// dropped one it comes near again. - Returns: whether anything changed (a page dropped, a request started).
    /// Most observations find nothing to do (no more rows held than allowed, no placeholder near, or a request
    /// running), and only read the pager (docs/PERFORMANCE.md, "No copies per input").
    @inline(__always)
    mutating func followWindow() -> Bool {
        let size = windowSizes.value.size(
            pageSize: pager.pageSize, estimatedHeight: pager.geometry.estimatedHeight,
            viewportHeight: scroll.viewport.height)
        guard pager.windowNeedsWork(size, moving: scroll.phase == .animating) else { return false }
        return followWindow(size)
    }

    /// ``followWindow()`` when the window may have something to do.
    @inline(never)
    private mutating func followWindow(_ size: WindowSize) -> Bool {
        if pager.geometry.maxHeldRows != size.heldRows { pager.geometry.maxHeldRows = size.heldRows }
        var reach = WindowReach(scroll, followingMotion: configuration.flingPrefetch)
        let correction =
            pager.geometry.heldRowCount > size.heldRows
            ? pager.trimWindow(contentOffset: reach.top, viewportHeight: reach.height, prefetch: size.prefetch) : nil
        if let correction {
            scroll.shift(by: correction, contentSize: contentSize)
            reach = WindowReach(scroll, followingMotion: configuration.flingPrefetch)
        }
        guard let wanted = FlingPrefetch.reload(for: reach, in: pager, size, at: now) else { return correction != nil }
        pager.requestReload(wanted, at: now)
        return true
    }

    /// Applies `answer` when it answers the window's running reload: the rows go in, the first visible row keeps
    /// still. - Returns: whether it did (else the answer is for a control's request, or stale).
    mutating func answerWindow(_ answer: FeedAnswerInput) -> Bool {
        guard let running = pager.running, running.kind == .reload, running.id == answer.request else {
            return false
        }
        let correction = pager.answerReload(answer, at: now, contentOffset: scroll.offset.y) ?? 0
        scroll.shift(by: correction, contentSize: contentSize)
        return true
    }
}
