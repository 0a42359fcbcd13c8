import Foundation
import Testing

@testable import RefreshKit

@Suite struct ScrollModelTests {
    let viewport = Size(width: 390, height: 844)

    func model(contentHeight: Double = 5000) -> ScrollModel {
        ScrollModel(viewport: viewport, contentSize: Size(width: 390, height: contentHeight), time: .zero)
    }

    func touch(_ phase: TouchPhase, dy: Double = 0, at ms: Double) -> TouchInput {
        TouchInput(phase: phase, delta: Point(x: 0, y: dy), pageTime: ms)
    }

    @Test func dragInRangeFollowsTheFingerOneToOne() {
        var scroll = model()
        scroll.scroll(to: Point(x: 0, y: 1000), animated: false)
        _ = scroll.touch(touch(.start, at: 0))
        _ = scroll.touch(touch(.move, dy: -120, at: 16))
        #expect(scroll.offset.y == 1120)
        _ = scroll.touch(touch(.move, dy: 45.5, at: 32))
        #expect(scroll.offset.y == 1074.5)
    }

    @Test func dragPastTheTopIsRubberBandedOnTheTotalTranslation() {
        var scroll = model()
        _ = scroll.touch(touch(.start, at: 0))
        // 200 px of finger travel in uneven steps: the result depends only on the total (path independence).
        for (index, step) in [13.0, 87, 0.5, 49.5, 50].enumerated() {
            _ = scroll.touch(touch(.move, dy: step, at: Double(index + 1) * 8))
        }
        let expected = -(1 - 1 / (200 * 0.55 / 844 + 1)) * 844  // docs/PHYSICS.md §1.1 with d = 844
        #expect(abs(scroll.offset.y - expected) < 1e-9)
        #expect(abs(scroll.offset.y - -97.3166) < 1e-4)  // docs/PHYSICS.md §9 row 2
    }

    @Test func aDragThatStartsOverscrolledContinuesWithoutAJump() {
        var scroll = model()
        _ = scroll.touch(touch(.start, at: 0))
        _ = scroll.touch(touch(.move, dy: 300, at: 16))
        let first = scroll.touch(touch(.end, at: 200))  // rested > 40 ms: no fling
        #expect(first == .released(velocity: .zero))
        scroll.settle(velocity: .zero)
        scroll.advance(to: Timestamp(microseconds: 100_000))
        let caught = scroll.offset.y
        #expect(caught < 0)
        _ = scroll.touch(touch(.start, at: 300))
        #expect(scroll.offset.y == caught)
        _ = scroll.touch(touch(.move, dy: 0.001, at: 308))
        #expect(abs(scroll.offset.y - caught) < 0.001)
    }

    @Test func releaseWhileOverscrolledSpringsBackExactlyToRest() {
        var scroll = model()
        _ = scroll.touch(touch(.start, at: 0))
        _ = scroll.touch(touch(.move, dy: 150, at: 16))
        guard case .released(let velocity) = scroll.touch(touch(.end, at: 100)) else {
            Issue.record("expected a release")
            return
        }
        scroll.settle(velocity: velocity)
        #expect(scroll.phase == .animating)
        #expect(scroll.verticalMotion.first?.kind == .spring)
        scroll.advance(to: Timestamp(microseconds: 5_000_000))
        #expect(scroll.offset.y == 0)
        #expect(scroll.phase == .idle)
    }

    @Test func aFlingDecaysToTheProjectedRestPosition() {
        var scroll = model(contentHeight: 100_000)
        scroll.scroll(to: Point(x: 0, y: 10_000), animated: false)
        scroll.settle(velocity: Point(x: 0, y: 2500))
        scroll.advance(to: Timestamp(microseconds: 20_000_000))
        let projected = 10_000 + 2500 / (-1000 * log(0.998))  // x0 − v0/k, docs/PHYSICS.md §2.1
        #expect(abs(scroll.offset.y - projected) <= 0.5)  // within half a device pixel
        #expect(scroll.phase == .idle)
    }

    @Test func shortContentRestsAtTheTopAndPullsFromBothEnds() {
        var scroll = model(contentHeight: 300)
        #expect(scroll.bounds(.vertical) == ScrollBounds(lower: 0, upper: 0))
        _ = scroll.touch(touch(.start, at: 0))
        _ = scroll.touch(touch(.move, dy: -100, at: 16))
        #expect(scroll.offset.y > 0)  // pulled up from the bottom end
        _ = scroll.touch(touch(.move, dy: 200, at: 32))
        #expect(scroll.offset.y < 0)  // and down from the top
    }

    @Test func addingAnInsetLayerMidDragDoesNotMoveTheContent() {
        var scroll = model()
        _ = scroll.touch(touch(.start, at: 0))
        _ = scroll.touch(touch(.move, dy: 250, at: 16))
        let before = scroll.offset.y
        scroll.setInsetLayer(60, for: .top)
        #expect(scroll.offset.y == before)
        _ = scroll.touch(touch(.move, dy: 1, at: 32))
        #expect(abs(scroll.offset.y - before) < 1)
    }

    @Test func removingALayerAtRestSpringsBackWithoutAJump() {
        var scroll = model()
        scroll.setInsetLayer(60, for: .top)
        scroll.scroll(to: Point(x: 0, y: -60), animated: false)
        scroll.setInsetLayer(0, for: .top)
        #expect(scroll.offset.y == -60)
        #expect(scroll.phase == .animating)
        scroll.advance(to: Timestamp(microseconds: 5_000_000))
        #expect(scroll.offset.y == 0)
    }

    @Test func wheelFollowsInRangeAndRubberBandsAtTheTop() {
        var scroll = model()
        _ = scroll.wheel(WheelInput(delta: Point(x: 0, y: 100), pageTime: 0))
        #expect(scroll.offset.y == 100)
        _ = scroll.wheel(WheelInput(delta: Point(x: 0, y: -300), pageTime: 16))
        #expect(scroll.offset.y < 0 && scroll.offset.y > -200)
        #expect(scroll.phase == .wheel)
    }

    @Test func wheelLinesAndPagesConvertToPixels() {
        var scroll = model()
        _ = scroll.wheel(WheelInput(delta: Point(x: 0, y: 3), mode: .line, pageTime: 0))
        #expect(scroll.offset.y == 120)
        _ = scroll.wheel(WheelInput(delta: Point(x: 0, y: 1), mode: .page, pageTime: 16))
        #expect(scroll.offset.y == 120 + 844)
    }
}
