import Foundation
import Testing

@testable import RefreshKit

/// A jump (docs/LAYOUT.md, "A jump"): `scrollToItem` to an item not loaded asks the source for the page around it;
/// the page replaces the rows, placed as many rows down as the source says are above it, and the item lands at the
/// command's alignment, held there while the rows around it are measured and while the window loads the rows above
/// it back. A source that cannot, or an id it does not have, fails the request and nothing moves.
@Suite struct JumpTests {
    typealias Driver = WindowWiringTests.Driver

    /// A model on a feed of items 1…2000 (2000 the newest), its first page (50 items) loaded.
    static func driver() throws -> Driver { try Driver(newest: 2000) }

    static func screenY(_ driver: Driver, _ id: String) throws -> Double {
        try #require(driver.layout.y(of: id)) - driver.model.scroll.offset.y
    }

    static func jump(_ driver: inout Driver, to id: String, align: ItemAlignment = .start) throws {
        try driver.apply(.command(Command(.scrollToItem, animated: false, item: .id(id), align: align)))
    }

    @Test(arguments: [ItemAlignment.start, .center, .end])
    func anItemNotLoadedLandsAtItsAlignmentAmongTheRowsAboveIt(_ align: ItemAlignment) throws {
        var driver = try Self.driver()
        try Self.jump(&driver, to: "1000", align: align)
        let request = try #require(driver.model.sourceRequest)
        #expect(request.kind == .jump && request.request.position == .around("1000"))
        #expect(request.landing == SourceRequest.Landing(align: align, animated: false))
        try driver.serve()
        // Row r is item 2000 − r: the page is placed where it lies in the feed, the rows above it placeholders.
        let layout = driver.layout
        #expect(layout.row(of: "1000") == 1000)
        #expect(layout.placeholdersAbove == 2000 - (1000 + 24))
        #expect(driver.rowsInPlace())
        let expected: Double =
            switch align {
            case .start: 0
            case .center: (844 - 72) / 2
            case .end: 844 - 72
            }
        #expect(try Self.screenY(driver, "1000") == expected)
        #expect(driver.model.pager.heldRow == 1000)
        // The pages learn the rows anew: a replace with the placeholders above.
        guard case .replaced(let items, let above, let below) = driver.updates.last?.change else {
            Issue.record("no replace: \(String(describing: driver.updates.last))")
            return
        }
        #expect(items.count == 50 && above == layout.placeholdersAbove && below == 0)
    }

    @Test func theItemStaysWhereItLandedWhileRowsAroundItAreMeasuredAndTheRowsAboveComeBack() throws {
        var driver = try Self.driver()
        try Self.jump(&driver, to: "1000", align: .center)
        try driver.serve()
        let landed = try Self.screenY(driver, "1000")
        let batch = (995...1010).map { RowMeasurement(id: "\($0)", height: 72 + Double($0 % 7) * 11.5) }
        try driver.apply(.measure(MeasureInput(width: 390, rows: batch)))
        #expect(abs(try Self.screenY(driver, "1000") - landed) <= 1e-9)
        // Scrolled up past the page's top: the window loads the rows above back, by the page's newer cursor.
        try driver.scroll(by: -900)
        #expect(driver.layout.row(of: "1030") == 970)
        #expect(driver.rowsInPlace())
    }

    @Test func anIdTheSourceDoesNotHaveOrASourceThatCannotFailsAndNothingMoves() throws {
        var driver = try Self.driver()
        try driver.apply(.command(Command(.scrollBy, animated: false, amount: 300)))
        let (rows, offset) = (driver.layout.heldIDs, driver.model.scroll.offset)
        // The source answers a page without the item (it has none such): refused as malformed.
        try Self.jump(&driver, to: "99999")
        try driver.serve()
        var last = try #require(driver.model.pager.answeredRequests.recent.last)
        guard case .failed(let failure) = last.outcome else {
            Issue.record("\(last.outcome)")
            return
        }
        #expect(failure.code == "malformed" && failure.message.contains("does not hold it"), "\(failure)")
        #expect(driver.layout.heldIDs == rows && driver.model.scroll.offset == offset)
        // A source that cannot find an item by its id says so.
        try Self.jump(&driver, to: "500")
        let id = try #require(driver.model.sourceRequest?.id)
        let cannot = FeedFailure(
            .unsupported("load a page around an item: a web feed is read from its first document on"))
        try driver.apply(.feedAnswer(FeedAnswerInput(request: id, outcome: .failure(cannot), durationMs: 2)))
        last = try #require(driver.model.pager.answeredRequests.recent.last)
        #expect(last.outcome == .failed(cannot))
        #expect(
            cannot.message
                == "The feed cannot load a page around an item: a web feed is read from its first document on.")
        #expect(driver.layout.heldIDs == rows && driver.model.scroll.offset == offset)
        #expect(driver.model.sourceRequest == nil)
    }

    /// The engine's own feed is walked page by page: an id it has not loaded is refused, naming how many it has.
    @Test func onTheSimulatedFeedAnIdNotLoadedIsRefused() throws {
        var driver = try ModelDriver()
        driver.settle()
        let before = driver.model
        do throws(ListModelError) {
            try driver.apply(.command(Command(.scrollToItem, item: .id("5"))))
            Issue.record("an id not loaded was accepted")
        } catch {
            #expect(error.reason == .unknownItem)
            #expect(error.message.contains("no item '5' among the"), "\(error.message)")
        }
        #expect(driver.model == before)
    }

    @Test func whileARefreshIsOnItsWayAJumpIsRefused() throws {
        var driver = try Self.driver()
        try driver.apply(.command(Command(.refresh, edge: .top, animated: false)))
        #expect(driver.model.sourceRequest?.kind == .refresh)
        do throws(ListModelError) {
            try driver.model.apply(
                .command(Command(.scrollToItem, animated: false, item: .id("1000"))), at: driver.now)
            Issue.record("a jump during a refresh was accepted")
        } catch {
            #expect(error.reason == .unknownItem)
            #expect(error.message.contains("a refresh is on its way"), "\(error.message)")
        }
        #expect(driver.model.sourceRequest?.kind == .refresh)
    }

    @Test func aJumpTakesThePlaceOfARunningLoadMore() throws {
        var driver = try Self.driver()
        try driver.apply(.command(Command(.loadMore, edge: .bottom, animated: false)))
        #expect(driver.model.sourceRequest?.kind == .nextPage)
        #expect(driver.model.control(.bottom).state == .refreshing)
        try Self.jump(&driver, to: "1200")
        #expect(driver.model.sourceRequest?.kind == .jump)
        #expect(driver.model.control(.bottom).state != .refreshing)
        try driver.serve()
        #expect(driver.layout.row(of: "1200") == 800)
    }

    /// A session coded with a jump on its way (a snapshot, a take-over) comes back with it, landing as asked.
    @Test func aRunningJumpIsCodedWithItsLanding() throws {
        var driver = try Self.driver()
        try driver.apply(.command(Command(.scrollToItem, animated: true, item: .id("700"), align: .end)))
        let decoded = try JSONDecoder().decode(ListModel.self, from: try JSONEncoder().encode(driver.model))
        #expect(decoded == driver.model)
        #expect(decoded.sourceRequest?.landing == SourceRequest.Landing(align: .end, animated: true))
    }

    /// A place kept (docs/PROTOCOL.md, "Your place, kept"): `offset` puts the row that far below its alignment, for a
    /// loaded row exactly and through a jump to a quarter pixel.
    @Test func anOffsetPutsTheRowThatFarBelowItsAlignment() throws {
        var driver = try Self.driver()
        try driver.apply(.command(Command(.scrollToItem, animated: false, amount: 30.5, item: .id("1990"))))
        #expect(try Self.screenY(driver, "1990") == -30.5)
        try driver.apply(.command(Command(.scrollToItem, animated: false, amount: 17.3, item: .id("1200"))))
        #expect(driver.model.sourceRequest?.landing?.offset == 17.25)
        try driver.serve()
        #expect(try Self.screenY(driver, "1200") == -17.25)
    }

    /// A new session that starts where its reader was: the jump takes the first load's place; when the source no
    /// longer has the item, the newest page is asked for instead, so the list is never left empty.
    @Test func aJumpTakesTheFirstLoadsPlaceAndFallsBackToTheNewestPage() throws {
        var configuration = Preset.ios.configuration
        configuration.feed.pageSize = 50
        configuration.feed.timeoutMs = 60_000
        var model = try ListModel(
            viewport: Size(width: 390, height: 844), starting: Preset(name: "external", configuration: configuration),
            feed: .external, time: Timestamp(microseconds: 1_000_000))
        #expect(model.sourceRequest?.kind == .firstLoad)
        try model.apply(
            .command(Command(.scrollToItem, animated: false, item: .id("gone"))), at: Timestamp(microseconds: 1_000_000)
        )
        let jump = try #require(model.sourceRequest)
        #expect(jump.kind == .jump)
        let failure = FeedFailure(.unknownItem("gone"))
        try model.apply(
            .feedAnswer(FeedAnswerInput(request: jump.id, outcome: .failure(failure), durationMs: 1)),
            at: Timestamp(microseconds: 1_002_000))
        #expect(model.sourceRequest?.kind == .firstLoad)
        #expect(model.sourceRequest?.request.position == .newest)
    }
}
