import Testing

@testable import RefreshKit

/// The presets' behaviours that were found off against their libraries (docs/SEEDS.md), each as the
/// engine's rule on one control and as a model driven the way a user would.
@Suite struct SeedBehaviourTests {
    static let t0 = Timestamp(microseconds: 1_000_000)

    /// Observes `control` at `distance` with `motion`, returning the action.
    @discardableResult
    static func observe(
        _ control: inout EdgeControl, _ distance: Double, _ motion: EdgeControl.Motion = .dragging,
        events: inout [Event]
    ) -> EdgeControl.Action {
        control.observe(distance: distance, velocity: 0, motion: motion, canStart: true, at: t0, events: &events)
    }

    static func feed(pageSize: Int? = nil, totalItems: Int? = nil, rowHeight: Double? = nil) -> Input {
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.pageSize] = pageSize
        feed[\.totalItems] = totalItems
        feed[\.rowHeight] = rowHeight
        return .configure(ConfigurationPatch(feed: feed))
    }

    static func edges(_ edge: Edge, _ change: (inout ConfigurationPatch.EdgePatch) -> Void) -> Input {
        var patch = ConfigurationPatch.EdgePatch()
        change(&patch)
        return .configure(ConfigurationPatch(edges: [edge: patch]))
    }

    // MARK: - 1. shortContent: disabled (HTRefreshView hides its footer while the list fits)

    @Test func aShortContentDisabledControlIsOffWhileTheContentFits() {
        var footer = EdgeControl(
            edge: .bottom,
            configuration: Preset.footer(height: 44, prompting: 44, shortContent: .disabled))
        var events: [Event] = []
        Self.observe(&footer, -100, events: &events)
        #expect(footer.state == .idle && footer.layer == 44)
        footer.observeLayout(contentFits: true, hasMore: true, at: Self.t0, events: &events)
        #expect(footer.state == .disabled)
        #expect(footer.layer == 0)
        #expect(footer.start(cause: .command, canStart: true, at: Self.t0, events: &events) == .none)
        footer.observeLayout(contentFits: false, hasMore: false, at: Self.t0, events: &events)
        #expect(footer.state == .noMoreData)
        footer.observeLayout(contentFits: true, hasMore: false, at: Self.t0, events: &events)
        footer.observeLayout(contentFits: false, hasMore: true, at: Self.t0, events: &events)
        #expect(footer.state == .idle)
        #expect(footer.layer == 44)
        #expect(events.filter { $0.name == .transition }.allSatisfy { $0.from!.canTransition(to: $0.to!) })
    }

    @Test func aLoadUnderWayFinishesBeforeTheFooterSwitchesOff() {
        var footer = EdgeControl(edge: .bottom, configuration: Preset.footer(shortContent: .disabled))
        var events: [Event] = []
        _ = footer.start(cause: .command, canStart: true, at: Self.t0, events: &events)
        footer.observeLayout(contentFits: true, hasMore: true, at: Self.t0, events: &events)
        #expect(footer.state == .refreshing)
        footer.finish(.cancelled, cause: .command, fingerDown: false, at: Self.t0, events: &events)
        footer.advance(to: Self.t0.advanced(bySeconds: 1), fingerDown: false, events: &events)
        #expect(footer.state == .idle)
        footer.observeLayout(contentFits: true, hasMore: true, at: Self.t0, events: &events)
        #expect(footer.state == .disabled)
    }

    @Test func htHidesItsFooterOnAListThatFitsAndBringsItBack() throws {
        var driver = try ModelDriver(preset: "ht")
        #expect(driver.state(.bottom) == .idle)
        try driver.apply(Self.feed(pageSize: 5, totalItems: 100))  // 5 × 72 px on 844 px
        #expect(driver.state(.bottom) == .disabled)
        #expect(driver.model.scroll.insets.combined.bottom == 0)
        try driver.drag(dy: -300, steps: 10)
        driver.settle()
        #expect(!driver.events.contains { $0.name == .didStart && $0.edge == .bottom })
        #expect(driver.model.pager.count == 5)
        // An app inset counts against the viewport: 11 rows (792 px) fit 844 px, not 844 − 64.
        try driver.apply(Self.feed(pageSize: 11))
        #expect(driver.state(.bottom) == .disabled)
        try driver.apply(.configure(ConfigurationPatch(insets: EdgeInsets(top: 64))))
        // The footer is back, with its prompt; in view, it loads as HT's AutoTrigger does.
        #expect(driver.transitions(.bottom).suffix(2) == ["disabled→idle", "idle→refreshing"])
        #expect(driver.model.scroll.insets.combined.bottom == 44)
    }

    @Test func aConfigureWhileTheListFitsLeavesTheFooterOff() throws {
        var driver = try ModelDriver(preset: "ht")
        try driver.apply(Self.feed(pageSize: 5, totalItems: 100))
        driver.clearLog()
        try driver.apply(Self.edges(.bottom) { $0[\.promptingInset] = 30 })
        #expect(driver.state(.bottom) == .disabled)
        #expect(driver.transitions(.bottom).isEmpty)
    }

    // MARK: - 2. fling: ignore on a reach-edge footer (IQPullToRefresh loads more only from a drag)

    @Test func anIgnoringReachEdgeControlStartsOnlyUnderHands() {
        var footer = EdgeControl(edge: .bottom, configuration: Preset.iq.configuration.edge(.bottom))
        var events: [Event] = []
        #expect(Self.observe(&footer, 5, .momentum, events: &events) == .none)
        #expect(Self.observe(&footer, 0, .still, events: &events) == .none)
        #expect(footer.state == .idle)
        #expect(Self.observe(&footer, 2, .dragging, events: &events) == .request)
        var auto = EdgeControl(edge: .bottom, configuration: Preset.ios.configuration.edge(.bottom))
        #expect(Self.observe(&auto, 5, .momentum, events: &events) == .request)
    }

    @Test func aFlingToTheEndLoadsForIOSButNotForIQUntilADrag() throws {
        for (preset, loadsOnFling) in [("iq", false), ("ios", true)] {
            var driver = try ModelDriver(preset: preset)
            try driver.drag(dy: -300, steps: 6, stepMs: 8)
            driver.settle(limitMs: 5000)
            let started = driver.events.contains { $0.name == .didStart && $0.edge == .bottom }
            #expect(started == loadsOnFling, "\(preset)")
            if !loadsOnFling {
                #expect(abs(driver.model.control(.bottom).distance) < 1, "\(preset): the fling reached the end")
                try driver.drag(dy: -10, steps: 1, release: false)
                #expect(driver.state(.bottom) == .refreshing, "\(preset): a drag at the end loads")
            }
        }
    }

    @Test func aStrictReachEdgeControlStartsOnlyPastItsStartPoint() {
        var footer = EdgeControl(edge: .bottom, configuration: Preset.ht.configuration.edge(.bottom))
        var events: [Event] = []
        #expect(Self.observe(&footer, 0, .still, events: &events) == .none)
        #expect(Self.observe(&footer, 0.5, .still, events: &events) == .request)
        var inclusive = EdgeControl(edge: .bottom, configuration: Preset.iq.configuration.edge(.bottom))
        #expect(Self.observe(&inclusive, 0, .dragging, events: &events) == .request)
    }

    // MARK: - 3. GVRefreshControl's stretches is not clamped

    @Test(arguments: [(50.0, 0.5), (100, 1), (150, 1.5), (0, 0.01)])
    func stretchesScalesByTheUnclampedPull(distance: Double, scale: Double) {
        var configuration = Preset.gv.configuration.edge(.top)
        configuration.viewBehaviour = .stretches
        let geometry = EdgeGeometry(
            edge: .top, configuration: configuration, distance: distance, viewport: Size(width: 390, height: 844),
            baseInset: 0)
        #expect(abs(geometry.scale - scale) < 1e-12)
    }

    @Test func fixedTopStretchesThenPinsUnscaled() {
        let configuration = Preset.gv.configuration.edge(.top)
        let viewport = Size(width: 390, height: 844)
        let half = EdgeGeometry(
            edge: .top, configuration: configuration, distance: 50, viewport: viewport, baseInset: 0)
        #expect(half.scale == 0.5)
        let past = EdgeGeometry(
            edge: .top, configuration: configuration, distance: 150, viewport: viewport, baseInset: 0)
        #expect(past.scale == 1)
        #expect(past.view.origin.y == 0)
    }

    // MARK: - 4. HTRefreshView's dragging footer measures past its prompt

    @Test func aDraggingFooterEngagesOnlyPastItsPrompt() {
        var configuration = Preset.ht.configuration.edge(.bottom)
        configuration.trigger = .onRelease
        (configuration.triggerDistance, configuration.promptingInset, configuration.restingInset) = (60, 60, 60)
        var footer = EdgeControl(edge: .bottom, configuration: configuration)
        var events: [Event] = []
        Self.observe(&footer, 60, events: &events)  // the prompt shows, nothing pulled
        #expect(footer.state == .idle && footer.progress == 0)
        Self.observe(&footer, 100, events: &events)
        #expect(footer.state == .pulling)
        #expect(abs(footer.progress - 40.0 / 60) < 1e-12)
        Self.observe(&footer, 120, events: &events)
        #expect(footer.state == .pulling)  // strict, like HT
        Self.observe(&footer, 121, events: &events)
        #expect(footer.state == .armed)
        #expect(footer.release(canStart: true, at: Self.t0, events: &events) == .request)
    }

    // MARK: - 5. IQPullToRefresh's preloadOffset on both edges

    @Test func preloadBringsPullToRefreshEligibleEarlier() {
        var configuration = Preset.iq.configuration.edge(.top)
        configuration.preload = 30
        var top = EdgeControl(edge: .top, configuration: configuration)
        var events: [Event] = []
        Self.observe(&top, 40, events: &events)
        #expect(top.state == .pulling)
        #expect(abs(top.progress - 70.0 / 80) < 1e-12)
        Self.observe(&top, 49.5, events: &events)
        #expect(top.state == .pulling)
        Self.observe(&top, 50, events: &events)  // (50 + 30) / 80 = 1, inclusive
        #expect(top.state == .armed)
    }

    @Test func reachEdgeProgressCountsOverTheLengthBeforeThePreloadPoint() {
        var configuration = Preset.iq.configuration.edge(.bottom)
        configuration.preload = 100
        var footer = EdgeControl(edge: .bottom, configuration: configuration)
        var events: [Event] = []
        Self.observe(&footer, -200, events: &events)
        #expect(footer.progress == 0)
        Self.observe(&footer, -130, events: &events)
        #expect(abs(footer.progress - 0.5) < 1e-12)
        #expect(footer.state == .idle)
        #expect(Self.observe(&footer, -100, events: &events) == .request)
        #expect(footer.progress == 1)
    }

    @Test func withoutPreloadOrPromptTheProgressIsUnchanged() {
        var top = EdgeControl(edge: .top, configuration: Preset.ios.configuration.edge(.top))
        var events: [Event] = []
        Self.observe(&top, 25, events: &events)
        #expect(top.progress == 0.25)
    }
}
