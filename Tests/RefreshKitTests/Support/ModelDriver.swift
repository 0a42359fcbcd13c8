import RefreshKit

/// Drives a model the way the server does: inputs at their times, ticks at 60 Hz in between, and every
/// event collected. Page time and engine time advance together (the page clock is offset by 1 s).
struct ModelDriver {
    var model: ListModel
    /// Engine time, µs.
    private(set) var time: Int64
    private(set) var events: [Event] = []
    private(set) var frames: [Frame] = []
    /// Microseconds between ticks while the model is active.
    var tick: Int64 = 16_667

    init(preset: String = "ios", viewport: Size = Size(width: 390, height: 844), seed: UInt64 = 1) throws {
        time = 1_000_000
        model = try ListModel(viewport: viewport, preset: preset, seed: seed, time: Timestamp(microseconds: time))
    }

    var pageTime: Double { Double(time) / 1000 - 1000 }
    /// The list's rows (the placeholders of pages the window dropped included).
    var rows: Int { model.rowLayout.rowCount }
    /// The simulated feed's top item's id (its ids count up, newest first).
    var topID: Int { model.pager.topItem.flatMap { Int($0.id) } ?? 0 }
    var offset: Point { model.scroll.offset }
    func state(_ edge: Edge) -> EdgeState { model.control(edge).state }

    /// The transitions of `edge` so far, as "from→to".
    func transitions(_ edge: Edge) -> [String] {
        events.filter { $0.name == .transition && $0.edge == edge }.map { "\($0.from!.rawValue)→\($0.to!.rawValue)" }
    }

    /// The names of the events of `edge` so far, transitions excluded.
    func names(_ edge: Edge) -> [Event.Name] {
        events.filter { $0.edge == edge && $0.name != .transition }.map(\.name)
    }

    /// Forgets the events and frames collected so far.
    mutating func clearLog() {
        events.removeAll()
        frames.removeAll()
    }

    mutating func apply(_ input: Input) throws(ListModelError) {
        try model.apply(input, at: Timestamp(microseconds: time))
        collect()
    }

    /// Lets `milliseconds` pass, ticking like the server (only while the model is active).
    mutating func wait(_ milliseconds: Double) {
        let end = time + Int64(milliseconds * 1000)
        while time < end {
            time = min(end, time + tick)
            model.advance(to: Timestamp(microseconds: time))
            collect()
        }
    }

    /// Runs the model, ticking as in ``wait(_:)``, until exactly `target` µs (never backwards).
    mutating func run(until target: Int64) {
        while time < target {
            time = min(target, time + tick)
            model.advance(to: Timestamp(microseconds: time))
            collect()
        }
    }

    mutating func touch(_ phase: TouchPhase, dx: Double = 0, dy: Double = 0, pointer: Int = 0) throws(ListModelError) {
        try apply(.touch(TouchInput(phase: phase, delta: Point(x: dx, y: dy), pageTime: pageTime, pointer: pointer)))
    }

    /// A finger drag by (`dx`, `dy`) in `steps` moves `stepMs` apart; `release` lifts at the end.
    mutating func drag(
        dx: Double = 0, dy: Double = 0, steps: Int = 20, stepMs: Double = 16, release: Bool = true
    ) throws(ListModelError) {
        try touch(.start)
        for _ in 0..<steps {
            wait(stepMs)
            try touch(.move, dx: dx / Double(steps), dy: dy / Double(steps))
        }
        if release { try touch(.end) }
    }

    mutating func wheel(dx: Double = 0, dy: Double, mode: WheelDeltaMode = .pixel) throws(ListModelError) {
        try apply(.wheel(WheelInput(delta: Point(x: dx, y: dy), mode: mode, pageTime: pageTime)))
    }

    mutating func command(_ name: Command.Name, edge: Edge? = nil, animated: Bool = true) throws(ListModelError) {
        try apply(.command(Command(name, edge: edge, animated: animated)))
    }

    /// Waits until the model has nothing left to do (or `limitMs` passed).
    mutating func settle(limitMs: Double = 30_000) {
        var waited = 0.0
        while model.isBusy && waited < limitMs {
            wait(50)
            waited += 50
        }
    }

    private mutating func collect() {
        events += model.takeEvents()
        frames.append(model.frame())
    }
}
