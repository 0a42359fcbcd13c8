import Testing

@testable import RefreshKit

/// IQPullToRefresh's load more (the `iq` preset's footer: `onReachEdge`, `fling: ignore`) looks at the content
/// when a drag changes its offset (docs/SEEDS.md §5.3): a finger that lands without moving it loads nothing, a
/// drag up at the end loads, and on a list shorter than the viewport a drag down pulls the top instead.
@Suite struct ReachEdgeTests {
    /// The `iq` preset on a list of `pageSize` rows of 72 px, 100 rows in all.
    static func driver(pageSize: Int) throws -> ModelDriver {
        var driver = try ModelDriver(preset: "iq")
        var feed = ConfigurationPatch.FeedPatch()
        (feed[\.pageSize], feed[\.totalItems], feed[\.latencyMs]) = (pageSize, 100, 300)
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        driver.settle()
        driver.clearLog()
        return driver
    }

    func starts(_ driver: ModelDriver) -> Int {
        driver.events.filter { $0.name == .didStart && $0.edge == .bottom }.count
    }

    @Test func onAShortListADragDownLoadsNothing() throws {
        var driver = try Self.driver(pageSize: 5)  // 360 px on 844: the rest is the end
        try driver.drag(dy: 30, steps: 4)
        driver.settle()
        #expect(starts(driver) == 0)
        #expect(driver.transitions(.top).starts(with: ["idle→pulling"]))
    }

    @Test func onAShortListADragUpLoadsMore() throws {
        var driver = try Self.driver(pageSize: 5)
        try driver.drag(dy: -1, steps: 1)
        #expect(starts(driver) == 1)
        #expect(driver.events.first { $0.name == .didStart }?.cause == .reachEdge)
    }

    @Test func aFingerThatLandsAtTheEndLoadsOnlyOnceItMovesTheContent() throws {
        var driver = try Self.driver(pageSize: 20)
        try driver.command(.scrollToEdge, edge: .bottom, animated: false)
        driver.settle()
        try driver.touch(.start)
        driver.wait(100)
        #expect(starts(driver) == 0)
        try driver.touch(.move, dy: -1)
        #expect(starts(driver) == 1)
        try driver.touch(.end)
    }

    /// A footer that starts whatever brings it into view (`fling: trigger`, the `ios` preset's) still starts at
    /// rest on a short list.
    @Test func anAutoFooterStillLoadsAShortListAtRest() throws {
        var driver = try ModelDriver(preset: "ios")
        var feed = ConfigurationPatch.FeedPatch()
        (feed[\.pageSize], feed[\.totalItems]) = (5, 100)
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        #expect(driver.events.contains { $0.name == .didStart && $0.edge == .bottom })
    }
}
