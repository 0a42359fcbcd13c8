import Foundation
import Testing

@testable import RefreshKit

/// The window of pages wired (docs/LAYOUT.md, "The window"): a session on an external feed holds the pages
/// around its viewport, drops far ones and loads them back when scrolled to, with its memory bounded however far
/// it scrolls, the first visible row kept still through every drop.
@Suite struct WindowWiringTests {
    /// A model on an external feed answered at once by a ``WindowSource``, driven as a server would.
    struct Driver {
        var model: ListModel
        var time: Int64 = 1_000_000
        var source: WindowSource
        var updates: [RowsUpdate] = []
        var resynchronized = 0

        init(
            newest: Int, pageSize: Int = 50, viewport: Size = Size(width: 390, height: 844), flingPrefetch: Bool = true
        ) throws {
            var configuration = Preset.ios.configuration
            configuration.feed.pageSize = pageSize
            configuration.flingPrefetch = flingPrefetch
            configuration.feed.timeoutMs = 60_000
            model = try ListModel(
                viewport: viewport, starting: Preset(name: "external", configuration: configuration), feed: .external,
                time: Timestamp(microseconds: time))
            source = WindowSource(newest: newest)
            try serve()
        }

        var now: Timestamp { Timestamp(microseconds: time) }
        var layout: RowLayout { model.rowLayout }
        var heldRows: Int { layout.heldRowCount }

        mutating func drain() {
            _ = model.takeEvents()
            if let taken = model.takeRowsUpdates() { updates += taken } else { resynchronized += 1 }
        }

        mutating func apply(_ input: Input) throws {
            try model.apply(input, at: now)
            drain()
        }

        /// Answers every request the model makes, at once, until none runs.
        mutating func serve() throws {
            var answered = 0
            while let answer = source.answer(model) {
                try apply(.feedAnswer(answer))
                answered += 1
                #expect(answered < 50, "the window keeps asking")
                if answered >= 50 { return }
            }
        }

        mutating func wait(_ milliseconds: Double) {
            time += Int64(milliseconds * 1000)
            model.advance(to: now)
            drain()
        }

        /// Scrolls by `distance` px at once, answers what it asks, and loads more at the end of the list.
        mutating func scroll(by distance: Double) throws {
            try apply(.command(Command(.scrollBy, animated: false, amount: distance)))
            try serve()
            if model.sourceRequest == nil, model.pager.mayLoadMore,
                model.scroll.offset.y + model.viewport.height >= layout.contentHeight - model.viewport.height
            {
                try apply(.command(Command(.loadMore, edge: .bottom, animated: false)))
                try serve()
            }
            wait(400)
            try serve()
        }

        /// Every held row is the item of its place: row r shows item `newest − r` (no item deleted).
        func rowsInPlace() -> Bool {
            let first = layout.placeholdersAbove
            return (first..<first + heldRows).allSatisfy { layout.id(ofRow: $0) == "\(source.newest - $0)" }
        }

        func encodedSize() throws -> Int { try JSONEncoder().encode(model).count }
    }

    @Test func scrollingAHundredThousandItemsToTheEndAndBackHoldsABoundedWindow() throws {
        var driver = try Driver(newest: 100_000, pageSize: 20)
        // Pages of 20 rows of 72 px on a phone: a prefetch of 298 px, two pages held (docs/LAYOUT.md).
        let maxHeld = driver.layout.maxHeldRows
        #expect(maxHeld == 40)
        let afterFirstPage = try driver.encodedSize()
        var windowFull: Int?
        var (largest, mostHeld, steps) = (0, 0, 0)
        func sample(_ driver: Driver) throws {
            mostHeld = max(mostHeld, driver.heldRows)
            if steps % 25 == 0 {
                let size = try driver.encodedSize()
                largest = max(largest, size)
                if windowFull == nil, driver.layout.placeholdersAbove > 0 { windowFull = size }
                #expect(driver.rowsInPlace())
            }
            steps += 1
        }
        // Down to the end.
        while driver.model.pager.hasMore || driver.layout.placeholdersBelow > 0
            || driver.model.scroll.offset.y < driver.model.scroll.bounds(.vertical).upper - 1
        {
            try driver.scroll(by: 2_500)
            try sample(driver)
            if steps > 20_000 { break }
        }
        #expect(driver.layout.rowCount == 100_000)
        #expect(driver.model.frame().feed.count == 100_000)
        #expect(driver.layout.id(ofRow: 99_999) == "1")
        #expect(driver.layout.placeholdersAbove > 99_000)
        // And back to the top.
        while driver.layout.placeholdersAbove > 0 || driver.model.scroll.offset.y > 0 {
            try driver.scroll(by: -2_500)
            try sample(driver)
            if steps > 40_000 { break }
        }
        #expect(driver.layout.placeholdersAbove == 0)
        #expect(driver.layout.placeholdersBelow > 99_000)
        #expect(driver.rowsInPlace())
        #expect(driver.model.pager.items.prefix(20).map(\.id) == (99_981...100_000).reversed().map { "\($0)" })
        #expect(driver.resynchronized == 0)
        // Memory: at most a window and a page of rows; the engine's state within 2× of the first page's.
        #expect(mostHeld <= maxHeld + 20)
        let full = try #require(windowFull)
        #expect(largest <= 2 * afterFirstPage)
        #expect(largest <= full + full / 10)
        print("window: first page \(afterFirstPage) B, window full \(full) B, largest \(largest) B, held ≤ \(mostHeld)")
        // Every drop and reload was sent as a rows update.
        let drops = driver.updates.filter { if case .dropped = $0.change { true } else { false } }.count
        let reloads = driver.updates.filter { if case .reloaded = $0.change { true } else { false } }.count
        #expect(drops > 1_000 && reloads > 1_000)
    }

    /// The pages the window holds with pages of 50 on a phone (a prefetch of one screen; two pages).
    static let windowPages = WindowSize(pageSize: 50, estimatedHeight: 72, viewportHeight: 844).pages

    /// A model with `pages` pages of 50 loaded, its top page measured at 100 px a row, scrolled near the end.
    static func fullWindow(pages: Int = windowPages, flingPrefetch: Bool = true) throws -> Driver {
        var driver = try Driver(newest: 10_000, flingPrefetch: flingPrefetch)
        try driver.apply(
            .measure(
                MeasureInput(
                    width: 390,
                    rows: (0..<50).map {
                        RowMeasurement(id: "\(10_000 - $0)", height: 100)
                    })))
        var tries = 0
        while driver.layout.rowCount < pages * 50, tries < 10 * pages {
            try driver.apply(.command(Command(.scrollToEdge, edge: .bottom, animated: false)))
            try driver.apply(.command(Command(.loadMore, edge: .bottom, animated: false)))
            try driver.serve()
            driver.wait(400)
            tries += 1
        }
        #expect(driver.layout.rowCount == pages * 50)
        if pages <= windowPages {
            #expect(driver.heldRows == pages * 50)
            #expect(driver.layout.placeholdersAbove == 0)
        }
        return driver
    }

    /// The first visible row's id and its screen y.
    static func anchor(_ driver: Driver) throws -> (String, Double) {
        let layout = driver.layout
        let id = try #require(layout.anchor(at: driver.model.scroll.offset.y)?.id)
        return (id, try #require(layout.y(of: id)) - driver.model.scroll.offset.y)
    }

    @Test func aDropMidFlingKeepsTheFirstVisibleRowStillAndTheVelocity() throws {
        var driver = try Self.fullWindow()
        // Far enough down that the top page is the one farther from the viewport once the next page comes, and
        // far enough from the end that the fling (and its twin's, without that page) does not reach it.
        try driver.apply(.command(Command(.scrollToEdge, edge: .bottom, animated: false)))
        try driver.apply(.command(Command(.scrollBy, animated: false, amount: -1_500)))
        driver.wait(400)
        try driver.apply(.command(Command(.loadMore, edge: .bottom, animated: false)))
        let pending = try #require(driver.source.answer(driver.model))
        try driver.apply(.touch(TouchInput(phase: .start, pageTime: Double(driver.time) / 1000)))
        for _ in 0..<5 {
            driver.wait(10)
            try driver.apply(
                .touch(TouchInput(phase: .move, delta: Point(x: 0, y: -60), pageTime: Double(driver.time) / 1000)))
        }
        try driver.apply(.touch(TouchInput(phase: .end, pageTime: Double(driver.time) / 1000)))
        driver.wait(50)
        #expect(driver.model.scroll.phase == .animating)
        var twin = driver
        let (id, y) = try Self.anchor(driver)
        let (velocity, offset) = (driver.model.scroll.velocity.y, driver.model.scroll.offset.y)
        try driver.apply(.feedAnswer(pending))
        // The top page (50 rows measured at 100 px) went out of the window: 50 × 28 px less above the row.
        #expect(driver.layout.placeholdersAbove == 50)
        #expect(driver.updates.last?.change == .dropped(.above, count: 50))
        let correction = driver.model.scroll.offset.y - offset
        #expect(abs(correction + 50 * 28) <= 1e-9)
        let (after, afterY) = try Self.anchor(driver)
        #expect(after == id)
        #expect(abs(afterY - y) <= 1)
        #expect(driver.model.scroll.velocity.y == velocity)
        driver.wait(100)
        twin.wait(100)
        #expect(abs(driver.model.scroll.offset.y - correction - twin.model.scroll.offset.y) <= 1e-6)
    }

    /// A fling up into the placeholders above (docs/LAYOUT.md, "Where a fling stops"): at the release the window asks
    /// for the rows from the held ones to where the fling comes to rest, in one request (without `flingPrefetch`,
    /// nothing until placeholders come near the viewport), and once it is answered the fling ends on loaded rows.
    @Test(arguments: [true, false])
    func aFlingAsksAtItsReleaseForTheRowsWhereItStops(prefetch: Bool) throws {
        var driver = try Self.fullWindow(pages: Self.windowPages + 4, flingPrefetch: prefetch)
        try driver.apply(.command(Command(.scrollToEdge, edge: .bottom, animated: false)))
        try driver.serve()
        driver.wait(400)
        try driver.serve()
        #expect(driver.layout.placeholdersAbove >= 150)
        try driver.apply(.touch(TouchInput(phase: .start, pageTime: Double(driver.time) / 1000)))
        for _ in 0..<5 {
            driver.wait(8)
            try driver.apply(
                .touch(TouchInput(phase: .move, delta: Point(x: 0, y: 120), pageTime: Double(driver.time) / 1000)))
        }
        try driver.apply(.touch(TouchInput(phase: .end, pageTime: Double(driver.time) / 1000)))
        #expect(driver.model.scroll.phase == .animating)
        let rest = try #require(driver.model.scroll.verticalMotion.last?.target)
        let layout = driver.layout
        let size = WindowSize(pageSize: 50, estimatedHeight: 72, viewportHeight: 844)
        #expect(driver.model.scroll.offset.y - size.prefetch > layout.heldTop, "no placeholder near the viewport yet")
        let needed = layout.placeholdersAbove - (layout.row(at: rest - size.prefetch) ?? 0)
        #expect(needed > 0, "the fling goes into the placeholders: \(driver.model.scroll.offset.y) → \(rest)")
        guard prefetch else {
            #expect(
                driver.model.sourceRequest == nil, "without the prefetch, nothing is asked before placeholders near")
            return
        }
        let request = try #require(driver.model.sourceRequest)
        #expect(request.kind == .reload && request.edge == .top)
        #expect(request.request.limit == max(50, min(needed + 50, 2 * size.heldRows)))
        // that one answer, and the fling runs its course to loaded rows without asking again
        try driver.apply(.feedAnswer(try #require(driver.source.answer(driver.model))))
        while driver.model.scroll.phase == .animating {
            driver.wait(16)
            #expect(driver.model.sourceRequest == nil)
        }
        let top = try #require(driver.layout.row(at: driver.model.scroll.offset.y))
        #expect(top >= driver.layout.placeholdersAbove, "the row at the top is loaded when the fling stops")
    }

    @Test func aDropMidDragKeepsTheRowUnderTheFinger() throws {
        var driver = try Self.fullWindow()
        // At the end of the list, so the page on top is the one farther from the viewport once the next comes.
        try driver.apply(.command(Command(.scrollToEdge, edge: .bottom, animated: false)))
        driver.wait(400)
        try driver.apply(.command(Command(.loadMore, edge: .bottom, animated: false)))
        let pending = try #require(driver.source.answer(driver.model))
        try driver.apply(.touch(TouchInput(phase: .start, pageTime: Double(driver.time) / 1000)))
        for _ in 0..<5 {
            driver.wait(10)
            try driver.apply(
                .touch(TouchInput(phase: .move, delta: Point(x: 0, y: 60), pageTime: Double(driver.time) / 1000)))
        }
        #expect(driver.model.scroll.phase == .dragging)
        #expect(driver.model.sourceRequest?.id == pending.request)
        let (id, y) = try Self.anchor(driver)
        try driver.apply(.feedAnswer(pending))
        #expect(driver.layout.placeholdersAbove == 50)
        let (after, afterY) = try Self.anchor(driver)
        #expect(after == id && abs(afterY - y) <= 1)
        driver.wait(16)
        try driver.apply(
            .touch(TouchInput(phase: .move, delta: Point(x: 0, y: -10), pageTime: Double(driver.time) / 1000)))
        #expect(abs(try Self.anchor(driver).1 - (y - 10)) <= 1)
    }

    @Test func aPageThatComesBackShorterRemovesThePlaceholdersLeft() throws {
        // Scroll down far enough that the first pages are dropped, delete items of the first page at the source,
        // then scroll back: the page fills what it can, the rows it lacks are removed on top, nothing breaks.
        var driver = try Self.fullWindow(pages: 8)
        #expect(driver.layout.placeholdersAbove >= 50)
        for n in 9_981...10_000 { driver.source.deleted.insert(n) }
        while driver.layout.placeholdersAbove > 0 || driver.model.scroll.offset.y > 0 {
            try driver.scroll(by: -2_500)
        }
        #expect(driver.layout.rowCount == driver.model.frame().feed.count)
        #expect(driver.model.pager.items.first?.id == "9980")
        #expect(driver.layout.id(ofRow: 0) == "9980")
        let removed = driver.updates.compactMap { update -> Int? in
            if case .reloaded(.above, _, let removed) = update.change, removed > 0 { return removed }
            return nil
        }
        #expect(removed == [20])
        #expect(driver.model.pager.topItem?.id == "9980")
    }

    /// A measurement on its way while the window dropped its row's page is stale: that row is ignored and the batch
    /// counted, the rest applied. With every row held, an unknown row is still refused.
    @Test func aMeasurementOfARowDroppedMeanwhileIsStale() throws {
        var whole = try Driver(newest: 10_000)
        #expect(whole.layout.placeholdersAbove + whole.layout.placeholdersBelow == 0)
        #expect(throws: ListModelError.self) {
            try whole.apply(.measure(MeasureInput(width: 390, rows: [RowMeasurement(id: "nope", height: 90)])))
        }
        var driver = try Self.fullWindow(pages: 8)
        let first = driver.layout.placeholdersAbove
        #expect(first >= 50, "the top page is dropped")
        let held = try #require(driver.layout.id(ofRow: first))
        let stale = driver.model.pager.staleMeasurements
        try driver.apply(
            .measure(
                MeasureInput(
                    width: 390, rows: [RowMeasurement(id: "10000", height: 90), RowMeasurement(id: held, height: 90)])))
        #expect(driver.model.pager.staleMeasurements == stale + 1)
        #expect(driver.layout.height(ofRow: first) == 90)
    }

    /// A refresh while the list's top page is dropped (scrolled far down; another device's pull, or "N new"): the
    /// new items above the list's first item become placeholders above, the row being read keeps still, and they
    /// load when scrolled to: the list does not start over.
    @Test func aRefreshWhileTheTopIsDroppedPutsPlaceholdersOnTopAndKeepsTheRowStill() throws {
        var driver = try Self.fullWindow(pages: 7)
        try driver.scroll(by: 0)
        let droppedAbove = driver.layout.placeholdersAbove
        #expect(droppedAbove >= 50, "the top page is dropped")
        let (id, y) = try Self.anchor(driver)
        let held = driver.layout.heldIDs
        driver.source.newest += 7
        try driver.apply(.command(Command(.refresh, edge: .top, animated: false)))
        try driver.serve()
        #expect(driver.layout.placeholdersAbove == droppedAbove + 7)
        #expect(driver.layout.heldIDs == held, "the held rows stay")
        let (after, afterY) = try Self.anchor(driver)
        #expect(after == id && abs(afterY - y) <= 1e-6)
        guard case .replaced(_, let above, _) = driver.updates.last?.change else {
            Issue.record("the pages are told the new placeholders: \(String(describing: driver.updates.last))")
            return
        }
        #expect(above == droppedAbove + 7)
        #expect(driver.model.pager.topItem?.id == "\(driver.source.newest)")
        // Scrolled back to the top, the new items are there, in place.
        while driver.layout.placeholdersAbove > 0 || driver.model.scroll.offset.y > 0 {
            try driver.scroll(by: -2_000)
        }
        #expect(driver.rowsInPlace())
        #expect(driver.layout.id(ofRow: 0) == "\(driver.source.newest)")
    }

    /// More new items than a page while the top is dropped: the page does not reach the list's first item, so
    /// the list starts over from the newest page, as a refresh whose page does not reach the top item does.
    @Test func aRefreshWhoseNewItemsDoNotReachTheDroppedTopStartsOver() throws {
        var driver = try Self.fullWindow(pages: 7)
        try driver.scroll(by: 0)
        #expect(driver.layout.placeholdersAbove >= 50)
        driver.source.newest += 200
        try driver.apply(.command(Command(.refresh, edge: .top, animated: false)))
        try driver.serve()
        #expect(driver.layout.placeholdersAbove == 0)
        #expect(driver.layout.id(ofRow: 0) == "\(driver.source.newest)")
    }

    /// The window is counted in pages: a page size configured later resizes it, so pages of the new size are held
    /// (a window left at the first page size would drop every new page at once, and load-more would wait for it).
    @Test func aNewPageSizeResizesTheWindow() throws {
        var driver = try Driver(newest: 10_000, pageSize: 20)
        #expect(driver.layout.maxHeldRows == 40)
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.pageSize] = 200
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        #expect(
            driver.layout.maxHeldRows == WindowSize(pageSize: 200, estimatedHeight: 72, viewportHeight: 844).heldRows)
        #expect(driver.layout.maxHeldRows == 400)
        try driver.apply(.command(Command(.loadMore, edge: .bottom, animated: false)))
        try driver.serve()
        #expect(driver.heldRows == 220 && driver.layout.placeholdersBelow == 0)
    }

    /// Scrolling to the top from far down, with pages loaded back and measured on the way (their rows change
    /// height above the viewport), ends at the top: the command aims at the edge, not at a row, so the anchor's
    /// corrections move the offset on the way but not where it goes.
    @Test func scrollingToTheTopEndsAtTheTopWhileRowsAboveChangeOnTheWay() throws {
        var driver = try Self.fullWindow(pages: 7)
        try driver.scroll(by: 0)
        #expect(driver.layout.placeholdersAbove > 0)
        try driver.apply(.command(Command(.scrollToEdge, edge: .top, animated: true)))
        var corrected = false
        for _ in 0..<600 where driver.model.scroll.phase == .animating {
            driver.wait(16)
            try driver.serve()
            let layout = driver.layout
            let first = layout.placeholdersAbove
            let fresh = (first..<first + layout.heldRowCount).filter { !layout.isMeasured(row: $0) }.prefix(256)
            guard !fresh.isEmpty else { continue }
            let before = driver.model.scroll.offset.y
            try driver.apply(
                .measure(
                    MeasureInput(
                        width: 390, rows: fresh.map { RowMeasurement(id: layout.id(ofRow: $0)!, height: 100) })))
            corrected = corrected || driver.model.scroll.offset.y != before
        }
        #expect(corrected, "rows above changed height on the way")
        #expect(driver.model.scroll.phase == .idle)
        #expect(driver.model.scroll.offset.y == driver.model.scroll.bounds(.vertical).lower)
        #expect(driver.layout.placeholdersAbove == 0)
    }
}
