import Testing

@testable import RefreshKit

/// Each library's own sequence of events (`"events": "library"`), against docs/SEEDS.md: what its delegate
/// receives, in its order, and what it leaves out.
@Suite struct LibraryEventTests {
    /// A model of `preset` naming its events as the preset's library does, with the simulated feed answering
    /// after `latencyMs`.
    static func driver(_ preset: String, latencyMs: Double = 400) throws -> ModelDriver {
        var driver = try ModelDriver(preset: preset)
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.latencyMs] = latencyMs
        try driver.apply(.configure(ConfigurationPatch(feed: feed, events: .library)))
        driver.clearLog()
        return driver
    }

    /// The library's names of `edge`'s events so far.
    static func library(_ driver: ModelDriver, _ edge: Edge) -> [String] {
        driver.events.filter { $0.edge == edge }.compactMap { $0.library?.name }
    }

    /// Pulls the top down past every seed's trigger and lets go; then waits until all is quiet.
    static func pullToRefresh(_ driver: inout ModelDriver) throws {
        try driver.drag(dy: 600, steps: 30)
        driver.settle()
    }

    @Test func jhTellsItsDelegateOfTheStartTheCyclesAndTheEndOnly() throws {
        var driver = try Self.driver("jh")
        try Self.pullToRefresh(&driver)
        let names = Self.library(driver, .top)
        #expect(names.prefix(3) == ["valueChanged", "refreshControlDidStart", "refreshControlDidStartAnimationCycle"])
        #expect(names.last == "refreshControlDidEnd")
        // The cycles alternate, each started one ended, and the end comes after the last.
        let cycles = names.dropFirst(2).dropLast()
        #expect(!cycles.isEmpty && cycles.count % 2 == 0)
        #expect(
            cycles.enumerated().allSatisfy { index, name in
                name == (index % 2 == 0 ? "refreshControlDidStartAnimationCycle" : "refreshControlDidEndAnimationCycle")
            })
        // Ours are all still there (a `didStart` stands behind `refreshControlDidStart`), and every event of a
        // callback is the library's: nothing armed, nothing about to end.
        #expect(!driver.events.contains { $0.name == .armed || $0.name == .willEnd })
        #expect(driver.events.filter { $0.name == .didStart }.allSatisfy { $0.library != nil })
    }

    @Test func msEngagesAndNeverSaysItEnded() throws {
        var driver = try Self.driver("ms")
        try Self.pullToRefresh(&driver)
        #expect(Self.library(driver, .top) == ["canEngage", "didEngage"])
        #expect(driver.state(.top) == .idle, "the refresh ran and ended, silently")
        #expect(driver.transitions(.top).contains("finishing→idle"))
    }

    @Test func msDisengagesWhenThePullGoesBack() throws {
        var driver = try Self.driver("ms")
        try driver.drag(dy: 300, steps: 15, release: false)
        try driver.drag(dy: -300, steps: 15)
        driver.settle()
        #expect(Self.library(driver, .top) == ["canEngage", "didDisengage"])
    }

    @Test func htSaysWillEndOnceWhenTheEndNeedNotWait() throws {
        // The answer comes after HT's 0.25 s minimum: the end runs when the app asks.
        var driver = try Self.driver("ht", latencyMs: 600)
        try Self.pullToRefresh(&driver)
        #expect(
            Self.library(driver, .top) == ["CanEngageRefresh", "DidEngageRefresh", "WillEndRefresh", "DidEndRefresh"])
        // `DidEnd` comes as the inset starts back, not after it.
        let willEnd = try #require(driver.events.first { $0.library == .willEndRefresh })
        let didEnd = try #require(driver.events.first { $0.library == .didEndRefresh })
        #expect(willEnd.time == didEnd.time)
    }

    @Test func htSaysWillEndAgainWhenAnEndThatWaitedRuns() throws {
        // The answer comes at once, inside the 0.25 s the refresh stays visible: HT's finish waits and re-runs.
        var driver = try Self.driver("ht", latencyMs: 0)
        try Self.pullToRefresh(&driver)
        #expect(
            Self.library(driver, .top) == [
                "CanEngageRefresh", "DidEngageRefresh", "WillEndRefresh", "WillEndRefresh", "DidEndRefresh",
            ])
        let ends = driver.events.filter { $0.library == .willEndRefresh }
        #expect(ends[0].name == .endRequested && ends[1].name == .willEnd && ends[0].time < ends[1].time)
    }

    @Test func htsAutoTriggerFooterEngagesAtTheEdgeAndOnlySaysDidEnd() throws {
        var driver = try Self.driver("ht")
        try driver.drag(dy: -20_000, steps: 40)
        driver.settle()
        let footer = Self.library(driver, .bottom)
        #expect(footer.prefix(3) == ["CanEngageRefresh", "DidEngageRefresh", "DidEndRefresh"])
        #expect(!footer.contains("WillEndRefresh"))
    }

    /// HT's DoNotTrigger footer is started only by the app: `startRefresh:` on a bottom edge sets the flag and
    /// nothing else (no handler, no `DidEngageRefresh`), and `endRefresh:` says `DidEndRefresh` alone (§3.3, §3.4).
    @Test func htsDoNotTriggerFooterSaysOnlyDidEndWhenTheAppStartsAndEndsIt() throws {
        var driver = try Self.driver("ht")
        var footer = ConfigurationPatch.EdgePatch()
        footer[\.trigger] = .manual
        try driver.apply(.configure(ConfigurationPatch(edges: [.bottom: footer])))
        try driver.command(.scrollToEdge, edge: .bottom, animated: false)
        driver.settle()
        driver.clearLog()
        try driver.command(.loadMore, edge: .bottom)
        driver.settle()
        #expect(driver.events.contains { $0.edge == .bottom && $0.name == .didEnd }, "the load ended")
        #expect(Self.library(driver, .bottom) == ["DidEndRefresh"])
    }

    /// A command start of any HT footer sets the flag before the engine runs: no `DidEngageRefresh` (§3.3).
    @Test func htsFooterStartedByTheAppDoesNotSayDidEngage() throws {
        var driver = try Self.driver("ht")
        try driver.command(.scrollToEdge, edge: .bottom, animated: false)
        driver.settle()
        driver.clearLog()
        try driver.command(.loadMore, edge: .bottom)
        driver.settle()
        #expect(!Self.library(driver, .bottom).contains("DidEngageRefresh"))
        #expect(Self.library(driver, .bottom).last == "DidEndRefresh")
    }

    @Test func iqReportsItsStatesAndAsksItsDelegate() throws {
        var driver = try Self.driver("iq")
        try Self.pullToRefresh(&driver)
        let names = Self.library(driver, .top)
        // A release control: eligible before it starts (docs/SEEDS.md §5.2).
        #expect(names.first == ".pulling")
        #expect(names.suffix(4) == [".eligible", ".refreshing", "refreshTriggered", ".none"])
    }

    @Test func iqsLoadMoreStartsWithoutEverBeingEligible() throws {
        var driver = try Self.driver("iq")
        try driver.drag(dy: -20_000, steps: 40)
        driver.settle()
        let footer = Self.library(driver, .bottom)
        #expect(footer.contains(".refreshing") && footer.contains("loadMoreTriggered") && footer.last == ".none")
        #expect(!footer.contains(".eligible"))
    }

    @Test(arguments: ["gv", "ios"])
    func uiKitsControlSendsValueChangedAlone(_ preset: String) throws {
        var driver = try Self.driver(preset)
        try Self.pullToRefresh(&driver)
        #expect(Self.library(driver, .top) == ["valueChanged"])
        #expect(driver.transitions(.top).contains("finishing→idle"))
    }

    @Test func refreshKitsEventsStayTheDefault() throws {
        var driver = try ModelDriver(preset: "ht")
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.latencyMs] = 0
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        driver.clearLog()
        try Self.pullToRefresh(&driver)
        #expect(driver.events.allSatisfy { $0.library == nil && $0.name != .endRequested })
        #expect(
            driver.names(.top) == [
                .armed, .willStart, .didStart, .cycleStarted, .feedLoaded, .cycleEnded, .willEnd, .didEnd,
            ])
    }

    @Test func aPresetWithoutALibraryRefusesLibraryEvents() throws {
        var configuration = Preset.ios.configuration
        configuration.library = nil
        #expect(throws: ListModelError.self) {
            try configuration.applying(ConfigurationPatch(events: .library))
        }
        #expect(try configuration.applying(ConfigurationPatch(events: .refreshkit)).configuration.events == nil)
    }
}
