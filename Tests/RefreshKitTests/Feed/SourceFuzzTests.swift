import Testing

@testable import RefreshKit

/// Random sessions on an external feed: commands, gestures' ends by time, and every kind of answer (a good
/// page, a failure, a repeated id, items out of order, an answer to another request, none at all), with the
/// rules checked after every step, and the same seed giving the same model.
@Suite struct SourceFuzzTests {
    /// A feed of `total` items (item `n` published at `n` s); pages newest first.
    static func page(for request: SourceRequest, total: Int) -> FeedPage {
        let top: Int
        var above: Int?
        switch request.request.position {
        case .newest, .newerThan: top = total
        case .olderThan(let cursor): top = (Int(cursor.value) ?? 1) - 1
        case .around(let id):  // the item with about half a page above it (a jump: docs/LAYOUT.md, "A jump")
            top = min(total, (Int(id) ?? total) + (request.request.limit - 1) / 2)
            above = total - top
        }
        let ids = Array(stride(from: top, to: max(0, top - request.request.limit), by: -1))
        return FeedPage(
            items: ids.map(SourcePagerTests.item), olderCursor: ids.last.map { FeedCursor("\($0)") },
            newerCursor: ids.first.map { FeedCursor("\($0)") }, hasMore: (ids.last ?? 1) > 1, above: above)
    }

    static func run(seed: UInt64, steps: Int) throws -> (ListModel, [String]) {
        var g = SeededGenerator(seed: seed)
        var configuration = Preset.ios.configuration
        configuration.feed.pageSize = 1 + Int(g.next() % 8)
        configuration.feed.timeoutMs = 500
        var time = Timestamp(microseconds: 1_000_000)
        var model = try ListModel(
            viewport: Size(width: 390, height: 300), starting: Preset(name: "fuzz", configuration: configuration),
            feed: .external, time: time)
        var total = 30
        var problems: [String] = []
        for step in 0..<steps {
            time = time.advanced(bySeconds: Double(g.next() % 400) / 1000)
            let roll = g.next() % 13
            switch roll {
            case 12:  // scrollToItem to any item, loaded or not (a jump), at any alignment
                let item = ItemTarget.id("\(1 + Int(g.next() % UInt64(total)))")
                let align = ItemAlignment.allCases[Int(g.next() % 3)]
                try? model.apply(.command(Command(.scrollToItem, animated: false, item: item, align: align)), at: time)
            case 0: try model.apply(.command(Command(.refresh, edge: .top)), at: time)
            case 1: try model.apply(.command(Command(.loadMore)), at: time)
            case 2: try model.apply(.command(Command(.retry)), at: time)
            case 3:
                let edge: Edge = g.next() % 2 == 0 ? .top : .bottom
                try model.apply(.command(Command(.scrollToEdge, edge: edge, animated: g.next() % 2 == 0)), at: time)
            case 4: total += Int(g.next() % 5)
            default:
                guard let request = model.sourceRequest else {
                    model.advance(to: time)
                    break
                }
                var page = page(for: request, total: total)
                // Sections of five items, and items 20…24 in none (docs/LAYOUT.md, "Section headers").
                for index in page.items.indices {
                    let n = Int(page.items[index].id) ?? 0
                    page.items[index].section = n / 5 == 4 ? nil : "S\(n / 5)"
                }
                let outcome: FeedOutcome
                switch roll {
                case 5: outcome = .failure(FeedFailure(.unavailable("fuzz")))
                case 6 where !page.items.isEmpty:  // an item already loaded, or repeated
                    page.items[page.items.count - 1].id = model.pager.items.first?.id ?? page.items[0].id
                    outcome = .page(page)
                case 7 where page.items.count > 1:  // out of order
                    page.items.swapAt(0, page.items.count - 1)
                    outcome = .page(page)
                default: outcome = .page(page)
                }
                let id = roll == 8 ? request.id + 1 : request.id  // an answer to another request
                try model.apply(.feedAnswer(FeedAnswerInput(request: id, outcome: outcome)), at: time)
            }
            _ = model.takeEvents()
            let frame = model.frame()
            let ids = model.pager.items.map(\.id)
            // (The items keep the order the source gave: a page out of order is taken as it comes.)
            if Set(ids).count != ids.count { problems.append("step \(step): repeated ids \(ids)") }
            // The window of pages (docs/LAYOUT.md): the held rows are the items; the rows count the placeholders.
            let layout = model.rowLayout
            if layout.heldIDs != ids { problems.append("step \(step): held rows \(layout.heldIDs) for items \(ids)") }
            if frame.feed.count != layout.rowCount { problems.append("step \(step): feed.count \(frame.feed.count)") }
            if frame.contentSize.height != Double(layout.rowCount) * configuration.feed.rowHeight {
                problems.append("step \(step): content height \(frame.contentSize.height) for \(layout.rowCount) rows")
            }
            if let request = model.sourceRequest, request.deadline < model.now {
                problems.append("step \(step): request \(request.id) past its deadline")
            }
            if frame.feed.loading != (model.sourceRequest != nil) { problems.append("step \(step): loading") }
            // The pinned header: the section of the row under the line, between a header's height above the top
            // inset and the inset (unless the list is pulled past its top).
            let line = frame.offset.y + frame.insets.top
            let section = layout.row(at: line).flatMap(layout.id(ofRow:)).flatMap { id in
                model.pager.items.first { $0.id == id }?.section
            }
            if frame.pinned?.section != section {
                problems.append(
                    "step \(step): pinned \(String(describing: frame.pinned)), the line's section \(section ?? "none")")
            }
            if let pinned = frame.pinned, line >= 0,
                !(frame.insets.top - configuration.feed.sectionHeaderHeight..<frame.insets.top + 1e-9 ~= pinned.y)
            {
                problems.append("step \(step): pinned at \(pinned.y) under an inset of \(frame.insets.top)")
            }
        }
        return (model, problems)
    }

    @Test(arguments: 1...24) func randomAnswersKeepTheRules(seed: UInt64) throws {
        let (model, problems) = try Self.run(seed: seed, steps: 300)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(model.pager.answeredRequests.total > 10)
        let (again, _) = try Self.run(seed: seed, steps: 300)
        #expect(again == model)
    }
}
