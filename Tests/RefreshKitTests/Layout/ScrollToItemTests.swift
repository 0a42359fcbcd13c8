import Foundation
import Testing

@testable import RefreshKit

/// `scrollToItem` (docs/PROTOCOL.md, "scrollToItem"): the row lands at its alignment exactly, at once or animated,
/// and is held there while the rows around it are measured (docs/LAYOUT.md, "Anchoring"), until a gesture lets it go.
@Suite struct ScrollToItemTests {
    typealias Wiring = LayoutWiringTests

    /// A model on an external feed with items 1000…901 loaded (72 px rows until measured, a 700 px viewport).
    static func loaded() throws -> ModelDriver { try Wiring.loaded() }

    /// The id of the held row, if any.
    static func held(_ driver: ModelDriver) -> String? {
        driver.model.pager.heldRow.flatMap { driver.model.rowLayout.id(ofRow: $0) }
    }

    static func scroll(
        _ driver: inout ModelDriver, to item: ItemTarget, align: ItemAlignment = .start, animated: Bool = false
    ) throws(ListModelError) {
        try driver.apply(.command(Command(.scrollToItem, animated: animated, item: item, align: align)))
    }

    @Test(arguments: [ItemAlignment.start, .center, .end])
    func itLandsAtItsAlignmentAtOnce(_ align: ItemAlignment) throws {
        var driver = try Self.loaded()
        try Self.scroll(&driver, to: .id("950"), align: align)
        let top = try Wiring.screenY(driver, "950")
        let expected: Double =
            switch align {
            case .start: 0
            case .center: 350 - 36
            case .end: 700 - 72
            }
        #expect(top == expected)
        #expect(Self.held(driver) == "950")
    }

    @Test func animatedItLandsAtTheSamePlaceOnceTheSpringSettles() throws {
        var driver = try Self.loaded()
        try Self.scroll(&driver, to: .id("930"), align: .center, animated: true)
        #expect(driver.model.scroll.phase == .animating)
        driver.settle()
        #expect(abs(try Wiring.screenY(driver, "930") - (350 - 36)) <= 0.5)
    }

    @Test func anIndexNamesARowOfTheWholeList() throws {
        var driver = try Self.loaded()
        try Self.scroll(&driver, to: .index(10))
        #expect(try Wiring.screenY(driver, "990") == 0)
        // Past the end of the content, the offset stops at its bound: the last row is in view, at the bottom.
        try Self.scroll(&driver, to: .index(99))
        #expect(Self.held(driver) == "901")
        let last = try Wiring.screenY(driver, "901")
        #expect(last > 0 && last + 72 <= 700)
    }

    /// (An id not loaded is asked of the source: JumpTests. The engine's own feed refuses it.)
    @Test func anIndexOutOfRangeIsRefusedAndNothingMoves() throws {
        var driver = try Self.loaded()
        try Self.scroll(&driver, to: .id("950"))
        let before = driver.model
        #expect(throws: ListModelError.self) { try Self.scroll(&driver, to: .index(100)) }
        #expect(throws: ListModelError.self) { try Self.scroll(&driver, to: .index(-1)) }
        #expect(throws: ListModelError.self) { try driver.apply(.command(Command(.scrollToItem))) }
        #expect(driver.model == before)
    }

    @Test(arguments: [ItemAlignment.center, .end])
    func theHeldRowStaysStillWhileTheRowsAboveItOnScreenAreMeasured(_ align: ItemAlignment) throws {
        var driver = try Self.loaded()
        try Self.scroll(&driver, to: .id("930"), align: align)
        let landed = try Wiring.screenY(driver, "930")
        // The rows between the viewport's top and the held row, then the held row itself and rows below, measured
        // at other heights, in batches, as the page lays them out.
        try Wiring.measure(&driver, (931...945).map { ($0, 110.25) })
        #expect(abs(try Wiring.screenY(driver, "930") - landed) <= 1e-9)
        try Wiring.measure(&driver, [(930, 40), (929, 300), (928, 90)])
        #expect(abs(try Wiring.screenY(driver, "930") - landed) <= 1e-9)
        // Not the first visible row: without the hold, that one would have been kept and this one pushed down.
        #expect(try Wiring.firstVisible(driver) != "930")
    }

    @Test func aGestureLetsTheHeldRowGoAndTheFirstVisibleRowIsKeptAgain() throws {
        var driver = try Self.loaded()
        try Self.scroll(&driver, to: .id("930"), align: .end)
        try driver.touch(.start)
        #expect(driver.model.pager.heldRow == nil)
        try driver.touch(.end)
        driver.settle()
        let first = try Wiring.firstVisible(driver)
        let firstY = try Wiring.screenY(driver, first)
        try Wiring.measure(&driver, (931...945).map { ($0, 110.25) })
        #expect(abs(try Wiring.screenY(driver, first) - firstY) <= 1e-9)
    }

    @Test func anotherScrollLetsItGoAndRowsOnTopKeepItHeld() throws {
        var driver = try Self.loaded()
        try Self.scroll(&driver, to: .id("930"), align: .center)
        let landed = try Wiring.screenY(driver, "930")
        // A refresh's 20 new rows above: the held row stays where it is on screen.
        try Wiring.startRefresh(&driver)
        try Wiring.answer(&driver, Wiring.twentyNew)
        #expect(abs(try Wiring.screenY(driver, "930") - landed) <= 1e-9)
        #expect(Self.held(driver) == "930")
        try driver.apply(.command(Command(.scrollBy, animated: false, amount: 100)))
        #expect(driver.model.pager.heldRow == nil)
    }

    @Test func theHeldRowIsPartOfTheModelsSnapshot() throws {
        var driver = try Self.loaded()
        try Self.scroll(&driver, to: .id("930"), align: .end)
        let copy = try JSONDecoder().decode(ListModel.self, from: JSONEncoder().encode(driver.model))
        #expect(copy.pager.heldRow == driver.model.pager.heldRow && copy.pager.heldRow != nil)
        #expect(copy == driver.model)
    }
}
