import Testing

@testable import RefreshKit

/// A new estimate (`configure` of `feed.rowHeight`) on an external feed: the rows not measured take it, and the
/// first visible row stays still on screen (docs/LAYOUT.md, "Wiring"), at rest and mid-fling, the fling's
/// velocity untouched.
@Suite struct EstimateAnchoringTests {
    static func configure(_ driver: inout ModelDriver, rowHeight: Double) throws {
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.rowHeight] = rowHeight
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
    }

    /// Scrolled to about row 40, rows 981…1000 measured, then 20 new rows (not measured) on top.
    static func withNewRowsOnTop() throws -> ModelDriver {
        var driver = try LayoutWiringTests.scrolledToTheMiddle()
        try LayoutWiringTests.measure(&driver, (981...1000).map { ($0, 50.5) })
        try LayoutWiringTests.startRefresh(&driver)
        try LayoutWiringTests.answer(&driver, LayoutWiringTests.twentyNew)
        #expect(driver.model.pager.lastRowsChange == .prepended(20))
        return driver
    }

    @Test func aNewEstimateKeepsTheVisibleRowStillAtRest() throws {
        var driver = try Self.withNewRowsOnTop()
        driver.settle(limitMs: 2_000)
        let id = try LayoutWiringTests.firstVisible(driver)
        let y = try LayoutWiringTests.screenY(driver, id)
        let above = try #require(driver.model.rowLayout.row(of: id))
        try Self.configure(&driver, rowHeight: 96)
        let moved = try LayoutWiringTests.screenY(driver, id) - y
        #expect(abs(moved) <= 1e-6, "row \(id) moved \(moved) px on screen")
        #expect(try LayoutWiringTests.firstVisible(driver) == id)
        // The rows above not measured grew by 24 px each; the 20 measured ones kept their heights.
        let layout = driver.model.rowLayout
        #expect(layout.height(ofRow: 0) == 96)
        #expect(layout.height(ofRow: try #require(layout.row(of: "990"))) == 50.5)
        #expect(driver.model.frame().contentSize.height == layout.contentHeight)
        #expect(above == layout.row(of: id))
    }

    @Test func aNewEstimateKeepsTheVisibleRowStillMidFlingWithItsVelocity() throws {
        var driver = try Self.withNewRowsOnTop()
        try driver.drag(dy: -300, steps: 5, stepMs: 10)
        driver.wait(100)
        #expect(driver.model.scroll.phase == .animating)
        var twin = driver
        let id = try LayoutWiringTests.firstVisible(driver)
        let (y, velocity, offset) = (
            try LayoutWiringTests.screenY(driver, id), driver.model.scroll.velocity.y, driver.model.scroll.offset.y
        )
        try Self.configure(&driver, rowHeight: 60)
        let correction = driver.model.scroll.offset.y - offset
        #expect(correction < 0)
        let moved = try LayoutWiringTests.screenY(driver, id) - y
        #expect(abs(moved) <= 1e-6, "row \(id) moved \(moved) px on screen")
        #expect(driver.model.scroll.velocity.y == velocity)
        #expect(driver.model.scroll.phase == .animating)
        driver.wait(200)
        twin.wait(200)
        #expect(abs(driver.model.scroll.offset.y - correction - twin.model.scroll.offset.y) <= 1e-6)
    }

    @Test func theSameEstimateChangesNothing() throws {
        var driver = try Self.withNewRowsOnTop()
        driver.settle(limitMs: 2_000)
        let before = driver.model.scroll.offset
        try Self.configure(&driver, rowHeight: driver.model.configuration.feed.rowHeight)
        #expect(driver.model.scroll.offset == before)
    }
}
