import Testing

@testable import RefreshKit

/// External feeds placed by ``RowLayout`` (docs/LAYOUT.md, "Wiring"): `measure` inputs, the content size, and
/// the anchor held still while rows above change, at rest, during a drag and during a fling.
@Suite struct LayoutWiringTests {
    static let width = 390.0

    /// A model on an external feed (pages of 100), its first page of items 1000…901 loaded, at rest at the top.
    static func loaded() throws -> ModelDriver {
        var driver = try ModelDriver()
        var configuration = Preset.ios.configuration
        configuration.feed.pageSize = 100
        configuration.feed.timeoutMs = 60_000
        driver.model = try ListModel(
            viewport: Size(width: width, height: 700), starting: Preset(name: "external", configuration: configuration),
            feed: .external, time: Timestamp(microseconds: driver.time))
        try answer(&driver, Array((901...1000).reversed()))
        return driver
    }

    static func item(_ n: Int) -> FeedItem {
        FeedItem(id: "\(n)", text: "item \(n)", timeMicros: Int64(n) * 1_000_000)
    }

    /// Answers the running request with the items `ids` (newest first).
    static func answer(_ driver: inout ModelDriver, _ ids: [Int]) throws {
        let id = try #require(driver.model.sourceRequest?.id)
        let page = FeedPage(
            items: ids.map(item), olderCursor: ids.last.map { FeedCursor("\($0)") },
            newerCursor: ids.first.map { FeedCursor("\($0)") }, hasMore: true)
        try driver.apply(.feedAnswer(FeedAnswerInput(request: id, outcome: .page(page), durationMs: 1)))
    }

    static func measure(_ driver: inout ModelDriver, _ rows: [(Int, Double)], width: Double = width)
        throws(ListModelError)
    {
        let batch = rows.map { RowMeasurement(id: "\($0.0)", height: $0.1) }
        try driver.apply(.measure(MeasureInput(width: width, rows: batch)))
    }

    /// Where the row `id` is on screen: its top's y in the layout minus the content offset.
    static func screenY(_ driver: ModelDriver, _ id: String) throws -> Double {
        let layout = driver.model.rowLayout
        return try #require(layout.y(of: id)) - driver.model.scroll.offset.y
    }

    /// The id of the first visible row.
    static func firstVisible(_ driver: ModelDriver) throws -> String {
        let layout = driver.model.rowLayout
        return try #require(layout.anchor(at: driver.model.scroll.offset.y)?.id)
    }

    /// Starts a refresh while scrolled away from the top (its answer comes later).
    static func startRefresh(_ driver: inout ModelDriver) throws {
        try driver.command(.refresh)
        #expect(driver.model.sourceRequest?.kind == .refresh)
    }

    /// The refresh's answer: 20 new items (1020…1001) above the top item.
    static let twentyNew = Array((901...1020).reversed().prefix(100))

    // MARK: - Measurements

    @Test func measurementsSetTheContentSizeAndAreAllOrNothing() throws {
        var driver = try Self.loaded()
        #expect(driver.model.frame().contentSize.height == 100 * 72)
        try Self.measure(&driver, (991...1000).map { ($0, 100) })
        #expect(driver.model.frame().contentSize.height == 100 * 72 + 10 * 28)
        #expect(driver.model.pager.measuredHeights.count == 10)
        #expect(driver.model.pager.measuredHeights.first == RowMeasurement(id: "1000", height: 100))
        let before = driver.model
        // Stale: made at another width; ignored, counted.
        try Self.measure(&driver, [(990, 50)], width: 400)
        #expect(driver.model.pager.staleMeasurements == 1)
        #expect(driver.model.rowLayout == before.rowLayout)
        // A bad height or an unknown row: refused, naming the row, nothing changes.
        let settled = driver.model
        let refused: [[(Int, Double)]] = [
            [(990, 50), (989, 0)], [(990, 50), (5, 60)], [(990, 16_385)], [(990, .nan)],
        ]
        for rows in refused {
            do throws(ListModelError) {
                try Self.measure(&driver, rows)
                Issue.record("accepted \(rows)")
            } catch {
                let named = "row \(rows[rows.count - 1].0)"
                #expect(error.reason == .badMeasurement)
                #expect(error.message.contains(named), "\(error.message)")
            }
            #expect(driver.model == settled)
        }
    }

    @Test func theSimulatedFeedsRowsAreMeasuredLikeAnyOthers() throws {
        // The same rows and layout as an external source's: the page measures its rows, of varying heights (the
        // items' texts vary in length), and the content follows the measured heights.
        var driver = try ModelDriver(viewport: Size(width: Self.width, height: 844))
        let ids = driver.model.pager.items.map(\.id)
        #expect(ids.count == 20 && ids.first == "200")
        #expect(Set(driver.model.pager.items.map(\.text.count)).count > 3, "the texts vary in length")
        let heights = driver.model.pager.items.map { 40 + Double($0.text.count / 30) * 18 }
        let batch = zip(ids, heights).map { RowMeasurement(id: $0, height: $1) }
        try driver.apply(.measure(MeasureInput(width: Self.width, rows: batch)))
        #expect(driver.model.pager.measuredHeights == batch)
        #expect(driver.model.frame().contentSize.height == heights.reduce(0, +))
        #expect(Set(heights).count > 3)
    }

    // MARK: - Anchoring

    /// Scrolled to about row 40, at rest.
    static func scrolledToTheMiddle() throws -> ModelDriver {
        var driver = try loaded()
        try driver.apply(.command(Command(.scrollBy, animated: false, amount: 40 * 72 + 30)))
        driver.settle()
        return driver
    }

    @Test func twentyRowsOnTopKeepTheVisibleRowStillAtRest() throws {
        var driver = try Self.scrolledToTheMiddle()
        try Self.measure(&driver, (940...1000).map { ($0, 40 + Double($0 % 7) * 13.25) })
        try Self.startRefresh(&driver)
        let id = try Self.firstVisible(driver)
        let y = try Self.screenY(driver, id)
        try Self.answer(&driver, Self.twentyNew)
        #expect(driver.model.pager.lastRowsChange == .prepended(20))
        #expect(abs(try Self.screenY(driver, id) - y) <= 1e-6)
        #expect(try Self.firstVisible(driver) == id)
        #expect(driver.model.frame().contentSize.height == driver.model.rowLayout.contentHeight)
    }

    @Test func twentyRowsOnTopKeepTheVisibleRowStillMidDrag() throws {
        var driver = try Self.scrolledToTheMiddle()
        try Self.startRefresh(&driver)
        try driver.drag(dy: -120, steps: 6, release: false)
        let id = try Self.firstVisible(driver)
        let y = try Self.screenY(driver, id)
        try Self.answer(&driver, Self.twentyNew)
        #expect(abs(try Self.screenY(driver, id) - y) <= 1e-6)
        // The finger's content stays under it: the next move moves the row by the finger's movement.
        driver.wait(16)
        try driver.touch(.move, dy: -10)
        #expect(abs(try Self.screenY(driver, id) - (y - 10)) <= 1e-6)
    }

    @Test func twentyRowsOnTopKeepTheVisibleRowStillMidFlingWithItsVelocity() throws {
        var driver = try Self.scrolledToTheMiddle()
        try Self.startRefresh(&driver)
        try driver.drag(dy: -300, steps: 5, stepMs: 10)
        driver.wait(100)
        #expect(driver.model.scroll.phase == .animating)
        var twin = driver
        let id = try Self.firstVisible(driver)
        let (y, velocity) = (try Self.screenY(driver, id), driver.model.scroll.velocity.y)
        let offset = driver.model.scroll.offset.y
        try Self.answer(&driver, Self.twentyNew)
        let correction = driver.model.scroll.offset.y - offset
        #expect(abs(correction - 20 * 72) <= 1e-9)
        #expect(abs(try Self.screenY(driver, id) - y) <= 1e-6)
        #expect(driver.model.scroll.velocity.y == velocity)
        #expect(driver.model.scroll.phase == .animating)
        // The fling goes on as it would have: the same motion, moved by the correction.
        driver.wait(200)
        twin.wait(200)
        #expect(abs(driver.model.scroll.offset.y - correction - twin.model.scroll.offset.y) <= 1e-6)
        #expect(abs(driver.model.scroll.velocity.y - twin.model.scroll.velocity.y) <= 1e-6)
    }

    @Test func fiftyRowsAboveReMeasuredMidFlingKeepTheVisibleRowStill() throws {
        var driver = try Self.loaded()
        try driver.apply(.command(Command(.scrollBy, animated: false, amount: 60 * 72 + 10)))
        driver.settle()
        try driver.drag(dy: -250, steps: 5, stepMs: 10)
        driver.wait(80)
        #expect(driver.model.scroll.phase == .animating)
        var twin = driver
        let id = try Self.firstVisible(driver)
        let (y, velocity, offset) = (
            try Self.screenY(driver, id), driver.model.scroll.velocity.y, driver.model.scroll.offset.y
        )
        var rows: [(Int, Double)] = [(1000, 33.3)]
        for k in 1..<50 { rows.append((1000 - k, 30 + Double(k % 9) * 17.5)) }
        try Self.measure(&driver, rows)
        let correction = driver.model.scroll.offset.y - offset
        var grown = 0.0
        for row in rows { grown += row.1 - 72 }
        #expect(abs(correction - grown) <= 1e-6)
        #expect(abs(try Self.screenY(driver, id) - y) <= 1e-6)
        #expect(driver.model.scroll.velocity.y == velocity)
        driver.wait(150)
        twin.wait(150)
        #expect(abs(driver.model.scroll.offset.y - correction - twin.model.scroll.offset.y) <= 1e-6)
    }

    @Test func atTheTopARefreshShowsItsRowsOnTop() throws {
        var driver = try Self.loaded()
        let offset = driver.model.scroll.offset.y
        #expect(offset <= 0)
        try driver.command(.refresh)
        driver.settle(limitMs: 500)
        try Self.answer(&driver, Self.twentyNew)
        driver.settle()
        #expect(try Self.firstVisible(driver) == "1020")
        #expect(driver.model.scroll.offset.y <= 0)
        #expect(driver.model.frame().contentSize.height == 120 * 72)
    }

    @Test func theEndOfMeasuredRowsIsWhereTheFooterLoadsMore() throws {
        var driver = try Self.loaded()
        try Self.measure(&driver, (901...1000).map { ($0, 30) })
        #expect(driver.model.frame().contentSize.height == 3_000)
        #expect(driver.model.scroll.bounds(.vertical).upper == 3_000 - 700 + driver.model.scroll.insets.combined.bottom)
        try driver.command(.scrollToEdge, edge: .bottom)
        driver.settle()
        try driver.drag(dy: -200, steps: 10)
        driver.settle(limitMs: 2_000)
        #expect(driver.model.sourceRequest?.kind == .nextPage)
    }

    @Test func loadMoreAppendsRowsBelowWithoutMovingTheVisibleRow() throws {
        var driver = try Self.scrolledToTheMiddle()
        let id = try Self.firstVisible(driver)
        let y = try Self.screenY(driver, id)
        try driver.command(.loadMore)
        try Self.answer(&driver, Array((801...900).reversed()))
        #expect(driver.model.pager.lastRowsChange == .appended(100))
        #expect(try Self.screenY(driver, id) == y)
        #expect(driver.model.rowLayout.rowCount == 200)
    }
}
