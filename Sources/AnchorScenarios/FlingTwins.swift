import RefreshKit

/// A flinging session and its twin (the same session copied at the finger's lift), run frame by frame at
/// 60 Hz: the session gets the changes, the twin does not, and each frame compares where the first visible row
/// is on the two screens (``AnchorScenario`` says how).
struct FlingTwins {
    /// A change made to the session (not the twin) during the fling.
    enum Change: Hashable, Sendable {
        /// The source answers the running refresh (new rows on top).
        case answerRefresh
        /// The page measures the `count` rows just above the first visible one again, with the web font.
        case remeasureAbove(Int)
        /// The pictures of the `count` nearest rows above the first visible one with a picture not loaded yet
        /// load, and the page measures those rows again.
        case loadImagesAbove(Int)
        /// The finger comes down and stops the fling. Not an anchoring case: the first visible row then moves
        /// otherwise than the twin's, which the tests use to show that the measure sees it.
        case touchDown
    }

    /// When, within a frame, each message reaches the engine: the source's answers, then the page's
    /// measurements of new rows, then the change (µs after the frame).
    static let answerDelay: Int64 = 1_000
    static let measureDelay: Int64 = 2_000
    static let changeDelay: Int64 = 4_000

    var session: ScriptedSession
    var twin: ScriptedSession
    let feed: ScriptedFeed
    let frameLimit: Int

    init(session: ScriptedSession, feed: ScriptedFeed, frameLimit: Int) {
        self.session = session
        twin = session
        self.feed = feed
        self.frameLimit = frameLimit
    }

    /// The first visible row of the last frame, and where it was on each screen then.
    private struct Sighting {
        var id: String
        var onScreen: Double
        var onTwinScreen: Double
    }

    /// Runs the fling to its end with `changes` (by frame), measuring the anchoring error at every frame.
    mutating func run(_ kind: AnchorCase, changes: [Int: Change]) throws(AnchorScenarioError) -> AnchorFigures {
        var figures = AnchorFigures(
            kind: kind, changes: [], maxErrorPx: 0, maxDriftPx: 0, liftOffsetPx: session.model.scroll.offset.y,
            frames: 0,
            heldRows: 0, rowsMeasuredInView: 0)
        var last = try sight()
        let lastChange = changes.keys.max() ?? 0
        var (frame, frameTime) = (0, session.time)
        while frame < frameLimit, frame <= lastChange || session.model.isActive || twin.model.isActive {
            frame += 1
            frameTime += ScriptedSession.tick
            session.advance(to: frameTime)
            twin.advance(to: frameTime)
            // How far the last frame's first visible row moved on each screen since that frame.
            let moved = try position(of: last.id)
            let error = abs((moved.onScreen - last.onScreen) - (moved.onTwinScreen - last.onTwinScreen))
            figures.maxErrorPx = max(figures.maxErrorPx, error)
            if let index = figures.changes.indices.last, figures.changes[index].frame == frame - 1 {
                figures.changes[index].errorPx = error
            }
            last = try sight()
            figures.maxDriftPx = max(figures.maxDriftPx, abs(last.onScreen - last.onTwinScreen))
            // What both sources and both pages do after this frame, then the change.
            figures.rowsMeasuredInView += try Self.answerAndMeasure(&session, after: frameTime, feed: feed)
            try Self.answerAndMeasure(&twin, after: frameTime, feed: feed)
            if let change = changes[frame] {
                figures.changes.append(
                    try make(change, at: frame, time: frameTime + Self.changeDelay, shown: last.id))
            }
        }
        figures.frames = frame
        figures.heldRows = session.layout.heldRowCount
        return figures
    }

    /// After the frame at `frameTime`: the source answers the request running, if any (a load-more, or any other
    /// the engine makes by itself; the refresh is a case's change), the page measures the new rows in view.
    /// - Returns: the rows the page measured.
    @discardableResult
    private static func answerAndMeasure(
        _ session: inout ScriptedSession, after frameTime: Int64, feed: ScriptedFeed
    ) throws(AnchorScenarioError) -> Int {
        session.advance(to: frameTime + answerDelay)
        try session.answer(from: feed, except: [.refresh])
        session.advance(to: frameTime + measureDelay)
        return try session.measureInView()
    }

    /// Makes `change` to the session at `time` (both are moved to that moment first), recording the fling's
    /// velocity on either side of it.
    private mutating func make(_ change: Change, at frame: Int, time: Int64, shown: String)
        throws(AnchorScenarioError)
        -> AnchorFigures.Change
    {
        session.advance(to: time)
        twin.advance(to: time)
        guard session.model.scroll.phase == .animating else {
            throw AnchorScenarioError("the fling had ended before the change at frame \(frame)")
        }
        let (velocity, offset) = (session.model.scroll.velocity.y, session.model.scroll.offset.y)
        let (rows, grown): (Int, Double)
        switch change {
        case .answerRefresh:
            guard try session.answer(from: feed, kinds: [.refresh]) else {
                throw AnchorScenarioError("no refresh was running at frame \(frame)")
            }
            // Held rows on top while the list's top page is held; placeholders (at the estimate) while the
            // window has dropped it, as when scrolled far down.
            let count: Int
            switch session.model.pager.lastRowsChange {
            case .prepended(let prepended): count = prepended
            case .placeholdersOnTop(let placeholders): count = placeholders
            default: throw AnchorScenarioError("the refresh's answer did not put rows on top")
            }
            (rows, grown) = (count, Double(count) * session.layout.estimatedHeight)
        case .remeasureAbove(let count):
            let numbers = try numbersAbove(count: count, shown: shown) { _ in true }
            session.page.font = .web
            (rows, grown) = (numbers.count, try growth(of: numbers))
            try session.measure(numbers)
        case .loadImagesAbove(let count):
            let page = session.page
            let numbers = try numbersAbove(count: count, shown: shown) { number in
                number.isMultiple(of: 3) && !page.loadedImages.contains(number)
            }
            for number in numbers { session.page.loadImage(of: number) }
            (rows, grown) = (numbers.count, try growth(of: numbers))
            try session.measure(numbers)
        case .touchDown:
            try session.touch(.start)
            (rows, grown) = (0, 0)
        }
        return AnchorFigures.Change(
            frame: frame, rows: rows, grownPx: grown, correctionPx: session.model.scroll.offset.y - offset,
            velocityBefore: velocity,
            velocityAfter: session.model.scroll.velocity.y, errorPx: 0)
    }

    /// How much the rows `numbers` grow when the page measures them now: its heights minus the engine's.
    private func growth(of numbers: [Int]) throws(AnchorScenarioError) -> Double {
        let layout = session.layout
        var grown = 0.0
        for number in numbers {
            guard let row = layout.row(of: "\(number)") else { throw AnchorScenarioError("row \(number) is not held") }
            grown += session.page.height(of: number) - layout.height(ofRow: row)
        }
        return grown
    }

    /// The numbers of the `count` held rows nearest above the first visible one that `include` takes: above the
    /// engine's first visible row now and above `shown`, the first visible row of the frame the page drew last
    /// (a row that has just gone off the top is still the one whose move the error follows; it is not changed).
    private func numbersAbove(count: Int, shown: String, _ include: (Int) -> Bool) throws(AnchorScenarioError)
        -> [Int]
    {
        let layout = session.layout
        guard let anchor = layout.anchor(at: session.model.scroll.offset.y) else {
            throw AnchorScenarioError("no row is visible")
        }
        var numbers: [Int] = []
        var row = min(anchor.row, layout.row(of: shown) ?? anchor.row) - 1
        while numbers.count < count, row >= layout.placeholdersAbove {
            if let number = layout.id(ofRow: row).flatMap({ Int($0) }), include(number) { numbers.append(number) }
            row -= 1
        }
        guard numbers.count == count else {
            throw AnchorScenarioError("only \(numbers.count) of \(count) rows above row \(anchor.row) to change")
        }
        return numbers
    }

    /// The session's first visible row, and where it is on both screens.
    private func sight() throws(AnchorScenarioError) -> Sighting {
        guard let id = session.firstVisibleID else { throw AnchorScenarioError("no row is visible") }
        return try position(of: id)
    }

    /// Where row `id` is on both screens.
    private func position(of id: String) throws(AnchorScenarioError) -> Sighting {
        guard let onScreen = session.screenY(of: id), let onTwinScreen = twin.screenY(of: id) else {
            throw AnchorScenarioError("row \(id) is not held by both sessions")
        }
        return Sighting(id: id, onScreen: onScreen, onTwinScreen: onTwinScreen)
    }
}
