import Foundation
import RefreshKit
import Testing

extension LayoutTests {
    @Suite struct RowLayoutTests {
        @Test("Rows are at the estimate until measured; positions and the content height follow the measurements")
        func estimateThenMeasured() throws {
            var layout = RowLayout(estimatedHeight: 72, maxHeldRows: 100)
            _ = try layout.append(rowIDs("r", 0, 10), contentOffset: 0)
            #expect(layout.contentHeight == 720)
            #expect(layout.y(ofRow: 3) == 216)
            #expect(!layout.isMeasured(row: 2))
            _ = try layout.measure(
                [RowMeasurement(id: "r1", height: 100), RowMeasurement(id: "r2", height: 40.5)], contentOffset: 0)
            #expect(layout.isMeasured(row: 2))
            #expect(layout.height(ofRow: 1) == 100)
            #expect(layout.y(ofRow: 3) == 212.5)  // 72 + 100 + 40.5
            #expect(layout.y(of: "r3") == 212.5)
            #expect(layout.contentHeight == 716.5)  // 720 + 28 − 31.5
            #expect(layout.row(at: 0) == 0)
            #expect(layout.row(at: 171.9) == 1)
            #expect(layout.row(at: 172) == 2)
            #expect(layout.row(at: -50) == 0)
            #expect(layout.row(at: 1e9) == 9)
            #expect(layout.row(of: "r9") == 9)
            #expect(layout.id(ofRow: 4) == "r4")
        }

        @Test("The row at a row's y is that row, through placeholders and held rows of random heights")
        func rowAtYRoundTrips() throws {
            var random = SeededGenerator(seed: 21)
            var layout = RowLayout(estimatedHeight: 61.3, maxHeldRows: 40)
            for page in 0..<30 { _ = try layout.append(rowIDs("r", page * 10, 10), contentOffset: 0) }
            _ = layout.trim(contentOffset: 900, viewportHeight: 600)
            _ = try layout.insertOnTop(rowIDs("n", 0, 7), contentOffset: 0)
            let held = layout.heldIDs.map { RowMeasurement(id: $0, height: random.uniform(20, 500)) }
            _ = try layout.measure(held, contentOffset: 0)
            for row in 0..<layout.rowCount {
                #expect(layout.row(at: layout.y(ofRow: row)) == row)
                #expect(layout.y(ofRow: row) < layout.y(ofRow: row + 1))
            }
            #expect(layout.y(ofRow: layout.rowCount) == layout.contentHeight)
        }

        @Test("A layout encodes and decodes to an equal value (engine snapshots store it through Codable)")
        func codableRoundTrip() throws {
            var layout = RowLayout(estimatedHeight: 72, maxHeldRows: 30)
            for page in 0..<5 { _ = try layout.append(rowIDs("r", page * 10, 10), contentOffset: 0) }
            _ = try layout.measure([RowMeasurement(id: "r12", height: 33.3)], contentOffset: 0)
            _ = layout.trim(contentOffset: 2000, viewportHeight: 500)
            let decoded = try JSONDecoder().decode(RowLayout.self, from: JSONEncoder().encode(layout))
            #expect(decoded == layout)
            #expect(decoded.y(ofRow: 37) == layout.y(ofRow: 37))
        }
    }
}
