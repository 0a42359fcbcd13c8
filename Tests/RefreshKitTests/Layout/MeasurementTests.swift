import RefreshKit
import Testing

extension LayoutTests {
    @Suite struct MeasurementTests {
        static func layout() throws -> RowLayout {
            var layout = RowLayout(estimatedHeight: 72, maxHeldRows: 100)
            _ = try layout.append(rowIDs("r", 0, 20), contentOffset: 0)
            _ = try layout.measure([RowMeasurement(id: "r3", height: 90)], contentOffset: 0)
            return layout
        }

        @Test(
            "An out-of-range height is refused naming the row, and the whole batch changes nothing",
            arguments: [Double.nan, .infinity, -.infinity, 0, -1, RowLayout.maximumRowHeight.nextUp, 1e9])
        func outOfRange(height: Double) throws {
            let before = try Self.layout()
            var layout = before
            let batch = [RowMeasurement(id: "r1", height: 50), RowMeasurement(id: "r7", height: height)]
            var refused: LayoutError?
            do { _ = try layout.measure(batch, contentOffset: 500) } catch { refused = error }
            guard case .heightOutOfRange(let id, _) = refused else {
                Issue.record("expected heightOutOfRange, got \(String(describing: refused))")
                return
            }
            #expect(id == "r7")
            #expect(layout == before)
        }

        @Test("An unknown id is refused naming it, and the batch changes nothing")
        func unknownRow() throws {
            let before = try Self.layout()
            var layout = before
            let batch = [RowMeasurement(id: "r1", height: 50), RowMeasurement(id: "nope", height: 40)]
            #expect(throws: LayoutError.unknownRow(id: "nope")) { try layout.measure(batch, contentOffset: 0) }
            #expect(layout == before)
            #expect(LayoutError.unknownRow(id: "nope").description.contains("nope"))
        }

        @Test("The maximum height is accepted; a row named twice takes its last height")
        func boundaryAndRepeats() throws {
            var layout = try Self.layout()
            _ = try layout.measure(
                [
                    RowMeasurement(id: "r0", height: RowLayout.maximumRowHeight),
                    RowMeasurement(id: "r1", height: 10), RowMeasurement(id: "r1", height: 20),
                ], contentOffset: 0)
            #expect(layout.height(ofRow: 0) == RowLayout.maximumRowHeight)
            #expect(layout.height(ofRow: 1) == 20)
        }

        @Test("Forgetting the measurements (a new width) puts the rows back at the estimate, the anchor kept")
        func forget() throws {
            var layout = try Self.layout()
            let offset = 600.0
            let screen = layout.screenY(ofRow: 8, contentOffset: offset)
            let correction = layout.forgetMeasurements(contentOffset: offset)
            #expect(correction == -18)
            #expect(layout.screenY(ofRow: 8, contentOffset: offset + correction) == screen)
            #expect(!layout.isMeasured(row: 3))
        }
    }
}
