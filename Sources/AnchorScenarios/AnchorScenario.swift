import RefreshKit

/// The anchoring error during a fling, measured on the real engine (docs/PERFORMANCE.md, "Rows: anchoring").
///
/// A phone-sized session on an external feed (``ScriptedFeed``, pages of ``pageSize``) is read down a screen at
/// a time until the list has ``loadedRows`` rows, the page measuring the rows as they come near the viewport
/// (``PageRows``) and the session's window of pages dropping the far ones, and is scrolled back to ``startRow``
/// (``scrolledToStart(_:)``). A finger then
/// drags up and lifts into a fling (``dragMoves`` touch moves of ``dragStep`` px at 60 Hz, as a page sends
/// them). At that moment the session is copied: the copy (the twin) flings on with nothing changed, and the
/// session gets the case's change at the fling's frames ``AnchorCase`` names, each as the input the server
/// would pass on (a feed answer, a `measure` batch). Both run frame by frame at 60 Hz until they rest; each
/// answers its own load-more requests and sends the page's measurements of the rows it has not measured.
///
/// The anchoring error at a frame: take the first visible row of the frame before, and how much its screen y
/// (its top's y minus the content offset) changed since that frame; subtract how much the twin's same row
/// moved on the twin's screen (the fling's own motion). It is 0 when the row's y in the content moved by
/// exactly the offset's correction. The figure is the most over every frame of the fling.
public struct AnchorScenario: Hashable, Sendable {
    /// The session's viewport (a phone's), CSS px.
    public var viewport = Size(width: 390, height: 844)
    /// Device pixels per CSS px (a phone's).
    public var devicePixelRatio = 3.0
    /// Items a page of the feed holds.
    public var pageSize = 50
    /// Rows loaded and measured before the fling.
    public var loadedRows: Int
    /// The first visible row when the finger comes down (0 = the newest).
    public var startRow: Int
    /// Touch moves of the drag, one per frame, and each one's px (negative: the finger goes up).
    public var dragMoves = 5
    public var dragStep = -60.0
    /// ``AnchorCase/rowsInserted``: new rows the refresh's answer puts on top, and the fling's frame it comes at.
    public var insertedRows = 20
    public var insertFrame = 4
    /// ``AnchorCase/rowsRemeasured``: rows just above the first visible one measured again, and when.
    public var remeasuredRows = 50
    public var remeasureFrame = 6
    /// ``AnchorCase/imagesLoaded``: the frames at which a batch of pictures loads, and the pictures of each
    /// (the nearest not loaded above the first visible row; every third row has one, so the four batches take
    /// the 48 rows above it, which the window holds: the page above the start row's).
    public var imageFrames = [2, 5, 9, 14]
    public var imagesPerBatch = 4
    /// Frames after which a fling that has not come to rest ends the scenario anyway (10 s).
    public var frameLimit = 600

    /// A scenario with `loadedRows` rows loaded, scrolled to `startRow`.
    public init(loadedRows: Int, startRow: Int) {
        self.loadedRows = loadedRows
        self.startRow = startRow
    }

    /// `make bench`'s scenario: 250 rows (five pages) read, scrolled back to the 150th (about 20 000 px down).
    public static let bench = AnchorScenario(loadedRows: 250, startRow: 150)

    /// Measures `kind`.
    public func run(_ kind: AnchorCase) throws(AnchorScenarioError) -> AnchorFigures {
        var feed = ScriptedFeed(items: loadedRows * 4)
        var session = try scrolledToStart(feed)
        if kind == .rowsInserted {
            // The refresh runs while the reader is down the list; its answer finds new items on top.
            try session.apply(.command(Command(.refresh)))
            guard session.model.sourceRequest?.kind == .refresh else {
                throw AnchorScenarioError("a refresh did not start while scrolled down")
            }
            session.wait(100)
            feed.publish(insertedRows)
        }
        try fling(&session)
        var twins = FlingTwins(session: session, feed: feed, frameLimit: frameLimit)
        return try twins.run(kind, changes: changes(kind))
    }

    /// The case's changes, by the fling's frame.
    func changes(_ kind: AnchorCase) -> [Int: FlingTwins.Change] {
        switch kind {
        case .rowsInserted: [insertFrame: .answerRefresh]
        case .rowsRemeasured: [remeasureFrame: .remeasureAbove(remeasuredRows)]
        case .imagesLoaded:
            Dictionary(
                uniqueKeysWithValues: imageFrames.map { ($0, FlingTwins.Change.loadImagesAbove(imagesPerBatch)) })
        }
    }

    /// A session scrolled to row `startRow` as a reader gets there: from the top a screen at a time, the page
    /// measuring the rows it lays out as they come within a screen of the viewport, the window dropping the pages
    /// far above and loading them back when scrolled to, a load-more near the end of the rows, until the list has
    /// `loadedRows` rows; then to `startRow`, at rest with that row at the viewport's top (and 37 % of it above).
    func scrolledToStart(_ feed: ScriptedFeed) throws(AnchorScenarioError) -> ScriptedSession {
        var configuration = Preset.ios.configuration
        configuration.feed.pageSize = pageSize
        configuration.feed.timeoutMs = 60_000
        let start: Int64 = 1_000_000
        let model: ListModel
        do {
            model = try ListModel(
                viewport: viewport, devicePixelRatio: devicePixelRatio,
                starting: Preset(name: "ios", configuration: configuration), feed: .external,
                time: Timestamp(microseconds: start))
        } catch {
            throw AnchorScenarioError("no model: \(error)")
        }
        var session = ScriptedSession(model: model, page: PageRows(width: viewport.width), time: start)
        try session.answer(from: feed, kinds: [.firstLoad])
        session.settle()
        try session.measureInView()
        // Down, loading more near the end of the rows, until the list is `loadedRows` long.
        var steps = 0
        while session.layout.rowCount < loadedRows {
            let layout = session.layout
            if session.model.scroll.offset.y + 2 * viewport.height >= layout.contentHeight {
                let rows = layout.rowCount
                try session.apply(.command(Command(.loadMore)))
                guard try session.answer(from: feed, kinds: [.nextPage], after: 1_000) else {
                    throw AnchorScenarioError("load-more did not ask for a page at \(rows) rows")
                }
                session.settle()
                try session.measureInView()
            } else {
                try session.read(by: viewport.height, from: feed)
            }
            steps += 1
            guard steps < 10_000 else { throw AnchorScenarioError("the list did not reach \(loadedRows) rows") }
        }
        guard startRow < loadedRows else { throw AnchorScenarioError("row \(startRow) is not loaded") }
        // Then to the start row, a screen at a time (its y changes as the rows on the way are measured).
        for _ in 0..<10_000 {
            let layout = session.layout
            let target = layout.y(ofRow: startRow) + 0.37 * layout.height(ofRow: startRow)
            let distance = target - session.model.scroll.offset.y
            guard abs(distance) > 1e-9 else { break }
            try session.read(by: min(viewport.height, max(-viewport.height, distance)), from: feed)
        }
        guard let row = session.layout.anchor(at: session.model.scroll.offset.y)?.row, row == startRow,
            session.layout.id(ofRow: startRow) != nil
        else { throw AnchorScenarioError("the scroll did not come to rest at row \(startRow)") }
        return session
    }

    /// The finger drags up, one move a frame, and lifts: the fling starts.
    func fling(_ session: inout ScriptedSession) throws(AnchorScenarioError) {
        try session.touch(.start)
        for _ in 0..<dragMoves {
            session.wait(Double(ScriptedSession.tick) / 1000)
            try session.touch(.move, dy: dragStep)
        }
        try session.touch(.end, after: 4_000)
        guard session.model.scroll.phase == .animating else {
            throw AnchorScenarioError("the drag did not end in a fling")
        }
    }
}
