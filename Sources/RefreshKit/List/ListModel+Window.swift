/// The window of pages of an external feed, wired (docs/LAYOUT.md, "The window"): after every observation the
/// model drops the pages far from the viewport and asks for dropped pages the viewport comes near again; each
/// drop's correction goes to ``ScrollModel/shift(by:contentSize:)`` as every layout change's does, so the first
/// visible row keeps still at rest, during a drag and during a fling (whose velocity is left as it is).
extension ListModel {
    /// The list's first item, also while its page is dropped (where "N new" counts from); `nil` for the
    /// simulated feed or before the first page.
    public var feedTopItem: FeedItem? { pager.source.flatMap { $0.window.top ?? $0.loaded.items.first } }

    /// Every row of an external feed as one update (the held items and the placeholders around them): what a
    /// page joining the session, or one that missed updates, is sent. `nil` for the simulated feed.
    public var allRows: RowsUpdate? { pager.source?.allRows }

    /// The changes of the external feed's rows since the last call, oldest first, each to be sent to the pages
    /// as a `rows` message; `nil` when more happened than ``RowsUpdate/limit`` (send ``allRows`` instead).
    /// Empty for the simulated feed.
    public mutating func takeRowsUpdates() -> [RowsUpdate]? {
        guard case .external = pager else { return [] }
        return pager.withSource { $0.takeRowsUpdates() }
    }

    /// Sizes the window for the viewport (``WindowSize``), drops the pages far from the viewport and asks for a
    /// dropped one it comes near again. - Returns: whether anything changed (a page dropped, a request started).
    @inline(__always)
    mutating func followWindow() -> Bool {
        // Inlined up to here: every observation asks, and the simulated feed has no window.
        guard case .external = pager else { return false }
        return followExternalWindow()
    }

    /// ``followWindow()`` of an external feed.
    private mutating func followExternalWindow() -> Bool {
        let viewportHeight = scroll.viewport.height
        let prefetch = pager.withSource { $0.sizeWindow(viewportHeight: viewportHeight) }.prefetch
        let offset = scroll.offset.y
        let correction = pager.withSource {
            $0.trimWindow(contentOffset: offset, viewportHeight: viewportHeight, prefetch: prefetch)
        }
        if let correction { scroll.shift(by: correction, contentSize: contentSize) }
        let (shifted, time) = (scroll.offset.y, now)
        let asked = pager.withSource {
            $0.requestReload(contentOffset: shifted, viewportHeight: viewportHeight, prefetch: prefetch, at: time)
        }
        return correction != nil || asked
    }

    /// Applies `answer` when it answers the window's running reload: the rows go in, the first visible row keeps
    /// still. - Returns: whether it did (else the answer is for a control's request, or stale).
    mutating func answerWindow(_ answer: FeedAnswerInput) -> Bool {
        guard let running = pager.source?.running, running.kind == .reload, running.id == answer.request else {
            return false
        }
        let (offset, time) = (scroll.offset.y, now)
        let correction = pager.withSource { $0.answerReload(answer, at: time, contentOffset: offset) } ?? 0
        scroll.shift(by: correction, contentSize: contentSize)
        return true
    }
}
