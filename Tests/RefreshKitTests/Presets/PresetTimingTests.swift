import Testing

@testable import RefreshKit

/// Each preset's inset motion by numbers: where the content is at fixed times while a refresh starts, while
/// it ends and after the exit, on its library's durations and curves (docs/PHYSICS.md §11.3, docs/SEEDS.md).
///
/// The fractions of the way are the named curves' values, computed independently of the engine (bisection
/// on the Bézier to 1e-15): ease-in-ease-out 0.1291619310473198, 0.5, 0.8708380689526802 and ease-out
/// 0.37813813082510966, 0.6846431874274606, 0.9065353492811752 at a quarter, half and three quarters of
/// the duration.
@Suite struct PresetTimingTests {
    static let easeInEaseOut = [0.1291619310473198, 0.5, 0.8708380689526802]
    static let easeOut = [0.37813813082510966, 0.6846431874274606, 0.9065353492811752]

    /// The top edge's library timings: start and return durations (s), resting inset, curve values.
    struct Timing {
        var preset: String
        var start: Double
        var back: Double
        var inset: Double
        var curve: [Double]
    }

    static let timed = [
        Timing(preset: "jh", start: 0.25, back: 0.25, inset: 60, curve: easeInEaseOut),
        Timing(preset: "ms", start: 0.2, back: 0.2, inset: 30, curve: easeInEaseOut),
        Timing(preset: "ht", start: 0.25, back: 0.25, inset: 60, curve: easeOut),
        Timing(preset: "iq", start: 0.1, back: 0.1, inset: 80, curve: easeInEaseOut),
    ]

    static func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }

    /// Checks that the content goes from `from` to `to` between `start` and `start + duration`, at the
    /// curve's quarter, half and three quarters, and rests on `to` at the end.
    static func expectMove(
        _ driver: inout ModelDriver, from: Double, to: Double, start: Int64, duration: Double, curve: [Double],
        _ label: String
    ) {
        let length = microseconds(duration)
        for (index, fraction) in curve.enumerated() {
            driver.run(until: start + length * Int64(index + 1) / 4)
            let expected = from + (to - from) * fraction
            #expect(
                abs(driver.offset.y - expected) < 1e-9, "\(label) at \(index + 1)/4: \(driver.offset.y) vs \(expected)")
        }
        driver.run(until: start + length)
        #expect(driver.offset.y == to, "\(label) at its end")
    }

    @Test(arguments: timed)
    func aCommandStartRevealsTheControlOnTheLibrarysTiming(_ timing: Timing) throws {
        var driver = try ModelDriver(preset: timing.preset)
        #expect(driver.offset.y == 0)
        let start = driver.time
        try driver.command(.refresh, edge: .top)
        let motion = try #require(driver.model.scroll.verticalMotion.first)
        #expect(motion.kind == .timed)
        #expect(motion.start.microseconds == start)
        #expect(motion.end?.microseconds == start + Self.microseconds(timing.start))
        Self.expectMove(
            &driver, from: 0, to: -timing.inset, start: start, duration: timing.start, curve: timing.curve,
            "\(timing.preset) start")
    }

    @Test(arguments: timed)
    func aReleaseStartGlidesOnTheLibrarysTimingExceptMSWhichBounces(_ timing: Timing) throws {
        var driver = try ModelDriver(preset: timing.preset)
        try driver.drag(dy: 400, steps: 20, release: false)
        driver.wait(100)  // the finger rests: no fling
        let released = driver.offset.y
        #expect(released < -timing.inset)
        let start = driver.time
        try driver.touch(.end)
        #expect(driver.state(.top) == .refreshing)
        let motion = try #require(driver.model.scroll.verticalMotion.first)
        if timing.preset == "ms" {
            // MSPullToRefreshController sets the refreshing inset at once; UIKit's bounce settles on it.
            #expect(motion.kind == .spring)
            #expect(motion.target == -timing.inset)
            return
        }
        #expect(motion.kind == .timed)
        Self.expectMove(
            &driver, from: released, to: -timing.inset, start: start, duration: timing.start, curve: timing.curve,
            "\(timing.preset) release start")
    }

    @Test(arguments: timed)
    func theEndGivesTheInsetBackOnTheLibrarysTimingInTheLibrarysOrder(_ timing: Timing) throws {
        var driver = try ModelDriver(preset: timing.preset)
        try driver.command(.refresh, edge: .top)
        driver.clearLog()
        // The simulated feed answers; the end follows its gates.
        var guardSteps = 0
        while !driver.events.contains(where: { $0.name == .willEnd && $0.edge == .top }) && guardSteps < 1000 {
            driver.wait(10)
            guardSteps += 1
        }
        let willEnd = try #require(driver.events.first { $0.name == .willEnd && $0.edge == .top })
        let exit = driver.model.configuration.edge(.top).exitDuration
        var start = willEnd.time.microseconds
        if timing.preset == "jh" {
            // JHPullToRefreshKit: the exit animation plays with the inset held, then the inset goes back.
            driver.run(until: start + Self.microseconds(exit) - 1)
            #expect(driver.offset.y == -timing.inset)
            start += Self.microseconds(exit)
            driver.run(until: start)
            #expect(driver.state(.top) == .idle)
        }
        #expect(driver.offset.y == -timing.inset)
        let motion = try #require(driver.model.scroll.verticalMotion.first)
        #expect(motion.kind == .timed)
        #expect(motion.start.microseconds == start)
        Self.expectMove(
            &driver, from: -timing.inset, to: 0, start: start, duration: timing.back, curve: timing.curve,
            "\(timing.preset) end")
        if timing.preset != "jh" {
            // The exit and the inset's way back are one animation: didEnd comes as the content arrives.
            #expect(exit == timing.back)
            #expect(driver.state(.top) == .idle)
        }
    }

    @Test(arguments: ["ios", "gv"])
    func uiKitsOwnControlKeepsTheBounceSpring(_ preset: String) throws {
        var driver = try ModelDriver(preset: preset)
        try driver.command(.refresh, edge: .top)
        #expect(driver.model.scroll.verticalMotion.first?.kind == .spring)
        driver.settle()
        #expect(driver.state(.top) == .idle)
        #expect(driver.offset.y == 0)
    }
}

extension PresetTimingTests {
    @Test(arguments: ["jh", "ms", "ht", "iq"])
    func aFinishThatIsNotAnimatedPutsTheContentBackAtOnce(_ preset: String) throws {
        var driver = try ModelDriver(preset: preset)
        try driver.command(.refresh, edge: .top)
        driver.wait(600)  // revealed, and past every preset's minimum visible time
        #expect(driver.state(.top) == .refreshing)
        try driver.command(.finish, edge: .top, animated: false)
        // JH's end waits for the running cycle; the others end now.
        var steps = 0
        while driver.state(.top) != .idle && steps < 200 {
            driver.wait(5)
            steps += 1
        }
        #expect(driver.state(.top) == .idle)
        #expect(driver.offset.y == 0, "\(preset)")
        #expect(driver.model.scroll.verticalMotion.isEmpty)
    }
}
