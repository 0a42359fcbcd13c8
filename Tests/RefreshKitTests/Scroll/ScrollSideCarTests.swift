import Foundation
import Testing

@testable import RefreshKit

/// What only wheels, commands and timed inset moves use is held apart, and only while it is set (docs/PERFORMANCE.md,
/// "Memory per connected session"): a model that only drags holds none of it, one that held it lets it go once it
/// is clear, and a model's copies, equality and coding are what they were with the members inline.
@Suite struct ScrollSideCarTests {
    static func driver(_ preset: String = "ios") throws -> ModelDriver {
        try ModelDriver(preset: preset)
    }

    @Test func dragsAndFlingsHoldNoSideCar() throws {
        var driver = try Self.driver()
        try driver.drag(dy: -600, steps: 12)
        driver.settle()
        try driver.drag(dy: 300, steps: 12)
        driver.settle()
        #expect(!driver.model.scroll.sideCar.isHeld)
    }

    @Test func aWheelAndACommandHoldItUntilTheyEnd() throws {
        var driver = try Self.driver()
        try driver.wheel(dy: 40)
        #expect(driver.model.scroll.sideCar.isHeld && driver.model.scroll.isWheeling)
        driver.settle()
        // What is left of a wheel gesture that did not end on momentum: nothing.
        #expect(!driver.model.scroll.sideCar.isHeld)
        try driver.apply(.command(Command(.scrollByPage, amount: 1)))
        #expect(driver.model.scroll.sideCar.isHeld, "the command's target")
        driver.settle()
        #expect(!driver.model.scroll.sideCar.isHeld, "the command's scroll ended")
    }

    @Test func aCopyChangesOnlyItself() throws {
        var driver = try Self.driver()
        try driver.wheel(dy: 40)
        let before = driver.model.scroll
        var copy = driver.model.scroll
        _ = copy.wheel(WheelInput(delta: Point(x: 0, y: 25), pageTime: 20))
        #expect(copy.sideCar.members.wheel != before.sideCar.members.wheel)
        #expect(driver.model.scroll == before)
        #expect(driver.model.scroll.sideCar.members == before.sideCar.members)
    }

    @Test func equalityAndCodingSeeTheMembersNotTheObject() throws {
        var driver = try Self.driver()
        try driver.wheel(dy: 40)
        let scroll = driver.model.scroll
        let data = try JSONEncoder().encode(scroll)
        let decoded = try JSONDecoder().decode(ScrollModel.self, from: data)
        #expect(decoded == scroll)
        let keys = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]).keys
        #expect(keys.contains("wheel") && !keys.contains("swallowedWheel") && !keys.contains("commandTarget"))
        #expect(!keys.contains("sideCar"))
        // A clear side-car and one never made are equal, and hash alike.
        var cleared = ScrollSideCar()
        cleared.commandTarget = Point(x: 0, y: 1)
        cleared.commandTarget = nil
        #expect(!cleared.isHeld && cleared == ScrollSideCar() && cleared.hashValue == ScrollSideCar().hashValue)
    }
}
