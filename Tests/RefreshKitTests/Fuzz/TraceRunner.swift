import RefreshKit

/// A trace: the model it starts from and the steps applied to it.
struct Trace: Hashable, Sendable {
    static let start: Int64 = 1_000_000

    var preset: String
    var seed: UInt64
    var viewport: Size
    var devicePixelRatio: Double
    var steps: [TraceStep]

    /// A random trace of `length` steps, the same for the same seed.
    static func random(preset: String, seed: UInt64, length: Int) -> Trace {
        var generator = TraceGenerator(seed: seed, start: start)
        let viewport = generator.viewport()
        let ratio = generator.devicePixelRatio()
        let steps = (0..<length).map { _ in generator.next() }
        return Trace(preset: preset, seed: seed, viewport: viewport, devicePixelRatio: ratio, steps: steps)
    }
}

/// Runs a trace against a fresh model, checking the invariants after every step; then lifts every finger,
/// lets ten minutes pass with no input, and checks that nothing is left running.
struct TraceRunner {
    struct Result: Sendable {
        var inputs = 0
        var starts = 0
        /// The first step after which something was wrong (`steps.count` for the final settle), and what.
        var failure: (step: Int, problems: [String])?
        /// A hash of every frame and event, in order (equal for equal traces within one process).
        var frameHash = 0
    }

    /// Ten minutes with no input (extended while a slow feed request is still due).
    static let settleSeconds = 600.0

    private var model: ListModel
    private var invariants: ModelInvariants
    private var hasher = Hasher()
    private var result = Result()

    private init(_ model: ListModel) {
        self.model = model
        invariants = ModelInvariants(model)
    }

    static func run(_ trace: Trace) -> Result {
        let model: ListModel
        do {
            model = try ListModel(
                viewport: trace.viewport, devicePixelRatio: trace.devicePixelRatio, preset: trace.preset,
                seed: trace.seed, time: Timestamp(microseconds: Trace.start))
        } catch {
            var result = Result()
            result.failure = (0, ["init threw \(error)"])
            return result
        }
        var runner = TraceRunner(model)
        for (index, step) in trace.steps.enumerated() {
            let problems = runner.run(step)
            if !problems.isEmpty {
                runner.result.failure = (index, problems)
                break
            }
        }
        if runner.result.failure == nil {
            let problems = runner.settle()
            if !problems.isEmpty { runner.result.failure = (trace.steps.count, problems) }
        }
        runner.result.starts = runner.invariants.starts
        runner.result.frameHash = runner.hasher.finalize()
        return runner.result
    }

    /// Applies one step and checks everything after it.
    private mutating func run(_ step: TraceStep) -> [String] {
        let before = model.now
        let problems = perform(step)
        return problems + check(since: before)
    }

    /// Takes the events and a frame, and checks them.
    private mutating func check(since before: Timestamp) -> [String] {
        let events = model.takeEvents()
        let frame = model.frame()
        hasher.combine(frame)
        hasher.combine(events)
        return invariants.check(model, events: events, frame: frame, before: before)
    }

    /// Applies one step, and says what went wrong at the API boundary.
    private mutating func perform(_ step: TraceStep) -> [String] {
        let time = Timestamp(microseconds: step.time)
        guard case .input(let input, let expectation) = step.action else {
            model.advance(to: time)
            return []
        }
        result.inputs += 1
        let snapshot = model
        do {
            try model.apply(input, at: time)
            if expectation == .reject { return ["accepted an input it must refuse"] }
        } catch {
            if expectation == .accept { return ["refused a valid input: \(error)"] }
            // (A NaN page time the engine stored earlier makes `==` false for equal models: compare the text.)
            if model != snapshot && String(describing: model) != String(describing: snapshot) {
                return ["a refused input changed the model"]
            }
        }
        return []
    }

    /// Lifts every finger, then waits like a host: ticks while the content moves, wakes at every deadline,
    /// nothing else. A slow feed answer extends the wait (by at most its longest latency).
    private mutating func settle() -> [String] {
        var problems: [String] = []
        for pointer in 0...3 {
            let lift = TouchInput(phase: .end, pageTime: 0, pointer: pointer)
            problems += run(TraceStep(time: model.now.microseconds, action: .input(.touch(lift), .accept)))
        }
        let start = model.now
        let startsBefore = invariants.starts
        var limit = start.advanced(bySeconds: Self.settleSeconds)
        var rounds = 0
        while model.isBusy && problems.isEmpty && rounds < 5_000 {
            if let due = model.feedDue {
                limit = min(max(limit, due.advanced(bySeconds: 180)), start.advanced(bySeconds: 1_500))
            }
            guard model.now < limit else { break }
            let before = model.now
            let next =
                model.nextDeadline == nil ? before.advanced(byMicroseconds: 16_667) : before.advanced(bySeconds: 60)
            model.advance(to: min(limit, next))
            problems += check(since: before)
            rounds += 1
        }
        let underway = Edge.allCases.filter { model.control($0).state.isRefreshUnderway }
        guard problems.isEmpty, model.isBusy || !underway.isEmpty || model.pager.running != nil else {
            return problems
        }
        // The window of pages asking again, with its back-off, for a page its source does not give (one that never
        // answers in time): a wait for the source, not a loop of the model's.
        if underway.isEmpty, model.scroll.phase == .idle, model.pager.running?.kind == .reload { return problems }
        // An edge that starts again and again on its own while nothing moves is a loop, not a wait.
        let restarts = invariants.starts - startsBefore
        let looping = underway.filter { model.configuration.edge($0).trigger == .onReachEdge && restarts > 1 }
        let due = model.feedDue.map(\.description) ?? "-"
        let feed = model.pager.running.map { "\($0.kind) for \($0.edge) due \(due)" } ?? "idle"
        let deadline = model.nextDeadline.map(\.description) ?? "none"
        return [
            (looping.isEmpty ? "" : "onReachEdge restarts \(looping) forever (\(restarts) starts); ")
                + "still busy after settling \(model.now.seconds(since: start)) s: phase \(model.scroll.phase), "
                + "feed \(feed), underway \(underway), next deadline \(deadline)"
        ]
    }
}
