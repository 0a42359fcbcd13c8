import Testing

@testable import RefreshKit

/// A pull-to-refresh on the top edge, end to end through the model.
@Suite struct TopRefreshTests {
    /// The default preset with the refresh started on release (as MJRefresh, MS, HT, JH and IQ do), so
    /// the armed state can be held and observed.
    func releaseDriver() throws -> ModelDriver {
        var driver = try ModelDriver()
        var patch = ConfigurationPatch.EdgePatch()
        patch[\.trigger] = .onRelease
        try driver.apply(.configure(ConfigurationPatch(edges: [.top: patch])))
        driver.clearLog()
        return driver
    }

    @Test func aPullPastTheThresholdRefreshesAndDeliversNewRowsOnTop() throws {
        var driver = try releaseDriver()
        let newestBefore = driver.topID
        // 206.26 px of finger travel reach the 100 px trigger on an 844 px viewport (docs/PHYSICS.md §9 row 35).
        try driver.drag(dy: 300, steps: 20, stepMs: 16, release: false)
        #expect(driver.state(.top) == .armed)
        driver.wait(100)  // the finger rests, so the lift carries no fling
        try driver.touch(.end)
        #expect(driver.state(.top) == .refreshing)
        driver.wait(600)
        #expect(abs(driver.offset.y - -60) < 1e-9)  // rests on the 60 px resting inset
        driver.settle()
        #expect(driver.state(.top) == .idle)
        #expect(driver.offset.y == 0)
        #expect(driver.topID == newestBefore + 3)
        #expect(
            driver.transitions(.top) == [
                "idle→pulling", "pulling→armed", "armed→refreshing", "refreshing→finishing", "finishing→idle",
            ])
        #expect(
            driver.names(.top).filter { $0 != .cycleStarted && $0 != .cycleEnded } == [
                .armed, .willStart, .didStart, .feedLoaded, .willEnd, .didEnd,
            ])
    }

    @Test func aPullShortOfTheThresholdSpringsBackWithoutRefreshing() throws {
        var driver = try releaseDriver()
        try driver.drag(dy: 150, steps: 10)
        driver.settle()
        #expect(driver.transitions(.top) == ["idle→pulling", "pulling→idle"])
        #expect(driver.offset.y == 0)
        #expect(!driver.events.contains { $0.name == .didStart })
    }

    @Test func goingBackBelowTheThresholdDisarms() throws {
        var driver = try releaseDriver()
        try driver.drag(dy: 300, steps: 10, release: false)
        try driver.drag(dy: -200, steps: 10, release: false)
        #expect(driver.state(.top) == .pulling)
        #expect(driver.names(.top) == [.armed, .disarmed])
        driver.wait(100)
        try driver.touch(.end)
        driver.settle()
        #expect(!driver.events.contains { $0.name == .didStart })
    }

    @Test func strictAndInclusiveThresholdsDifferExactlyAtTheTrigger() throws {
        for (strictness, armed) in [(EdgeConfiguration.Strictness.inclusive, true), (.strict, false)] {
            var driver = try releaseDriver()
            try driver.drag(dy: 180, steps: 1, release: false)
            // Put the trigger exactly where the finger holds the content.
            var patch = ConfigurationPatch.EdgePatch()
            patch[\.strictness] = strictness
            patch[\.trigger] = .onRelease
            patch[\.triggerDistance] = driver.model.control(.top).distance
            try driver.apply(.configure(ConfigurationPatch(edges: [.top: patch])))
            #expect((driver.state(.top) == .armed) == armed, "\(strictness)")
        }
    }

    @Test func whileDraggingStartsWithTheFingerStillDown() throws {
        var driver = try ModelDriver()  // ios: UIRefreshControl starts while dragging
        try driver.drag(dy: 300, steps: 20, release: false)
        #expect(driver.state(.top) == .refreshing)
        #expect(driver.model.scroll.isDragging)
    }

    @Test func theEndWaitsWhileTheFingerHoldsTheContentBeyondTheRestingInset() throws {
        var driver = try ModelDriver()
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.latencyMs] = 100
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        try driver.drag(dy: 300, steps: 20, release: false)
        driver.wait(60)
        try driver.touch(.end)
        // Grab it again, far down, before the feed answers, and hold.
        try driver.drag(dy: 300, steps: 10, release: false)
        driver.wait(1000)
        #expect(driver.state(.top) == .refreshing)
        let held = driver.offset.y
        driver.wait(200)
        #expect(driver.offset.y == held)  // nothing moves under the finger
        try driver.touch(.end)
        #expect(driver.state(.top) == .finishing)
        driver.settle()
        #expect(driver.offset.y == 0)
        #expect(driver.events.filter { $0.name == .didStart }.count == 1)
        #expect(driver.events.filter { $0.name == .didEnd }.count == 1)
    }

    @Test func aQuickAnswerStaysVisibleForTheMinimumDuration() throws {
        var driver = try ModelDriver()
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.latencyMs] = 10
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        try driver.command(.refresh)
        let started = driver.events.first { $0.name == .didStart }!.time
        driver.settle()
        let ended = driver.events.first { $0.name == .willEnd }!.time
        #expect(ended.seconds(since: started) >= 0.4)
    }

    @Test func programmaticRefreshRevealsTheControlAndIsIdempotent() throws {
        var driver = try ModelDriver()
        try driver.command(.refresh)
        try driver.command(.refresh)
        driver.wait(700)
        #expect(abs(driver.offset.y - -60) < 1e-9)
        driver.settle()
        #expect(driver.events.filter { $0.name == .didStart }.count == 1)
        #expect(driver.events.filter { $0.name == .didEnd }.count == 1)
        #expect(driver.offset.y == 0)
    }

    @Test func programmaticRefreshDoesNotYankAUserWhoScrolledAway() throws {
        var driver = try ModelDriver()
        try driver.command(.scrollBy, animated: false)
        try driver.apply(.command(Command(.scrollBy, animated: false, amount: 500)))
        try driver.command(.refresh)
        driver.wait(300)
        #expect(driver.offset.y == 500)
        #expect(driver.state(.top) == .refreshing)
    }

    @Test func finishCommandEndsAtOnceWithoutAnimation() throws {
        var driver = try ModelDriver()
        try driver.command(.refresh)
        driver.wait(500)
        try driver.command(.finish, edge: .top, animated: false)
        driver.wait(20)
        #expect(driver.state(.top) == .idle)
        #expect(driver.offset.y == 0)
    }

    @Test func aWheelUserCanPullToRefresh() throws {
        var driver = try releaseDriver()
        for _ in 0..<30 {
            try driver.wheel(dy: -40)
            driver.wait(16)
        }
        #expect(driver.state(.top) == .armed)
        driver.wait(200)  // the idle gap ends the wheel gesture: that is the release
        #expect(driver.state(.top) == .refreshing)
        driver.settle()
        #expect(driver.transitions(.top).last == "finishing→idle")
    }
}
