import Testing

@testable import RefreshKit

/// Each preset's documented numbers, checked by driving a model the way a user would.
@Suite struct PresetTests {
    /// Finger travel that shows `distance` px of pull on an 844 px viewport (the rubber band's inverse).
    static func travel(for distance: Double) -> Double {
        RubberBand().pull(forOffset: distance, dimension: 844)
    }

    @Test(arguments: Preset.all)
    func theTopEdgeStartsAtItsDocumentedMomentAndThreshold(preset: Preset) throws {
        let top = preset.configuration.edge(.top)
        var driver = try ModelDriver(preset: preset.name)
        // Just short of the trigger: never starts, whatever the trigger moment.
        try driver.drag(dy: Self.travel(for: top.triggerDistance - 0.5), steps: 10, release: false)
        #expect(driver.state(.top) == .pulling)
        // Just past it: armed, and started now (while dragging) or on release.
        try driver.drag(
            dy: Self.travel(for: top.triggerDistance + 1) - Self.travel(for: top.triggerDistance - 0.5), steps: 1,
            release: false)
        switch top.trigger {
        case .whileDragging:
            #expect(driver.state(.top) == .refreshing)
        case .onRelease:
            #expect(driver.state(.top) == .armed)
            driver.wait(100)
            try driver.touch(.end)
            #expect(driver.state(.top) == .refreshing)
        case .onReachEdge, .manual:
            Issue.record("no preset has a top edge that starts on its own")
        }
        if top.trigger == .whileDragging {
            driver.wait(100)
            try driver.touch(.end)
        }
        // It rests on its documented resting inset.
        driver.wait(1000)
        #expect(abs(driver.offset.y + top.restingInset) < 1e-6, "\(preset.name)")
        driver.settle()
        #expect(driver.offset.y == 0)
        #expect(driver.state(.top) == .idle)
    }

    @Test(arguments: Preset.all)
    func theEventsOfOneRefreshComeInTheDocumentedOrder(preset: Preset) throws {
        var driver = try ModelDriver(preset: preset.name)
        try driver.command(.refresh)
        driver.settle()
        let names = driver.names(.top).filter { $0 != .cycleStarted && $0 != .cycleEnded }
        #expect(names == [.willStart, .didStart, .feedLoaded, .willEnd, .didEnd])
        let cycles = driver.names(.top).filter { $0 == .cycleStarted }.count
        let ends = driver.names(.top).filter { $0 == .cycleEnded }.count
        #expect(cycles >= 1 && cycles == ends)
    }

    @Test(arguments: Preset.all)
    func theExitTakesTheDocumentedDuration(preset: Preset) throws {
        let top = preset.configuration.edge(.top)
        var driver = try ModelDriver(preset: preset.name)
        try driver.command(.refresh)
        driver.settle()
        let willEnd = try #require(driver.events.first { $0.name == .willEnd && $0.edge == .top })
        let didEnd = try #require(driver.events.first { $0.name == .didEnd && $0.edge == .top })
        #expect(abs(didEnd.time.seconds(since: willEnd.time) - top.exitDuration) < 1e-6)
        let didStart = try #require(driver.events.first { $0.name == .didStart && $0.edge == .top })
        #expect(willEnd.time.seconds(since: didStart.time) >= top.minimumVisibleDuration)
    }

    @Test func thePresetsMatchTheirLibraries() {
        // JHPullToRefreshKit: `−y > h` (strict) on release, h = 60 in its demos (docs/SEEDS.md §1.2, §1.5).
        #expect(Preset.jh.configuration.edge(.top).strictness == .strict)
        #expect(Preset.jh.configuration.edge(.top).trigger == .onRelease)
        #expect(Preset.jh.configuration.edge(.bottom).enabled == false)
        // MSPullToRefreshController: refreshable = refreshing = 30, strict, 0.2 s, flings never engage.
        let ms = Preset.ms.configuration.edge(.top)
        #expect([ms.triggerDistance, ms.restingInset, ms.startDuration, ms.exitDuration] == [30, 30, 0.2, 0.2])
        #expect(ms.fling == .ignore && ms.strictness == .strict)
        // HTRefreshView: four edges; a fling's bounce may engage; footer auto-triggers with a prompting inset.
        #expect(Edge.allCases.allSatisfy { Preset.ht.configuration.edge($0).enabled })
        #expect(Preset.ht.configuration.edge(.top).fling == .trigger)
        #expect(Preset.ht.configuration.edge(.bottom).trigger == .onReachEdge)
        #expect(Preset.ht.configuration.edge(.bottom).promptingInset > 0)
        // GVRefreshControl: height 100 from its data source default, fixedTop by default, UIKit's timing.
        #expect(Preset.gv.configuration.edge(.top).height == 100)
        #expect(Preset.gv.configuration.edge(.top).viewBehaviour == .fixedTop)
        #expect(Preset.gv.configuration.edge(.top).trigger == .whileDragging)
        // IQPullToRefresh: eligible at progress ≥ 1 (inclusive), 0.1 s inset animations, reach-end load-more.
        #expect(Preset.iq.configuration.edge(.top).strictness == .inclusive)
        #expect(Preset.iq.configuration.edge(.top).exitDuration == 0.1)
        #expect(Preset.iq.configuration.edge(.bottom).trigger == .onReachEdge)
        // UIRefreshControl as Cupertino measured it: 100 px while dragging, 60 px hold (docs/PHYSICS.md §8.1).
        #expect(Preset.ios.configuration.edge(.top).triggerDistance == 100)
        #expect(Preset.ios.configuration.edge(.top).restingInset == 60)
    }

    @Test func aFlingCanStartHTsRefreshButNeverMSs() throws {
        for (name, starts) in [("ht", true), ("ms", false)] {
            var driver = try ModelDriver(preset: name)
            try driver.command(.scrollBy, animated: false)
            try driver.apply(.command(Command(.scrollBy, animated: false, amount: 300)))
            // A fast flick down towards the top: the bounce overshoots past the threshold.
            try driver.drag(dy: 120, steps: 4, stepMs: 8)
            driver.settle()
            let started = driver.events.contains { $0.name == .didStart && $0.edge == .top }
            #expect(started == starts, "\(name)")
        }
    }
}

extension Preset: CustomTestStringConvertible {
    public var testDescription: String { name }
}
