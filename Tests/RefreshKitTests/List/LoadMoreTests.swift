import Testing

@testable import RefreshKit

/// Load-more on the bottom edge: auto-trigger, no-more-data, failure and retry, and the exclusion rules.
@Suite struct LoadMoreTests {
    /// A driver whose feed is small and quick, so scrolling to the end is short.
    func driver(totalItems: Int = 50, pageSize: Int = 20, failureRate: Double = 0) throws -> ModelDriver {
        var driver = try ModelDriver()
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.totalItems] = totalItems
        feed[\.pageSize] = pageSize
        feed[\.latencyMs] = 300
        feed[\.failureRate] = failureRate
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        return driver
    }

    @Test func reachingTheEndLoadsPagesUntilNoMoreData() throws {
        var driver = try driver()
        #expect(driver.rows == 20)
        for _ in 0..<5 {
            try driver.command(.scrollToEdge, edge: .bottom, animated: false)
            driver.settle()
        }
        #expect(driver.rows == 50)
        #expect(driver.state(.bottom) == .noMoreData)
        #expect(driver.model.pager.hasMore == false)
        let starts = driver.events.filter { $0.name == .didStart && $0.edge == .bottom }.count
        #expect(starts == 2)  // 20 → 40 → 50: a short page ends it, no extra empty request
        // No trigger, no request, at the end now.
        try driver.command(.scrollToEdge, edge: .bottom, animated: false)
        driver.settle()
        #expect(driver.events.filter { $0.name == .didStart && $0.edge == .bottom }.count == 2)
    }

    @Test func anExactMultipleStillStopsWithoutAnEmptyRequest() throws {
        var driver = try driver(totalItems: 40)
        for _ in 0..<4 {
            try driver.command(.scrollToEdge, edge: .bottom, animated: false)
            driver.settle()
        }
        #expect(driver.rows == 40)
        #expect(driver.state(.bottom) == .noMoreData)
        #expect(driver.events.filter { $0.name == .didStart && $0.edge == .bottom }.count == 1)
    }

    @Test func aFailedLoadShowsFailedAndARetryLoads() throws {
        var driver = try driver(failureRate: 1)
        try driver.command(.scrollToEdge, edge: .bottom, animated: false)
        driver.settle()
        #expect(driver.state(.bottom) == .failed)
        #expect(driver.rows == 20)
        // It does not retry by itself however long we wait at the end.
        driver.wait(3000)
        #expect(driver.events.filter { $0.name == .didStart && $0.edge == .bottom }.count == 1)
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.failureRate] = 0
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        try driver.command(.retry, edge: .bottom)
        driver.settle()
        #expect(driver.rows == 40)
        #expect(driver.state(.bottom) == .idle)
    }

    @Test func aRefreshDropsARunningLoadMore() throws {
        var driver = try driver()
        try driver.command(.scrollToEdge, edge: .bottom, animated: false)
        #expect(driver.state(.bottom) == .refreshing)
        try driver.command(.scrollToEdge, edge: .top, animated: false)
        try driver.command(.refresh, edge: .top)
        #expect(driver.events.contains { $0.name == .feedDropped && $0.edge == .bottom })
        driver.settle()
        #expect(driver.rows == 23)  // the refresh's three new rows on top of the first page, not the stale next page
        #expect(driver.events.filter { $0.name == .didStart && $0.edge == .bottom }.count == 1)
        #expect(driver.events.filter { $0.name == .didEnd && $0.edge == .bottom }.count == 1)
    }

    @Test func noLoadMoreStartsWhileARefreshRuns() throws {
        var driver = try driver()
        try driver.command(.refresh, edge: .top)
        try driver.command(.loadMore)
        #expect(driver.state(.bottom) != .refreshing)
        #expect(driver.model.pager.running?.kind == .refresh)
    }

    @Test func aRefreshBringsANoMoreDataFooterBack() throws {
        var driver = try driver(totalItems: 30)
        try driver.command(.scrollToEdge, edge: .bottom, animated: false)
        driver.settle()
        #expect(driver.state(.bottom) == .noMoreData)
        // More new items than a page: the refresh's page does not reach the list's top, and starts it over.
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.newItemsPerRefresh] = 25
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        try driver.command(.scrollToEdge, edge: .top, animated: false)
        try driver.command(.refresh)
        driver.settle()
        #expect(driver.state(.bottom) == .idle)
    }

    /// A feed shorter than a page starts with its footer showing "no more data", and the footer's inset in
    /// the scroll view from the first frame (the state and its layer agree at once).
    @Test func aFeedShorterThanAPageStartsWithTheFooterInPlace() throws {
        var configuration = Preset.ios.configuration
        configuration.feed.totalItems = 5
        let model = try ListModel(
            viewport: Size(width: 390, height: 844), starting: Preset(name: "short", configuration: configuration),
            time: Timestamp(microseconds: 1_000_000))
        #expect(model.control(.bottom).state == .noMoreData)
        #expect(model.scroll.insets.controls[.bottom] == model.control(.bottom).layer)
        #expect(model.control(.bottom).layer > 0)
    }
}
