import Testing

@testable import RefreshKit

/// Section headers (docs/LAYOUT.md, "Section headers"): the frame's `pinned` names the section of the row under the
/// viewport's top, below the top inset, at the inset while pinned, pushed up by the next section's first row, and
/// on its own row while the list is pulled down past its top.
@Suite struct SectionHeaderTests {
    typealias Wiring = LayoutWiringTests

    /// Items 1000…901, ten to a section ("S0" holds 1000…991, "S1" 990…981, …), except those `unsectioned`; 72 px
    /// rows (not measured), a 700 px viewport, 28 px headers.
    static func sectioned(unsectioned: Set<Int> = [], unsectionedName: String? = nil) throws -> ModelDriver {
        var driver = try ModelDriver()
        var configuration = Preset.ios.configuration
        configuration.feed.pageSize = 100
        configuration.feed.timeoutMs = 60_000
        driver.model = try ListModel(
            viewport: Size(width: Wiring.width, height: 700),
            starting: Preset(name: "external", configuration: configuration), feed: .external,
            time: Timestamp(microseconds: driver.time))
        let id = try #require(driver.model.sourceRequest?.id)
        let items = (901...1000).reversed().map { n in
            var item = Wiring.item(n)
            item.section = unsectioned.contains(n) ? unsectionedName : "S\((1000 - n) / 10)"
            return item
        }
        let page = FeedPage(
            items: items, olderCursor: FeedCursor("901"), newerCursor: FeedCursor("1000"), hasMore: true)
        try driver.apply(.feedAnswer(FeedAnswerInput(request: id, outcome: .page(page), durationMs: 1)))
        return driver
    }

    static func scroll(_ driver: inout ModelDriver, by amount: Double) throws {
        try driver.apply(.command(Command(.scrollBy, animated: false, amount: amount)))
    }

    @Test func aListWithoutSectionsPinsNothing() throws {
        var driver = try Wiring.loaded()
        #expect(driver.model.frame().pinned == nil)
        try Self.scroll(&driver, by: 700)
        #expect(driver.model.frame().pinned == nil)
    }

    @Test func theFirstSectionIsPinnedAtTheTop() throws {
        var driver = try Self.sectioned()
        #expect(driver.model.frame().pinned == PinnedSection(section: "S0", y: 0))
        try Self.scroll(&driver, by: 600)  // row 8 of S0 at the top, S1's first row at 720 − 600 = 120 on screen
        #expect(driver.model.frame().pinned == PinnedSection(section: "S0", y: 0))
    }

    /// The next section's first row pushes the header up once its top is less than a header's height below the
    /// viewport's top, and its own header is pinned once its top reaches it.
    @Test(arguments: [(700.0, "S0", -8.0), (692, "S0", 0), (719.5, "S0", -27.5), (720, "S1", 0), (1000, "S1", 0)])
    func theNextSectionPushesTheHeaderAway(offset: Double, section: String, y: Double) throws {
        var driver = try Self.sectioned()
        try Self.scroll(&driver, by: offset)
        #expect(driver.model.scroll.offset.y == offset)
        #expect(driver.model.frame().pinned == PinnedSection(section: section, y: y))
    }

    /// Rows without a section end the one above them: its header leaves with its last row, and nothing is pinned
    /// over them.
    @Test(arguments: [nil, ""])
    func rowsWithoutASectionPushItAwayAndPinNothing(name: String?) throws {
        var driver = try Self.sectioned(unsectioned: Set(981...990), unsectionedName: name)
        try Self.scroll(&driver, by: 710)
        #expect(driver.model.frame().pinned == PinnedSection(section: "S0", y: -18))
        try Self.scroll(&driver, by: 20)
        #expect(driver.model.frame().pinned == nil)
    }

    @Test func pulledDownPastTheTopTheHeaderStaysOnItsRow() throws {
        var driver = try Self.sectioned()
        try driver.drag(dy: 120, steps: 12, release: false)
        let frame = driver.model.frame()
        #expect(frame.offset.y < 0)
        #expect(frame.pinned == PinnedSection(section: "S0", y: -frame.offset.y))
    }

    /// Under a top inset (a refresh running, its control's layer), the header is pinned below the inset.
    @Test func theHeaderIsPinnedBelowTheTopInset() throws {
        var driver = try Self.sectioned()
        try driver.command(.refresh, edge: .top, animated: false)
        driver.wait(400)
        let frame = driver.model.frame()
        #expect(frame.insets.top > 0)
        #expect(frame.pinned == PinnedSection(section: "S0", y: frame.insets.top))
    }

    /// The header's height is the configuration's, and measurements move the rows (and so the push) as the page
    /// draws them.
    @Test func theHeaderHeightAndMeasuredRowsSetThePush() throws {
        var driver = try Self.sectioned()
        var feed = ConfigurationPatch.FeedPatch()
        feed[\.sectionHeaderHeight] = 40
        try driver.apply(.configure(ConfigurationPatch(feed: feed)))
        try Self.scroll(&driver, by: 700)
        #expect(driver.model.frame().pinned == PinnedSection(section: "S0", y: -20))
        try Wiring.measure(&driver, [(995, 92)])  // a row of S0 above the top 20 px taller: the anchor holds
        let offset = driver.model.scroll.offset.y
        #expect(offset == 720)
        #expect(driver.model.frame().pinned == PinnedSection(section: "S0", y: 740 - 40 - 720))
    }
}
