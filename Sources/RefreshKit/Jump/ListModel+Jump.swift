/// `scrollToItem` to an item that is not loaded (docs/LAYOUT.md, "A jump"): on a feed outside the engine, the page
/// around it is asked for, and when it comes the rows are replaced and the item lands where the command said.
extension ListModel {
    /// Asks for the page around `id`; a running load-more gives way (its control ends, cancelled), as for a refresh.
    mutating func jump(to id: String, _ command: Command) {
        pager.release()
        let landing = SourceRequest.Landing(align: command.align, animated: command.animated, offset: command.amount)
        guard let dropped = Jump.start(to: id, landing: landing, in: &pager, at: now).dropped else { return }
        events.append(Event(.feedDropped, edge: dropped.edge, cause: .preempted, time: now))
        if dropped.kind == .nextPage {
            controls[Self.index(dropped.edge)].finish(
                .cancelled, cause: .preempted, fingerDown: scroll.isDragging, at: now, events: &events)
            syncLayers()
        }
    }

    /// Applies `answer` when it answers the running jump: the rows are the page's, and its item lands at the
    /// command's alignment at once (the rows it came from are gone: there is nothing to animate from), held there.
    /// - Returns: whether it did.
    mutating func answerJump(_ answer: FeedAnswerInput) -> Bool {
        guard let (row, landing) = Jump.answer(answer, in: &pager) else { return false }
        guard let row else {
            events.append(Event(.feedFailed, cause: .feedFailed, time: now))
            Jump.startOverIfEmpty(&pager, at: now)
            return true
        }
        resetFooters()
        land(row, landing.align, offset: landing.offset)
        return true
    }

    /// Puts the held row at `align`, at once; when the content's end stops it short (too few rows below it yet),
    /// keeps the alignment, to land again after each answer as rows come below it.
    mutating func land(_ row: Int, _ align: ItemAlignment, offset: Double) {
        scroll.setContentSize(contentSize)
        let (y, short) = ScrollDestination.landing(of: row, align, offset: offset, scroll: scroll, rows: pager.geometry)
        scroll.scroll(to: Point(x: scroll.offset.x, y: y), animated: false)
        Jump.owe(short ? SourceRequest.Landing(align: align, animated: false, offset: offset) : nil, in: &pager)
    }
}
