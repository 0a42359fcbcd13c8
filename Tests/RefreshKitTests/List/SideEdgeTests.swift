import Testing

@testable import RefreshKit

/// Left and right edges, on a list that is no wider than the viewport (it still bounces horizontally).
@Suite struct SideEdgeTests {
    func driver(_ edge: Edge) throws -> ModelDriver {
        var driver = try ModelDriver()
        var patch = ConfigurationPatch.EdgePatch()
        patch[\.enabled] = true
        patch[\.role] = .refresh
        patch[\.triggerDistance] = 80
        patch[\.restingInset] = 50
        patch[\.trigger] = .onRelease
        try driver.apply(.configure(ConfigurationPatch(edges: [edge: patch])))
        return driver
    }

    @Test func pullingTheLeftEdgeRefreshesIt() throws {
        var driver = try driver(.left)
        try driver.drag(dx: 300, steps: 15, release: false)
        #expect(driver.state(.left) == .armed)
        #expect(driver.state(.top) == .idle)
        driver.wait(80)
        try driver.touch(.end)
        driver.wait(700)
        #expect(abs(driver.offset.x - -50) < 1e-9)
        driver.settle()
        #expect(
            driver.transitions(.left) == [
                "disabled→idle", "idle→pulling", "pulling→armed", "armed→refreshing", "refreshing→finishing",
                "finishing→idle",
            ])
        #expect(driver.offset.x == 0)
    }

    @Test func pullingTheRightEdgeRefreshesIt() throws {
        var driver = try driver(.right)
        try driver.drag(dx: -300, steps: 15, release: false)
        #expect(driver.state(.right) == .armed)
        driver.wait(80)
        try driver.touch(.end)
        driver.wait(700)
        #expect(abs(driver.offset.x - 50) < 1e-9)
        driver.settle()
        #expect(driver.offset.x == 0)
        #expect(driver.events.filter { $0.name == .didEnd && $0.edge == .right }.count == 1)
    }
}
