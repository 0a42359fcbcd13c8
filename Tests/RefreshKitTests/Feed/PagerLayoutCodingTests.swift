import Foundation
import Testing

@testable import RefreshKit

/// The pager keeps its layout without the rows' ids, which are its loaded items' (docs/PERFORMANCE.md, "Memory per
/// connected session"): its layout is made from the two, is coded as it was when it kept the ids, and a coded
/// layout whose ids are not the items' is refused.
@Suite struct PagerLayoutCodingTests {
    static func pager() throws -> SourcePager {
        var driver = try ModelDriver()
        try driver.drag(dy: -3000, steps: 30)
        driver.settle()
        return driver.model.pager
    }

    @Test func theLayoutsIdsAreTheItems() throws {
        let pager = try Self.pager()
        #expect(pager.layout.heldIDs == pager.items.map(\.id))
        #expect(pager.layout.heldRowCount == pager.geometry.heldRowCount && pager.layout.rowCount > 20)
    }

    @Test func aPagerIsCodedWithItsLayoutsIds() throws {
        let pager = try Self.pager()
        let data = try JSONEncoder().encode(pager)
        let decoded = try JSONDecoder().decode(SourcePager.self, from: data)
        #expect(decoded == pager)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let layout = try #require(object["layout"] as? [String: Any])
        #expect(layout["heldIDs"] as? [String] == pager.items.map(\.id))
    }

    @Test func aLayoutWhoseIdsAreNotTheItemsIsRefused() throws {
        let data = try JSONEncoder().encode(try Self.pager())
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var layout = try #require(object["layout"] as? [String: Any])
        var ids = try #require(layout["heldIDs"] as? [String])
        ids.swapAt(0, 1)
        layout["heldIDs"] = ids
        object["layout"] = layout
        let spoiled = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SourcePager.self, from: spoiled) }
    }
}
