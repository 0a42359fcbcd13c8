import Testing

@testable import RefreshKit

/// The simulated feed's refresh (docs/LAYOUT.md, "Anchoring"), through the same rows and layout as any source's:
/// the new rows go on top of the loaded ones and the offset moves by their height, so the row being read stays
/// where it is on screen, whether the reader is scrolled down or not.
@Suite struct SimulatedRowsOnTopTests {
    /// The id of the first row on screen, and its top's y on screen.
    static func firstVisible(_ driver: ModelDriver) -> (id: Int, y: Double) {
        let anchor = driver.model.rowLayout.anchor(at: driver.offset.y)
        let id = anchor.flatMap { $0.id }.flatMap { Int($0) } ?? 0
        return (id, screenY(driver, of: id))
    }

    static func screenY(_ driver: ModelDriver, of id: Int) -> Double {
        (driver.model.rowLayout.y(of: String(id)) ?? .nan) - driver.offset.y
    }

    /// A pull past the threshold at the top, released: the refresh runs (its answer 1.2 s later).
    static func refreshing() throws -> ModelDriver {
        var driver = try ModelDriver()
        try driver.drag(dy: 300, steps: 20, stepMs: 16, release: false)
        driver.wait(100)
        try driver.touch(.end)
        #expect(driver.state(.top) == .refreshing)
        return driver
    }

    /// Ticks until the refresh's answer has come (the feed's newest row changed), or `limitMs` passed.
    static func untilAnswered(_ driver: inout ModelDriver, limitMs: Double = 3_000) {
        let newest = driver.topID
        var waited = 0.0
        while driver.topID == newest && waited < limitMs {
            driver.wait(16)
            waited += 16
        }
    }

    @Test func theRowBeingReadStaysStillWhenTheAnswerComesUnderTheFinger() throws {
        var driver = try Self.refreshing()
        // The case: pulled, then scrolled down a few rows while it loads, the finger still down.
        try driver.drag(dy: -400, steps: 20, stepMs: 16, release: false)
        let (count, offset) = (driver.model.pager.count, driver.offset.y)
        let (id, y) = Self.firstVisible(driver)
        #expect(offset > 0)
        Self.untilAnswered(&driver)
        #expect(driver.model.pager.count == count + 3)
        #expect(abs(driver.offset.y - offset - 3 * 72) <= 1e-9, "the offset moved by the three rows on top")
        #expect(abs(Self.screenY(driver, of: id) - y) <= 1e-9, "row \(id) moved on screen")
        // The finger goes on moving the same content under it.
        try driver.touch(.move, dy: -10)
        #expect(abs(Self.screenY(driver, of: id) - (y - 10)) <= 1e-6)
        try driver.touch(.end)
    }

    @Test func theRowStaysStillMidFlingAndTheFlingGoesOnAsWithoutTheRows() throws {
        // A twin whose refresh brings no new rows: the same pull, fling and answer, nothing put on top.
        func flinging(newRows: Int) throws -> ModelDriver {
            var driver = try ModelDriver()
            var feed = ConfigurationPatch.FeedPatch()
            feed[\.newItemsPerRefresh] = newRows
            try driver.apply(.configure(ConfigurationPatch(feed: feed)))
            try driver.drag(dy: 300, steps: 20, stepMs: 16, release: false)
            driver.wait(100)
            try driver.touch(.end)
            // The answer comes about a quarter of a second into the fling.
            let due = try #require(driver.model.feedDue?.microseconds)
            driver.run(until: due - 400_000)
            try driver.drag(dy: -500, steps: 6, stepMs: 16)
            driver.run(until: due - 16_000)
            #expect(driver.model.scroll.phase == .animating)
            #expect(driver.state(.top) == .refreshing, "the answer is still to come")
            return driver
        }
        var (driver, twin) = (try flinging(newRows: 3), try flinging(newRows: 0))
        #expect(driver.offset == twin.offset)
        let id = Self.firstVisible(driver).id
        let newest = driver.topID
        for _ in 0..<20 {
            driver.wait(16)
            twin.wait(16)
            // The offset is the twin's plus the three rows' height once they are on top; the row moves on screen
            // by the fling's motion alone, and the velocity is the twin's.
            let onTop = Double(driver.topID - newest) * 72
            #expect(abs(driver.offset.y - onTop - twin.offset.y) <= 1e-6)
            #expect(abs(Self.screenY(driver, of: id) - Self.screenY(twin, of: id)) <= 1e-6, "row \(id) moved")
            #expect(abs(driver.model.scroll.velocity.y - twin.model.scroll.velocity.y) <= 1e-9)
        }
        #expect(driver.topID == newest + 3)
        #expect(driver.model.scroll.phase == .animating)
    }

    @Test func atTheTopTheRefreshPutsItsNewRowsOnTopInView() throws {
        var driver = try Self.refreshing()
        let (newest, count) = (driver.topID, driver.model.pager.count)
        Self.untilAnswered(&driver)
        driver.settle()
        #expect(driver.topID == newest + 3)
        #expect(driver.model.pager.count == count + 3)
        #expect(driver.offset.y == 0, "the new rows are in view")
    }

    @Test func aRefreshWithMoreNewRowsThanAPageStartsTheListOver() throws {
        var driver = try ModelDriver()
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.newItemsPerRefresh] = 25
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        try driver.drag(dy: -400, steps: 20, stepMs: 16, release: false)
        driver.wait(100)
        try driver.touch(.end)
        driver.settle()
        try driver.command(.refresh, edge: .top)
        driver.settle()
        #expect(driver.model.pager.count == driver.model.configuration.feed.pageSize)
    }
}
