import RefreshKit
import Testing

extension LayoutTests {
    @Suite struct WindowTests {
        static let total = 100_000
        static let pageSize = 20

        /// A row's real height, as a page would measure it: 40 to 239.75 px in quarter pixels.
        static func height(_ row: Int) -> Double { 40 + Double((row &* 7_919) % 800) / 4 }

        /// Loads what the viewport needs (pages back from placeholders, new pages at the end), measures the
        /// visible rows and trims; returns the offset corrected and checks the first visible row kept still.
        static func settle(_ layout: inout RowLayout, offset start: Double, viewport: Double) throws -> Double {
            var offset = start
            func keep(_ change: (inout RowLayout, Double) throws -> Double) throws {
                let anchor = layout.anchor(at: offset)
                let screen = anchor.map { layout.screenY(ofRow: $0.row, contentOffset: offset) }
                offset += try change(&layout, offset)
                if let anchor, let screen, offset > 0 {
                    #expect(layout.screenY(ofRow: anchor.row, contentOffset: offset) == screen)
                }
            }
            while let edge = layout.pageNeeded(contentOffset: offset, viewportHeight: viewport, prefetch: 400) {
                let first =
                    edge == .above
                    ? max(0, layout.placeholdersAbove - pageSize) : layout.placeholdersAbove + layout.heldRowCount
                let count = edge == .above ? layout.placeholdersAbove - first : min(pageSize, layout.placeholdersBelow)
                try keep { try $0.loadPage(rowIDs("", first, count), at: edge, contentOffset: $1) }
            }
            let loaded = layout.rowCount
            if layout.placeholdersBelow == 0, loaded < total, offset + viewport + 400 > layout.heldBottom {
                try keep { try $0.append(rowIDs("", loaded, min(pageSize, total - loaded)), contentOffset: $1) }
            }
            let first = layout.row(at: offset) ?? 0
            let last = layout.row(at: offset + viewport) ?? 0
            let visible = (first...last).compactMap { row in
                layout.id(ofRow: row).map { RowMeasurement(id: $0, height: height(row)) }
            }
            try keep { try $0.measure(visible, contentOffset: $1) }
            try keep { layout, offset in layout.trim(contentOffset: offset, viewportHeight: viewport) }
            return offset
        }

        @Test("100 000 rows walked top to end and back: the rows held stay within the window; pages come back")
        func walkIsBounded() throws {
            var layout = RowLayout(estimatedHeight: 72, maxHeldRows: 120)
            let viewport = 800.0
            _ = try layout.append(rowIDs("", 0, Self.pageSize), contentOffset: 0)
            var offset = 0.0
            var mostHeld = 0
            var mostPages = 0
            func step(_ delta: Double) throws {
                offset = min(max(offset + delta, 0), max(0, layout.contentHeight - viewport))
                offset = try Self.settle(&layout, offset: offset, viewport: viewport)
                mostHeld = max(mostHeld, layout.heldRowCount)
                mostPages = max(mostPages, layout.pageSizes.count)
                #expect(layout.heldRowCount <= layout.maxHeldRows)
            }
            while layout.rowCount < Self.total || layout.placeholdersBelow > 0
                || offset < layout.contentHeight - viewport
            {
                try step(1_500)
            }
            #expect(layout.rowCount == Self.total)
            #expect(layout.id(ofRow: Self.total - 1) == "\(Self.total - 1)")
            while offset > 0 || layout.placeholdersAbove > 0 { try step(-1_500) }
            #expect(mostHeld <= 120)
            #expect(mostPages <= 7)
            // Back at the top: the first pages came back, each row where its index says, measured again.
            #expect(layout.placeholdersAbove == 0)
            for row in 0..<layout.heldRowCount { #expect(layout.id(ofRow: row) == "\(row)") }
            #expect(layout.isMeasured(row: 0) && layout.height(ofRow: 0) == Self.height(0))
            #expect(layout.placeholdersBelow >= Self.total - 120)
        }

        @Test("A dropped page's rows fall back to the estimate; a page loaded back must fit its placeholders")
        func droppedRowsAreEstimates() throws {
            var layout = RowLayout(estimatedHeight: 72, maxHeldRows: 40)
            for page in 0..<4 { _ = try layout.append(rowIDs("r", page * 20, 20), contentOffset: 0) }
            _ = try layout.measure([RowMeasurement(id: "r5", height: 200)], contentOffset: 0)
            let offset = 70 * 72.0 + 128
            let correction = layout.trim(contentOffset: offset, viewportHeight: 300)
            #expect(correction == -128)
            #expect(layout.placeholdersAbove == 40 && layout.heldRowCount == 40)
            #expect(layout.height(ofRow: 5) == 72 && layout.id(ofRow: 5) == nil)
            #expect(throws: LayoutError.pageDoesNotFit(edge: .above, rows: 41, placeholders: 40)) {
                try layout.loadPage(rowIDs("x", 0, 41), at: .above, contentOffset: offset)
            }
            #expect(throws: LayoutError.duplicateRow(id: "r50")) {
                try layout.loadPage(["r50"], at: .above, contentOffset: offset)
            }
            #expect(try layout.loadPage(rowIDs("r", 20, 20), at: .above, contentOffset: offset) == 0)
            #expect(layout.row(of: "r20") == 20)
            #expect(layout.removePlaceholders(at: .above, contentOffset: offset) == -20 * 72)
            #expect(layout.row(of: "r20") == 0)
        }
    }
}
