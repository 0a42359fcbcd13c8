import Testing

@testable import RefreshKit

/// Every touch and wheel delta and page time is checked before it reaches the model: non-finite or absurd
/// values are refused with `out_of_range` and a message naming the field, and the model goes on as if the
/// input had not come.
@Suite struct InputValidationTests {
    static let start = Timestamp(microseconds: 1_000_000)

    static func draggedModel() throws -> ListModel {
        var model = try ListModel(viewport: Size(width: 390, height: 844), time: start)
        try model.apply(.touch(TouchInput(phase: .start, pageTime: 1_000)), at: start)
        return model
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1_000_001, -2e300])
    func aTouchDeltaOutOfRangeIsRefused(bad: Double) throws {
        var model = try Self.draggedModel()
        let before = model
        for delta in [Point(x: bad, y: 0), Point(x: 0, y: bad)] {
            let move = TouchInput(phase: .move, delta: delta, pageTime: 1_016)
            let error = #expect(throws: ListModelError.self) { try model.apply(.touch(move), at: Self.start) }
            #expect(error?.reason == .outOfRange)
            #expect(error?.message == "touch deltas must be finite and at most 1000000 px")
            #expect(model == before, "a refused input changes nothing")
        }
    }

    @Test(arguments: [Double.nan, .infinity, 1e7])
    func aWheelDeltaOutOfRangeIsRefused(bad: Double) throws {
        var model = try ListModel(viewport: Size(width: 390, height: 844), time: Self.start)
        let wheel = WheelInput(delta: Point(x: 0, y: bad), pageTime: 1_000)
        let error = #expect(throws: ListModelError.self) { try model.apply(.wheel(wheel), at: Self.start) }
        #expect(error?.message == "wheel deltas must be finite and at most 1000000 px")
    }

    @Test func aNonFinitePageTimeIsRefused() throws {
        var model = try Self.draggedModel()
        let move = TouchInput(phase: .move, delta: Point(x: 0, y: 5), pageTime: .nan)
        let error = #expect(throws: ListModelError.self) { try model.apply(.touch(move), at: Self.start) }
        #expect(error?.message == "touch.t must be a finite number of milliseconds")
    }

    @Test func theLargestDeltaIsAccepted() throws {
        var model = try Self.draggedModel()
        let move = TouchInput(phase: .move, delta: Point(x: 0, y: 1_000_000), pageTime: 1_016)
        try model.apply(.touch(move), at: Timestamp(microseconds: 1_016_000))
        #expect(model.frame().phase == .dragging)
    }
}
