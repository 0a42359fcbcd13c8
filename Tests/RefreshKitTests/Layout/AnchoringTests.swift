import RefreshKit
import Testing

extension LayoutTests {
    @Suite struct AnchoringTests {
        /// One random change at `offset`; returns the rows it put above every row (`shift`) and the correction.
        static func randomChange(
            _ layout: inout RowLayout, offset: Double, random: inout SeededGenerator, next: inout Int,
            height: (inout SeededGenerator) -> Double
        ) throws -> (shift: Int, correction: Double) {
            switch random.index(7) {
            case 0:
                let ids = rowIDs("n", next, 1 + random.index(20))
                next += ids.count
                return (ids.count, try layout.insertOnTop(ids, contentOffset: offset))
            case 1:
                let ids = rowIDs("n", next, 1 + random.index(20))
                next += ids.count
                return (0, try layout.append(ids, contentOffset: offset))
            case 2:
                let edge: PageEdge = random.index(2) == 0 ? .above : .below
                return (0, layout.pageSizes.count > 1 ? layout.dropPage(at: edge, contentOffset: offset) : 0)
            case 3:
                let edge: PageEdge = random.index(2) == 0 ? .above : .below
                let room = edge == .above ? layout.placeholdersAbove : layout.placeholdersBelow
                guard room > 0 else { return (0, 0) }
                let ids = rowIDs("n", next, 1 + random.index(min(room, 20)))
                next += ids.count
                return (0, try layout.loadPage(ids, at: edge, contentOffset: offset))
            default:
                guard !layout.heldIDs.isEmpty else { return (0, 0) }
                let batch = (0..<(1 + random.index(50))).map { _ in
                    RowMeasurement(id: layout.heldIDs[random.index(layout.heldIDs.count)], height: height(&random))
                }
                return (0, try layout.measure(batch, contentOffset: offset))
            }
        }

        /// Runs `steps` random changes (offsets on a ¼ px grid when `onGrid`) and returns the largest move of the
        /// anchor's top on screen.
        static func largestMove(
            seed: UInt64, estimate: Double, steps: Int, onGrid: Bool, height: (inout SeededGenerator) -> Double
        ) throws -> Double {
            var random = SeededGenerator(seed: seed)
            var layout = RowLayout(estimatedHeight: estimate, maxHeldRows: 150)
            var next = 0
            for _ in 0..<5 {
                _ = try layout.append(rowIDs("n", next, 20), contentOffset: 0)
                next += 20
            }
            var offset = 1.0
            var largest = 0.0
            for step in 0..<steps {
                if step % 10 == 0 {
                    // On a device pixel grid (¼ px) when the heights are; anywhere otherwise.
                    let wide = random.uniform(1, max(2, layout.contentHeight - 700))
                    offset = onGrid ? (wide * 4).rounded() / 4 : wide
                }
                let anchor = try #require(layout.anchor(at: offset))
                let screen = layout.screenY(ofRow: anchor.row, contentOffset: offset)
                let change = try randomChange(&layout, offset: offset, random: &random, next: &next, height: height)
                offset += change.correction
                let row = anchor.row + change.shift
                if let id = anchor.id, layout.row(of: id) != nil { #expect(layout.row(of: id) == row) }
                largest = max(largest, abs(layout.screenY(ofRow: row, contentOffset: offset) - screen))
                if step % 50 == 0 { offset += layout.trim(contentOffset: offset, viewportHeight: 700) }
            }
            return largest
        }

        @Test(
            "Heights and offsets in quarter pixels: the first visible row does not move at all through 5 000 random changes"
        )
        func exactWithDyadicHeights() throws {
            let move = try Self.largestMove(seed: 31, estimate: 72, steps: 5_000, onGrid: true) { random in
                Double(1 + random.index(2_000)) / 4
            }
            #expect(move == 0)
        }

        @Test("Any heights: the first visible row moves by less than a millionth of a px (target 1 px)")
        func withinAPixelWithAnyHeights() throws {
            let move = try Self.largestMove(seed: 32, estimate: 61.3, steps: 5_000, onGrid: false) { random in
                random.uniform(0.5, 900)
            }
            #expect(move < 1e-6)
        }

        @Test("Changes below the first visible row return exactly 0")
        func belowReturnsZero() throws {
            var random = SeededGenerator(seed: 33)
            var layout = RowLayout(estimatedHeight: 61.3, maxHeldRows: 1_000)
            _ = try layout.append(rowIDs("r", 0, 100), contentOffset: 0)
            _ = try layout.measure(
                layout.heldIDs.map { RowMeasurement(id: $0, height: random.uniform(10, 300)) }, contentOffset: 0)
            let offset = layout.y(ofRow: 40) + 7.7
            for _ in 0..<200 {
                let row = 41 + random.index(59)
                let batch = [RowMeasurement(id: "r\(row)", height: random.uniform(10, 300))]
                #expect(try layout.measure(batch, contentOffset: offset) == 0)
            }
            #expect(try layout.append(rowIDs("s", 0, 30), contentOffset: offset) == 0)
            #expect(layout.dropPage(at: .below, contentOffset: offset) == 0)
        }

        @Test("Inserted on top while scrolled down: the correction is their height, the row read stays still")
        func insertWhileScrolled() throws {
            var layout = RowLayout(estimatedHeight: 72, maxHeldRows: 1_000)
            _ = try layout.append(rowIDs("r", 0, 20), contentOffset: 0)
            let offset = 3 * 72 + 10.0
            #expect(try layout.insertOnTop(rowIDs("n", 0, 3), contentOffset: offset) == 216)
            #expect(layout.y(of: "r3") == offset + 216 - 10)
            let before = layout
            #expect(throws: LayoutError.duplicateRow(id: "r5")) {
                try layout.insertOnTop(["z", "r5"], contentOffset: offset)
            }
            #expect(throws: LayoutError.duplicateRow(id: "z")) {
                try layout.insertOnTop(["z", "y", "z"], contentOffset: offset)
            }
            #expect(layout == before)
        }

        @Test("Inserted on top when the top is not held: placeholders on top, the row read still")
        func insertAbovePlaceholders() throws {
            var layout = RowLayout(estimatedHeight: 72, maxHeldRows: 40)
            for page in 0..<4 { _ = try layout.append(rowIDs("r", page * 20, 20), contentOffset: 0) }
            var offset = 70 * 72.0 + 5
            offset += layout.trim(contentOffset: offset, viewportHeight: 300)
            #expect(layout.placeholdersAbove == 40)
            let screen = try #require(layout.y(of: "r70")) - offset
            offset += try layout.insertOnTop(rowIDs("n", 0, 3), contentOffset: offset)
            #expect(layout.placeholdersAbove == 43 && layout.row(of: "r70") == 73)
            #expect(try #require(layout.y(of: "r70")) - offset == screen)
        }

        @Test(
            "At the top (offset 0 or pulled past it) new rows on top are shown: no correction", arguments: [0, -40.0])
        func atTheTopNewRowsShow(offset: Double) throws {
            var layout = RowLayout(estimatedHeight: 72, maxHeldRows: 1_000)
            _ = try layout.append(rowIDs("r", 0, 20), contentOffset: 0)
            #expect(try layout.insertOnTop(rowIDs("n", 0, 3), contentOffset: offset) == 0)
            #expect(layout.id(ofRow: 0) == "n0")
            #expect(layout.anchor(at: offset)?.id == "n0")
            #expect(try layout.measure([RowMeasurement(id: "n0", height: 300)], contentOffset: offset) == 0)
        }
    }
}
