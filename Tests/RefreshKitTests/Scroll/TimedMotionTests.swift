import Testing

@testable import RefreshKit

/// The timed segment (docs/PHYSICS.md §11) and how the scroll model runs it when an inset changes on a timing.
@Suite struct TimedMotionTests {
    static let t0 = Timestamp(microseconds: 10_000_000)

    @Test func aTimedSegmentStartsAtItsPositionAndSnapsToItsTargetAtItsEnd() throws {
        let segment = MotionSegment.timed(from: -60, to: 0, at: Self.t0, duration: 0.25, curve: .easeOut)
        let end = try #require(segment.end)
        #expect(end == Self.t0.advanced(byMicroseconds: 250_000))
        #expect(segment.position(at: Self.t0) == -60)
        #expect(segment.position(at: Self.t0.advanced(byMicroseconds: -1000)) == -60)
        #expect(segment.position(at: end) == 0 && segment.velocity(at: end) == 0)
        #expect(segment.position(at: end.advanced(byMicroseconds: 99_999)) == 0)
        // Ease-out: it leaves at 1/0.58 of the average speed (240 px/s) and arrives at rest, without a jump.
        #expect(abs(segment.velocity - 240 / 0.58) < 1e-9)
        let justBefore = segment.position(at: end.advanced(byMicroseconds: -1))
        #expect(abs(justBefore) < 1e-6)
    }

    @Test(arguments: [
        TimingCurve.linear, .easeIn, .easeOut, .easeInEaseOut, .default, TimingCurve(1, 0, 0, 1),
    ])
    func everyCurveIsMonotonicFromZeroToOne(_ curve: TimingCurve) {
        var previous = 0.0
        for step in 0...1000 {
            let y = curve.progress(at: Double(step) / 1000)
            #expect(y >= previous - 1e-12 && y >= 0 && y <= 1)
            // The solve finds the parameter for this x.
            if step > 0 && step < 1000 {
                let x = Double(step) / 1000
                #expect(abs(TimingCurve.cubic(curve.solve(x), curve.x1, curve.x2) - x) < 1e-9)
            }
            previous = y
        }
        #expect(curve.progress(at: 0) == 0 && curve.progress(at: 1) == 1)
    }

    /// A list resting on a 60 px refreshing inset at the top.
    static func refreshing() -> ScrollModel {
        var model = ScrollModel(
            viewport: Size(width: 390, height: 844), contentSize: Size(width: 390, height: 4000), time: t0)
        model.setInsetLayer(60, for: .top, timing: TimedMove(duration: 0.25, curve: .easeOut))
        // The content was at rest inside the new range: nothing moves, and the timing is dropped.
        #expect(model.verticalMotion.isEmpty && model.offset.y == 0)
        model.scroll(to: Point(x: 0, y: -60), animated: false)
        return model
    }

    @Test func theInsetGoingBackOnATimingIsOneTimedSegment() throws {
        var model = Self.refreshing()
        model.setInsetLayer(0, for: .top, timing: TimedMove(duration: 0.25, curve: .easeOut))
        let segment = try #require(model.verticalMotion.first)
        #expect(model.verticalMotion.count == 1 && segment.kind == .timed)
        #expect(segment.position == -60 && segment.target == 0 && segment.curve == .easeOut)
        model.advance(to: Self.t0.advanced(byMicroseconds: 125_000))
        #expect(abs(model.offset.y - -60 * (1 - 0.6846431874274606)) < 1e-9)
        // Rows arriving at the other end do not restart it.
        model.setContentSize(Size(width: 390, height: 6000))
        #expect(model.verticalMotion == [segment])
        model.advance(to: Self.t0.advanced(byMicroseconds: 250_000))
        #expect(model.offset.y == 0 && model.phase == .idle && model.verticalMotion.isEmpty)
    }

    @Test func withoutATimingTheInsetGoesBackOnTheSpring() throws {
        var model = Self.refreshing()
        model.setInsetLayer(0, for: .top)
        #expect(model.verticalMotion.first?.kind == .spring)
    }

    @Test func aFingerStopsATimedMove() {
        var model = Self.refreshing()
        model.setInsetLayer(0, for: .top, timing: TimedMove(duration: 0.25, curve: .easeOut))
        model.advance(to: Self.t0.advanced(byMicroseconds: 100_000))
        let held = model.offset.y
        _ = model.touch(TouchInput(phase: .start, pageTime: 100))
        #expect(model.verticalMotion.isEmpty && model.offset.y == held)
        // Let go without a fling: the content goes back on the spring, the timing is gone.
        _ = model.touch(TouchInput(phase: .end, pageTime: 400))
        model.settle(velocity: .zero)
        #expect(model.verticalMotion.first?.kind == .spring)
    }
}
