import Testing

@testable import RefreshKit

/// The window's size (docs/LAYOUT.md, "The window's size"): the prefetch distance and the rows held, derived
/// from the page size, the estimate and the viewport.
@Suite struct WindowSizeTests {
    @Test func pagesOfTwentyOnAPhoneHoldTwoPages() {
        let size = WindowSize(pageSize: 20, estimatedHeight: 72, viewportHeight: 844)
        // (1 440 − 844) / 2: the viewport and a prefetch each way are one page tall.
        #expect(size.prefetch == 298)
        #expect(size.pages == 2)
        #expect(size.heldRows == 40)
        // Paging 3's rule, in rows at the estimate: maxSize ≥ pageSize + 2 × prefetchDistance.
        #expect(Double(size.heldRows) >= 20 + 2 * size.prefetch / 72)
    }

    @Test func largePagesPrefetchAScreenAndHoldTwoPages() {
        let size = WindowSize(pageSize: 50, estimatedHeight: 72, viewportHeight: 844)
        #expect(size.prefetch == 844)
        #expect(size.heldRows == 100)
        #expect(WindowSize(pageSize: 200, estimatedHeight: 72, viewportHeight: 844).heldRows == 400)
    }

    @Test func pagesShorterThanTheScreenPrefetchAQuarterScreenAndHoldMorePages() {
        // Pages of 5 rows (360 px) on a phone: a quarter screen each way, 1 266 px to hold: 5 pages.
        let size = WindowSize(pageSize: 5, estimatedHeight: 72, viewportHeight: 844)
        #expect(size.prefetch == 211)
        #expect(size.pages == 1 + 4)
        #expect(size.heldRows == 25)
        // A tall desktop list with pages of 20: 1 300 px and a quarter of it each way.
        let desktop = WindowSize(pageSize: 20, estimatedHeight: 72, viewportHeight: 1_300)
        #expect(desktop.prefetch == 325)
        #expect(desktop.pages == 3)
    }

    /// Wherever the viewport lies, the pages that hold it and a prefetch distance each way are at most
    /// ``WindowSize/pages``: the window never needs to drop a page that is on screen or within the prefetch.
    @Test(arguments: [(20, 844.0), (20, 1_300.0), (5, 844.0), (50, 844.0), (7, 600.0), (1, 844.0), (1_000, 300.0)])
    func thePagesHoldTheViewportAndThePrefetchWhereverItLies(_ pageSize: Int, _ viewport: Double) {
        let size = WindowSize(pageSize: pageSize, estimatedHeight: 72, viewportHeight: viewport)
        let pageHeight = Double(pageSize) * 72
        for step in 0..<400 {
            let offset = 5_000 + Double(step) * pageHeight / 97
            let top = offset - size.prefetch
            let bottom = offset + viewport + size.prefetch
            // Pages meeting [top, bottom): page k spans [k × pageHeight, (k + 1) × pageHeight).
            let first = Int((top / pageHeight).rounded(.down))
            let last = Int((bottom / pageHeight).rounded(.up)) - 1
            #expect(last - first + 1 <= size.pages, "offset \(offset)")
        }
    }

    @Test func noViewportHoldsTwoPages() {
        let size = WindowSize(pageSize: 20, estimatedHeight: 72, viewportHeight: 0)
        #expect(size.prefetch == 0)
        #expect(size.heldRows == 40)
        #expect(WindowSize(pageSize: 20, estimatedHeight: 72, viewportHeight: .nan).heldRows == 40)
    }
}
