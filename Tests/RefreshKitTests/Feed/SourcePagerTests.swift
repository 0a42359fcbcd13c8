import Foundation
import Testing

@testable import RefreshKit

/// The external pager through the model: the first request, answers, the deadline, stale answers, and the
/// merge rules (docs/FEEDS.md, "How answers reach the engine").
@Suite struct SourcePagerTests {
    /// A model on an external feed (pages of 5, a 2 s time limit), its first request running.
    func driver() throws -> ModelDriver {
        var driver = try ModelDriver()
        var configuration = Preset.ios.configuration
        configuration.feed.pageSize = 5
        configuration.feed.timeoutMs = 2_000
        let preset = Preset(name: "external", configuration: configuration)
        driver.model = try ListModel(
            viewport: Size(width: 390, height: 300), starting: preset, feed: .external,
            time: Timestamp(microseconds: driver.time))
        return driver
    }

    /// Item `n`: id "n", published at n s.
    static func item(_ n: Int) -> FeedItem {
        FeedItem(id: "\(n)", text: "item \(n)", timeMicros: Int64(n) * 1_000_000)
    }

    /// A page of items `ids` (newest first), its older cursor the last id.
    static func page(_ ids: [Int], hasMore: Bool = true) -> FeedPage {
        FeedPage(
            items: ids.map(item), olderCursor: ids.last.map { FeedCursor("\($0)") },
            newerCursor: ids.first.map { FeedCursor("\($0)") }, hasMore: hasMore)
    }

    /// Answers the running request with `outcome`.
    func answer(_ driver: inout ModelDriver, _ outcome: FeedOutcome) throws {
        let id = try #require(driver.model.sourceRequest?.id)
        try driver.apply(.feedAnswer(FeedAnswerInput(request: id, outcome: outcome, durationMs: 3)))
    }

    func ids(_ driver: ModelDriver) -> [String] { driver.model.pager.items.map(\.id) }

    @Test func theFirstPageIsAskedAtTheStartAndReplacesTheEmptyList() throws {
        var driver = try driver()
        let request = try #require(driver.model.sourceRequest)
        #expect(request.kind == .firstLoad && request.request == FeedRequest(.newest, limit: 5))
        #expect(driver.model.feedMode == .external)
        var frame = driver.model.frame()
        #expect(frame.feed.loading && frame.feed.count == 0)
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        #expect(ids(driver) == ["10", "9", "8", "7", "6"])
        #expect(driver.model.pager.lastRowsChange == .replaced)
        #expect(driver.model.sourceRequest == nil)
        frame = driver.model.frame()
        #expect(!frame.feed.loading && frame.feed.count == 5 && frame.feed.hasMore)
        #expect(frame.contentSize.height == 5 * driver.model.configuration.feed.rowHeight)
        #expect(driver.model.pager.answeredRequests.total == 1)
        #expect(driver.model.pager.answeredRequests.recent.last?.outcome == .loaded(items: 5))
    }

    @Test func noAnswerFailsTheRequestAtTheDeadlineWithItsGrace() throws {
        var driver = try driver()
        let request = try #require(driver.model.sourceRequest)
        #expect(request.deadline.microseconds - request.issued.microseconds == 3_000_000)
        driver.wait(2_500)  // past the time limit, within the grace: still waiting
        #expect(driver.model.sourceRequest == request)
        driver.wait(600)
        #expect(driver.model.sourceRequest == nil)
        #expect(driver.events.contains { $0.name == .feedFailed })
        let logged = try #require(driver.model.pager.answeredRequests.recent.last)
        #expect(logged.outcome == .failed(FeedFailure(.timedOut(limitMs: 2_000))))
        // Its answer, late, is dropped: nothing changes.
        try driver.apply(.feedAnswer(FeedAnswerInput(request: request.id, outcome: .page(Self.page([3, 2, 1])))))
        #expect(driver.model.pager.items.isEmpty)
        #expect(driver.events.last?.name == .feedDropped && driver.events.last?.cause == .stale)
    }

    @Test func anAnswerForAnotherRequestIsDroppedAsStale() throws {
        var driver = try driver()
        let before = driver.model
        try driver.apply(.feedAnswer(FeedAnswerInput(request: 99, outcome: .page(Self.page([3, 2, 1])))))
        #expect(driver.events.last?.name == .feedDropped && driver.events.last?.cause == .stale)
        #expect(driver.model.sourceRequest == before.sourceRequest)
        #expect(driver.model.pager.items.isEmpty)
    }

    /// A refresh control has no failed state of its own (UIRefreshControl's has none): it ends, as with the
    /// simulated feed's failures, and a pull asks again.
    @Test func aFailedRefreshEndsKeepingTheItemsAndAPullAsksAgain() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.refresh, edge: .top)
        #expect(driver.model.sourceRequest?.kind == .refresh)
        try answer(&driver, .failure(FeedFailure(.unavailable("connection refused"))))
        driver.settle()
        #expect(driver.events.contains { $0.name == .feedFailed && $0.edge == .top })
        #expect(driver.state(.top) == .idle)
        #expect(ids(driver) == ["10", "9", "8", "7", "6"])
        #expect(driver.model.pager.lastRowsChange == nil)
        try driver.command(.refresh, edge: .top)
        #expect(driver.model.sourceRequest?.request.position == .newest)
    }

    @Test func aRefreshThatReachesTheTopItemPutsTheNewerItemsOnTop() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.refresh, edge: .top)
        try answer(&driver, .page(Self.page([12, 11, 10, 9, 8])))
        #expect(ids(driver) == ["12", "11", "10", "9", "8", "7", "6"])
        #expect(driver.model.pager.lastRowsChange == .prepended(2))
        #expect(driver.model.frame().feed.count == 7)
    }

    @Test func aRefreshThatDoesNotReachTheTopItemReplacesTheList() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.refresh, edge: .top)
        try answer(&driver, .page(Self.page([20, 19, 18, 17, 16])))
        #expect(ids(driver) == ["20", "19", "18", "17", "16"])
        #expect(driver.model.pager.lastRowsChange == .replaced)
    }

    @Test func loadMoreAsksOlderThanTheLastItemAndAppends() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.loadMore)
        let request = try #require(driver.model.sourceRequest)
        #expect(request.kind == .nextPage && request.request.position == .olderThan(FeedCursor("6")))
        try answer(&driver, .page(Self.page([5, 4, 3], hasMore: false)))
        #expect(ids(driver) == ["10", "9", "8", "7", "6", "5", "4", "3"])
        #expect(driver.model.pager.lastRowsChange == .appended(3))
        #expect(driver.model.pager.hasMore == false)
    }

    /// Feeds shift (an edited post moves up, a page boundary moves): an item a later page brings again stays where
    /// the reader has it, and the page's new items are taken (docs/FEEDS.md, "Order and dates").
    @Test func anItemAlreadyLoadedIsDroppedFromALaterPage() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.loadMore)
        let again = FeedItem(id: "9", text: "item 9 again", timeMicros: 4_500_000)
        let page = FeedPage(
            items: [Self.item(5), again, Self.item(4)], olderCursor: FeedCursor("4"), newerCursor: nil, hasMore: true)
        try answer(&driver, .page(page))
        #expect(ids(driver) == ["10", "9", "8", "7", "6", "5", "4"])
        #expect(driver.model.pager.items[1].text == "item 9", "the item loaded first is kept")
        #expect(driver.model.pager.lastRowsChange == .appended(2))
    }

    /// A page of nothing but items already loaded, which is not the list's last items again in order: refused,
    /// and Retry asks for the same page again.
    @Test func aPageOfOnlyRepeatedItemsIsRefused() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.loadMore)
        try answer(&driver, .page(Self.page([9, 8])))
        #expect(ids(driver).count == 5)
        let logged = try #require(driver.model.pager.answeredRequests.recent.last)
        #expect(logged.outcome == .failed(FeedFailure(.repeatedIds("9"))))
        driver.settle()
        #expect(driver.state(.bottom) == .failed)
        try driver.command(.retry, edge: .bottom)
        #expect(driver.model.sourceRequest?.request.position == .olderThan(FeedCursor("6")))
    }

    /// An offset-paged source whose pages moved down (two items arrived on top since the first page): its
    /// next page starts with the last two items loaded, which are skipped, not refused.
    @Test func aLoadMoreThatStartsWithTheLastItemsLoadedSkipsThem() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.loadMore)
        try answer(&driver, .page(Self.page([7, 6, 5, 4, 3])))
        #expect(ids(driver) == ["10", "9", "8", "7", "6", "5", "4", "3"])
        #expect(driver.model.pager.lastRowsChange == .appended(3))
        #expect(driver.model.pager.answeredRequests.recent.last?.outcome == .loaded(items: 5))
        // A page of nothing but the seam adds nothing, and goes on from its own cursor.
        driver.settle()
        try driver.command(.loadMore)
        try answer(&driver, .page(Self.page([4, 3])))
        #expect(ids(driver).count == 8)
        #expect(driver.model.pager.hasMore)
        driver.settle()
        try driver.command(.loadMore)
        #expect(driver.model.sourceRequest?.request.position == .olderThan(FeedCursor("3")))
    }

    /// Loaded ids again, in another order, beside a new one: the new one is taken.
    @Test func aPageRepeatingLoadedItemsInAnotherOrderKeepsItsNewOnes() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.loadMore)
        let page = FeedPage(
            items: [Self.item(7), FeedItem(id: "8", text: "x", timeMicros: 6_500_000), Self.item(5)],
            olderCursor: FeedCursor("5"), newerCursor: nil, hasMore: true)
        try answer(&driver, .page(page))
        #expect(ids(driver) == ["10", "9", "8", "7", "6", "5"])
    }

    /// A feed that is not newest first (pinned or edited posts, time zones, a podcast listed oldest first) is
    /// taken in its own order: time is for ages and "N new" only.
    @Test func itemsNotNewestFirstAreTakenInTheFeedsOrder() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([6, 10, 7, 9, 8])))
        #expect(ids(driver) == ["6", "10", "7", "9", "8"])
        try driver.command(.loadMore)
        try answer(&driver, .page(Self.page([15, 14])))
        #expect(ids(driver) == ["6", "10", "7", "9", "8", "15", "14"])
    }

    @Test func aRefreshDropsARunningLoadMoreWhoseAnswerIsThenStale() throws {
        var driver = try driver()
        try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
        try driver.command(.loadMore)
        let loadMore = try #require(driver.model.sourceRequest)
        try driver.command(.refresh, edge: .top)
        #expect(driver.model.sourceRequest?.kind == .refresh)
        try driver.apply(.feedAnswer(FeedAnswerInput(request: loadMore.id, outcome: .page(Self.page([5, 4])))))
        #expect(driver.events.last?.cause == .stale)
        #expect(ids(driver).count == 5)
    }

    @Test func theSameAnswersGiveTheSameModel() throws {
        func run() throws -> ListModel {
            var driver = try driver()
            try answer(&driver, .page(Self.page([10, 9, 8, 7, 6])))
            try driver.command(.loadMore)
            try answer(&driver, .page(Self.page([5, 4])))
            driver.settle()
            return driver.model
        }
        #expect(try run() == run())
    }
}

/// The merge rules on their own (``LoadedItems``).
@Suite struct LoadedItemsTests {
    @Test func aRefreshWithNothingNewChangesNothing() throws {
        var loaded = LoadedItems()
        #expect(try loaded.mergeNewest(SourcePagerTests.page([5, 4, 3]), limit: 5) == .replaced)
        #expect(try loaded.mergeNewest(SourcePagerTests.page([5, 4]), limit: 5) == nil)
        #expect(loaded.items.map(\.id) == ["5", "4", "3"])
        #expect(loaded.olderCursor == FeedCursor("3"))
    }

    @Test func anEmptyLastPageEndsLoadMore() throws {
        var loaded = LoadedItems()
        _ = try loaded.mergeNewest(SourcePagerTests.page([5, 4, 3]), limit: 5)
        #expect(loaded.hasMore)
        let empty = FeedPage(items: [], olderCursor: nil, newerCursor: nil, hasMore: false)
        #expect(try loaded.append(empty, limit: 5) == nil)
        #expect(!loaded.hasMore && loaded.items.count == 3)
    }

    @Test func aRefusedPageLeavesTheItemsAsTheyWere() throws {
        var loaded = LoadedItems()
        _ = try? loaded.mergeNewest(SourcePagerTests.page([5, 4, 3]), limit: 5)
        let before = loaded
        #expect(throws: FeedError.oversized(what: "page (3 items)", limit: 2)) {
            try loaded.append(SourcePagerTests.page([2, 1, 0]), limit: 2)
        }
        #expect(throws: FeedError.repeatedIds("4")) {
            try loaded.append(SourcePagerTests.page([4, 5]), limit: 5)
        }
        #expect(throws: FeedError.malformed("an item has an empty id")) {
            try loaded.append(
                FeedPage(
                    items: [FeedItem(id: "", text: "", timeMicros: 0)], olderCursor: nil, newerCursor: nil,
                    hasMore: false),
                limit: 5)
        }
        #expect(loaded == before)
        // An id a page repeats is taken once, where it first comes.
        #expect(try loaded.append(SourcePagerTests.page([2, 1, 2]), limit: 5) == .appended(2))
        #expect(loaded.items.map(\.id) == ["5", "4", "3", "2", "1"])
    }
}

/// The external feed's state is Codable (a snapshot holds it), and encodes the same way every time.
@Suite struct SourceCodableTests {
    @Test func theSourcePagerRoundTripsThroughJSON() throws {
        var driver = try SourcePagerTests().driver()
        let id = try #require(driver.model.sourceRequest?.id)
        try driver.apply(
            .feedAnswer(FeedAnswerInput(request: id, outcome: .page(SourcePagerTests.page([10, 9, 8, 7, 6])))))
        try driver.command(.loadMore)
        let source = driver.model.pager
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(source)
        let decoded = try JSONDecoder().decode(SourcePager.self, from: data)
        #expect(decoded == source)
        #expect(try encoder.encode(decoded) == data)
        #expect(!String(decoding: data, as: UTF8.self).contains("\"ids\""))
    }
}
