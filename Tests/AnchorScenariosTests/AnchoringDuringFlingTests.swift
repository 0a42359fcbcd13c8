import RefreshKit
import Testing

@testable import AnchorScenarios

/// The three anchoring scenarios of `make bench` (docs/PERFORMANCE.md, "Rows: anchoring") at a small size: during
/// a fling the first visible row stays within ``AnchorFigures/targetPx`` of where the fling alone puts it while
/// rows are inserted above it, rows above are measured again, and pictures above load; the fling keeps its
/// velocity, and the offset moves by exactly what the rows above grew.
@Suite struct AnchoringDuringFlingTests {
    /// 150 rows read, the fling starting at the 100th: the first row of a page (of 50), so the window holds the
    /// 50 rows of the page above it (a page and a screen each way: docs/LAYOUT.md, "The window's size").
    static let scenario = AnchorScenario(loadedRows: 150, startRow: 100)

    @Test(arguments: AnchorCase.allCases)
    func theFirstVisibleRowHoldsStillDuringAFling(_ kind: AnchorCase) throws {
        let figures = try Self.scenario.run(kind)
        #expect(figures.maxErrorPx <= AnchorFigures.targetPx, "\(kind): \(figures.maxErrorPx) px")
        #expect(figures.maxDriftPx <= AnchorFigures.targetPx, "\(kind): drifted \(figures.maxDriftPx) px")
        #expect(figures.holds)
        let expected =
            switch kind {
            case .rowsInserted: [Self.scenario.insertFrame]
            case .rowsRemeasured: [Self.scenario.remeasureFrame]
            case .imagesLoaded: Self.scenario.imageFrames
            }
        #expect(figures.changes.map(\.frame) == expected)
        for change in figures.changes {
            // A real change above the visible row, followed by the offset, the fling's velocity untouched.
            #expect(change.grownPx > 1, "\(kind) at frame \(change.frame) grew \(change.grownPx) px")
            #expect(abs(change.correctionPx - change.grownPx) <= 1e-6, "\(kind) at frame \(change.frame)")
            #expect(change.velocityAfter == change.velocityBefore)
            #expect(abs(change.velocityBefore) > 100, "still flinging")
        }
        // The fling ran on past the last change and came to rest.
        #expect(figures.frames > (expected.max() ?? 0) + 10)
    }

    @Test func theCasesChangeWhatTheySay() throws {
        let inserted = try Self.scenario.run(.rowsInserted).changes.map(\.rows)
        let remeasured = try Self.scenario.run(.rowsRemeasured).changes.map(\.rows)
        let images = try Self.scenario.run(.imagesLoaded).changes.map(\.rows)
        #expect(inserted == [Self.scenario.insertedRows])
        #expect(remeasured == [Self.scenario.remeasuredRows])
        #expect(images == Array(repeating: Self.scenario.imagesPerBatch, count: Self.scenario.imageFrames.count))
    }

    @Test func theMeasureSeesARowThatMovesOtherwiseThanTheFling() throws {
        // A finger that stops the fling: from that frame the row stays where the twin's goes on moving.
        let scenario = Self.scenario
        let session = try scenario.scrolledToStart(ScriptedFeed(items: 600))
        var flung = session
        try scenario.fling(&flung)
        var twins = FlingTwins(session: flung, feed: ScriptedFeed(items: 600), frameLimit: 60)
        let figures = try twins.run(.rowsRemeasured, changes: [3: .touchDown])
        let velocity = try #require(figures.changes.first?.velocityBefore)
        // The twin moves about velocity / 60 px in the frame after the catch; the session hardly at all.
        #expect(figures.maxErrorPx > abs(velocity) / 60 * 0.8, "\(figures.maxErrorPx) px at \(velocity) px/s")
        #expect(!figures.holds)
        #expect(figures.maxDriftPx > 100)
    }

    @Test func theFeedPagesAndThePageMeasuresAsASourceAndAPageWould() {
        let feed = ScriptedFeed(items: 120)
        let newest = feed.page(for: FeedRequest(.newest, limit: 50))
        #expect(newest.items.map(\.id).prefix(2) == ["120", "119"])
        #expect(newest.items.count == 50)
        let older = feed.page(for: FeedRequest(.olderThan(FeedCursor("71")), limit: 50))
        #expect(older.items.first?.id == "70")
        #expect(older.items.last?.id == "21")
        let last = feed.page(for: FeedRequest(.olderThan(FeedCursor("21")), limit: 50))
        #expect(last.items.count == 20)
        #expect(!last.hasMore)
        var page = PageRows(width: 390)
        let plain = page.height(of: 3)
        page.loadImage(of: 3)
        #expect(page.height(of: 3) > plain + 150)
        page.font = .web
        #expect(page.height(of: 4) != PageRows(width: 390).height(of: 4))
    }
}
