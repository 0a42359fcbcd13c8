import RefreshKit

/// One step of a random trace: an input at an engine time, or only the passage of time (a host tick).
struct TraceStep: Hashable, Sendable {
    /// What the model must do with an input at its boundary.
    enum Expectation: Hashable, Sendable {
        /// In range: applied without an error.
        case accept
        /// Out of range: refused with a `ListModelError`, the model unchanged.
        case reject
        /// Odd but not validated (a hostile page timestamp): either, as long as nothing is corrupted.
        case either
    }

    enum Action: Hashable, Sendable {
        case input(Input, Expectation)
        case tick
    }

    /// Engine time, µs. It may lie before the model's clock (a host whose clock went back).
    var time: Int64
    var action: Action
}

/// A deterministic generator of hostile but plausible traces: drags with several pointers (and moves or
/// lifts without a start), wheel streams in every mode with decaying momentum, resizes, commands,
/// `configure` patches, out-of-range numbers, and time gaps from 0 µs to minutes.
struct TraceGenerator {
    private var random: FuzzRandom
    private(set) var time: Int64
    /// The pointer the trace believes holds the content, and its per-move drift.
    private var drag: (pointer: Int, drift: Point)?
    /// A wheel stream under way: its delta, its decay per event (1 = none), events left.
    private var stream: (delta: Point, mode: WheelDeltaMode, factor: Double, left: Int)?

    init(seed: UInt64, start: Int64) {
        random = FuzzRandom(seed: seed)
        time = start
    }

    /// A viewport for a new model: usually a phone or a desktop, sometimes tiny or huge.
    mutating func viewport() -> Size { validSize() }

    /// A device pixel ratio in the accepted range, 0.1…16.
    mutating func devicePixelRatio() -> Double { random.pick([0.1, 1, 1, 2, 3, 2.625, 16]) }

    mutating func next() -> TraceStep {
        time += gap()
        let action: TraceStep.Action
        if drag != nil && random.chance(0.85) {
            action = touchAction()
        } else if stream != nil && random.chance(0.85) {
            action = wheelAction(streamEvent())
        } else {
            action = other()
        }
        return TraceStep(time: time, action: action)
    }

    /// The page's clock: engine time less one second, sometimes jittered, sometimes absurd.
    private mutating func pageTime() -> (time: Double, hostile: Bool) {
        let clean = Double(time) / 1000 - 1000
        switch random.int(0...99) {
        case 0: return (random.hostileTime(), true)
        case 1..<8: return (clean - random.double(0...40), false)
        default: return (clean, false)
        }
    }

    private mutating func gap() -> Int64 {
        if drag != nil || stream != nil {
            return random.chance(0.9) ? random.int64(2_000...20_000) : random.int64(0...200_000)
        }
        switch random.int(0...99) {
        case 0..<15: return 0
        case 15..<30: return random.int64(1...999)
        case 30..<70: return random.int64(1_000...50_000)
        case 70..<92: return random.int64(50_000...5_000_000)
        case 92..<98: return random.int64(5_000_000...300_000_000)
        default: return -random.int64(1...2_000_000)
        }
    }

    private mutating func other() -> TraceStep.Action {
        switch random.int(0...99) {
        case 0..<30:
            return touchAction()
        case 30..<45:
            startStream()
            return wheelAction(streamEvent())
        case 45..<50:
            return wheelAction(oddWheel())
        case 50..<54:
            return random.chance(0.8) ? .input(.resize(validSize()), .accept) : .input(.resize(invalidSize()), .reject)
        case 54..<66:
            return command()
        case 66..<74:
            let (patch, valid) = random.configurationPatch()
            return .input(.configure(patch), valid ? .accept : .reject)
        case 74..<79:
            return hostileGesture()
        default:
            return .tick
        }
    }

    // MARK: - Touch

    /// A touch sample; one with an absurd page time is not refused by the engine, which must shrug it off.
    private mutating func touchAction() -> TraceStep.Action {
        let (page, hostile) = pageTime()
        return .input(.touch(touch(at: page)), hostile ? .either : .accept)
    }

    private mutating func touch(at page: Double) -> TouchInput {
        if let current = drag {
            if random.chance(0.08) {
                // Another finger: a start, move or lift of a pointer that does not own the content.
                let other = (current.pointer + random.int(1...3)) % 4
                return TouchInput(phase: random.any(TouchPhase.self), delta: delta(), pageTime: page, pointer: other)
            }
            switch random.int(0...99) {
            case 0..<82:
                let step = Point(x: current.drift.x + random.double(-3...3), y: current.drift.y + random.double(-3...3))
                return TouchInput(
                    phase: .move, delta: random.chance(0.9) ? step : delta(), pageTime: page, pointer: current.pointer)
            case 82..<95:
                drag = nil
                return TouchInput(
                    phase: .end, delta: random.chance(0.8) ? .zero : delta(), pageTime: page, pointer: current.pointer)
            case 95..<98:
                drag = nil
                return TouchInput(phase: .cancel, pageTime: page, pointer: current.pointer)
            default:
                return TouchInput(phase: .start, pageTime: page, pointer: current.pointer)
            }
        }
        let pointer = random.int(0...3)
        let phase: TouchPhase = random.chance(0.6) ? .start : random.any(TouchPhase.self)
        if phase == .start || phase == .move {
            let along = random.sign() * random.pick([2, 8, 20, 40, 90])
            let drift =
                random.chance(0.75)
                ? Point(x: 0, y: along) : random.chance(0.5) ? Point(x: along, y: 0) : Point(x: along, y: along)
            drag = (pointer, drift)
        }
        return TouchInput(phase: phase, delta: phase == .start ? .zero : delta(), pageTime: page, pointer: pointer)
    }

    private mutating func delta() -> Point {
        random.chance(0.6)
            ? Point(x: random.chance(0.7) ? 0 : random.pixels(), y: random.pixels()) : Point(x: random.pixels(), y: 0)
    }

    // MARK: - Wheel

    private mutating func startStream() {
        let mode: WheelDeltaMode = random.chance(0.75) ? .pixel : random.chance(0.6) ? .line : .page
        let size: Double =
            switch mode {
            case .pixel: random.pick([1, 4, 10, 30, 60, 120])
            case .line: random.pick([1, 3])
            case .page: random.pick([0.25, 1])
            }
        let along = random.sign() * size
        let delta = random.chance(0.8) ? Point(x: 0, y: along) : Point(x: along, y: random.chance(0.5) ? 0 : along / 3)
        let factor = random.chance(0.5) ? random.double(0.6...0.96) : random.chance(0.5) ? 1 : random.double(0.3...1.5)
        stream = (delta, mode, factor, random.int(2...40))
    }

    /// A wheel event; a growing stream may pass the largest delta accepted (1 000 000 px), and is refused then,
    /// as is a page time that is not a finite number.
    private func wheelAction(_ wheel: WheelInput) -> TraceStep.Action {
        let accepted =
            [wheel.delta.x, wheel.delta.y].allSatisfy { $0.isFinite && abs($0) <= 1_000_000 }
            && wheel.pageTime.isFinite
        return .input(.wheel(wheel), accepted ? .accept : .reject)
    }

    private mutating func streamEvent() -> WheelInput {
        guard var current = stream else { return oddWheel() }
        let input = WheelInput(delta: current.delta, mode: current.mode, pageTime: pageTime().time)
        current.delta = Point(x: current.delta.x * current.factor, y: current.delta.y * current.factor)
        current.left -= 1
        stream = current.left > 0 ? current : nil
        return input
    }

    private mutating func oddWheel() -> WheelInput {
        WheelInput(delta: delta(), mode: random.any(WheelDeltaMode.self), pageTime: pageTime().time)
    }

    // MARK: - Resize, commands, hostile numbers

    private mutating func validSize() -> Size {
        switch random.int(0...9) {
        case 0:
            return Size(
                width: random.pick([.leastNonzeroMagnitude, 1e-6, 0.5, 1]),
                height: random.pick([1e-6, 1, 844, 100_000]))
        case 1:
            return Size(
                width: random.pick([1, 390, 100_000]), height: random.pick([.leastNonzeroMagnitude, 0.5, 100_000]))
        case 2...4: return Size(width: random.double(1...3000), height: random.double(1...3000))
        default:
            return random.pick([
                Size(width: 390, height: 844), Size(width: 320, height: 568), Size(width: 1280, height: 720),
            ])
        }
    }

    private mutating func invalidSize() -> Size {
        let bad = random.pick([0, -0.0, -1, .nan, .infinity, -.infinity, 100_000.000_1, 1e300])
        return random.chance(0.5) ? Size(width: bad, height: 844) : Size(width: 390, height: bad)
    }

    private mutating func command() -> TraceStep.Action {
        let name = random.any(Command.Name.self)
        let edge: Edge? = random.chance(0.4) ? nil : random.any(Edge.self)
        var amount = random.chance(0.3) ? 0 : random.pixels() / random.pick([1, 100, 10_000])
        var expectation = TraceStep.Expectation.accept
        if random.chance(0.05) {
            amount = random.hostile()
            expectation = .reject
        }
        guard name == .scrollToItem else {
            return .input(
                .command(Command(name, edge: edge, animated: random.chance(0.6), amount: amount)), expectation)
        }
        // A row by index: one the list may or may not hold (the generator does not know how many it holds), one
        // that cannot be, or an id no feed makes.
        let (item, expected): (ItemTarget?, TraceStep.Expectation) =
            switch random.int(0...9) {
            case 0: (.index(-1), .reject)
            case 1: (.id("no item has this id"), .reject)
            case 2: (nil, .reject)
            default: (.index(random.int(0...60)), .either)
            }
        let align = random.any(ItemAlignment.self)
        let command = Command(name, animated: random.chance(0.6), item: item, align: align)
        return .input(.command(command), expected)
    }

    /// A touch or a wheel with a delta no model may take.
    private mutating func hostileGesture() -> TraceStep.Action {
        let bad = random.chance(0.5) ? Point(x: random.hostile(), y: 0) : Point(x: random.pixels(), y: random.hostile())
        if random.chance(0.5) {
            let phase = random.any(TouchPhase.self)
            return .input(
                .touch(TouchInput(phase: phase, delta: bad, pageTime: pageTime().time, pointer: random.int(0...3))),
                .reject)
        }
        return .input(
            .wheel(WheelInput(delta: bad, mode: random.any(WheelDeltaMode.self), pageTime: pageTime().time)), .reject)
    }
}
