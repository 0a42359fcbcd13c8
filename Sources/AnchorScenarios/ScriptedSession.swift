import RefreshKit

/// One session of the anchoring scenarios: the real engine (``ListModel`` on an external feed), the page that
/// measures its rows (``PageRows``), and its own clock. Everything reaches the engine as the server passes it
/// on: inputs at their times (page messages and the source's answers alike), frames at 60 Hz in between.
struct ScriptedSession {
    /// The server's frame interval, µs.
    static let tick: Int64 = 16_667

    var model: ListModel
    var page: PageRows
    /// Engine time, µs.
    private(set) var time: Int64

    init(model: ListModel, page: PageRows, time: Int64) {
        self.model = model
        self.page = page
        self.time = time
    }

    /// The page's clock for touch samples (`performance.now()`, ms): engine time, one second behind.
    var pageTime: Double { Double(time) / 1000 - 1000 }

    /// The engine's row layout.
    var layout: RowLayout { model.rowLayout }

    /// The first visible row's id.
    var firstVisibleID: String? { model.rowLayout.anchor(at: model.scroll.offset.y)?.id }

    /// Where row `id` is on screen: its top's y in the layout minus the content offset (nil: not held).
    func screenY(of id: String) -> Double? {
        model.rowLayout.y(of: id).map { $0 - model.scroll.offset.y }
    }

    /// Moves the clock to `time` (never back), running the engine to it as the server's tick does.
    mutating func advance(to time: Int64) {
        self.time = max(self.time, time)
        model.advance(to: Timestamp(microseconds: self.time))
    }

    /// Runs frames at 60 Hz for `milliseconds`.
    mutating func wait(_ milliseconds: Double) {
        let end = time + Int64(milliseconds * 1000)
        while time < end { advance(to: min(end, time + Self.tick)) }
    }

    /// Runs frames until the engine has nothing left to do but wait for a source's answer (at most 30 s).
    mutating func settle() {
        var waited = 0
        while model.isActive || (model.nextDeadline.map { $0.microseconds < time + 5_000_000 } ?? false),
            waited < 1_800
        {
            advance(to: time + Self.tick)
            waited += 1
        }
    }

    /// Applies `input` at the current time, `after` µs past it.
    mutating func apply(_ input: Input, after delay: Int64 = 0) throws(AnchorScenarioError) {
        advance(to: time + delay)
        do {
            try model.apply(input, at: Timestamp(microseconds: time))
        } catch {
            throw AnchorScenarioError("the engine refused \(input): \(error)")
        }
    }

    /// A touch sample of the page's finger.
    mutating func touch(_ phase: TouchPhase, dy: Double = 0, after delay: Int64 = 0) throws(AnchorScenarioError) {
        advance(to: time + delay)
        try apply(.touch(TouchInput(phase: phase, delta: Point(x: 0, y: dy), pageTime: pageTime)))
    }

    /// Answers the running request with `feed`'s page, when it is of one of `kinds` (`nil`: any kind but those
    /// in `except`).
    /// - Returns: whether it answered.
    @discardableResult
    mutating func answer(
        from feed: ScriptedFeed, kinds: Set<SourceRequest.Kind>? = nil, except: Set<SourceRequest.Kind> = [],
        after delay: Int64 = 0
    ) throws(AnchorScenarioError) -> Bool {
        guard let request = model.sourceRequest, kinds?.contains(request.kind) ?? !except.contains(request.kind)
        else { return false }
        let page = feed.page(for: request.request)
        try apply(.feedAnswer(FeedAnswerInput(request: request.id, outcome: .page(page), durationMs: 1)), after: delay)
        return true
    }

    /// Scrolls by `distance` px at once, as a reader's wheel does, and runs until at rest: the source answers
    /// what the window asks for on the way (pages loaded back), and the page measures the rows in view.
    mutating func read(by distance: Double, from feed: ScriptedFeed) throws(AnchorScenarioError) {
        try apply(.command(Command(.scrollBy, animated: false, amount: distance)))
        for _ in 0..<100 {
            settle()
            let answered = try answer(from: feed, kinds: [.reload], after: 1_000)
            let measured = try measureInView(after: 1_000)
            if !answered && measured == 0 { break }
        }
        settle()
    }

    /// Sends the page's `measure` batches for `numbers`.
    mutating func measure(_ numbers: [Int], after delay: Int64 = 0) throws(AnchorScenarioError) {
        advance(to: time + delay)
        for batch in page.measure(numbers) { try apply(.measure(batch)) }
    }

    /// Sends what the page measures after drawing a frame: the rows near the viewport it has not measured yet.
    /// - Returns: how many rows it measured.
    @discardableResult
    mutating func measureInView(after delay: Int64 = 0) throws(AnchorScenarioError) -> Int {
        advance(to: time + delay)
        let batches = page.measureInView(
            layout, offset: model.scroll.offset.y, viewportHeight: model.viewport.height)
        for batch in batches { try apply(.measure(batch)) }
        return batches.reduce(0) { $0 + $1.rows.count }
    }
}

/// A scenario that could not run as written (the engine refused an input, the fling stopped too early): the
/// figures would mean nothing, so it is an error, not a figure.
public struct AnchorScenarioError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
