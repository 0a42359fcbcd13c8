import Testing

@testable import RefreshKit

/// Wheel and trackpad streams: momentum is told from fingers by its decay, and momentum that runs into an
/// edge is swallowed instead of overscrolling (docs/PHYSICS.md §6.2–6.3).
@Suite struct WheelGestureTests {
    func model() -> ScrollModel {
        ScrollModel(viewport: Size(width: 390, height: 844), contentSize: Size(width: 390, height: 5000), time: .zero)
    }

    /// A decaying stream every 16 ms, as macOS sends after the fingers lift (factor 0.85 per event).
    func momentum(_ scroll: inout ScrollModel, from first: Double, count: Int, start: Int64) -> [ScrollModel
        .GestureOutcome]
    {
        var outcomes: [ScrollModel.GestureOutcome] = []
        var delta = first
        for index in 0..<count {
            scroll.advance(to: Timestamp(microseconds: start + Int64(index) * 16_000))
            outcomes.append(scroll.wheel(WheelInput(delta: Point(x: 0, y: delta), pageTime: Double(index) * 16)))
            delta *= 0.85
        }
        return outcomes
    }

    @Test func momentumThatRunsIntoTheTopStopsThereAndTheRestIsSwallowed() {
        var scroll = model()
        scroll.scroll(to: Point(x: 0, y: 300), animated: false)
        // Up towards the top: -60, -51, -43.4 … about -400 px in all, more than the 300 px left. The decay is
        // recognised after six events (222 px, still in range); from then on the edge stops it.
        let outcomes = momentum(&scroll, from: -60, count: 30, start: 1_000_000)
        #expect(scroll.offset.y == 0)  // no overscroll from momentum
        #expect(outcomes.contains { if case .released = $0 { true } else { false } })
        #expect(outcomes.last == .ignored)  // the tail of the stream is swallowed
    }

    @Test func aSteadyFingerStreamIsNotMomentumAndRubberBandsAtTheTop() {
        var scroll = model()
        for index in 0..<20 {
            scroll.advance(to: Timestamp(microseconds: Int64(index) * 16_000))
            _ = scroll.wheel(WheelInput(delta: Point(x: 0, y: -30), pageTime: Double(index) * 16))
        }
        #expect(scroll.offset.y < 0)  // a pull past the top: the way a wheel user refreshes
        #expect(scroll.phase == .wheel)
    }

    @Test func aNewPushAfterSwallowedMomentumIsANewGesture() {
        var scroll = model()
        scroll.scroll(to: Point(x: 0, y: 300), animated: false)
        _ = momentum(&scroll, from: -60, count: 30, start: 1_000_000)
        scroll.advance(to: Timestamp(microseconds: 1_000_000 + 30 * 16_000))
        let outcome = scroll.wheel(WheelInput(delta: Point(x: 0, y: 40), pageTime: 500))
        #expect(outcome == .began)
        #expect(scroll.offset.y == 40)
    }
}
