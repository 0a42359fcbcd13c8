import RefreshKit
import RefreshWire

/// Bytes per moving frame (`phase` not `idle`), as whole `frame` messages and as the `delta`s a page that
/// asked for them receives, split by what the list is doing: **scrolling** the content (a finger or a wheel on
/// it, no edge pulled past its rest), **pulling** an edge (some edge's `distance` > 0 while the finger is
/// down), and **animating** (a fling, a spring back, a scroll command).
///
/// Two scripted sessions at 60 Hz, driven like the server drives one (a frame after each input, a tick and a
/// frame every period while something moves): the engine bench's own drag (the content scrolled up and back,
/// lifted with some velocity every 240 moves), and pulls of the top edge (45 moves of 5 px down, released at
/// the deepest point: a spring back, or a refresh when it armed, then 2 s to settle). Deterministic: the same
/// figures on every machine.
struct FrameBytes {
    struct Split {
        var frames = 0
        var fullBytes = 0
        var deltaBytes = 0

        var full: Double { frames > 0 ? Double(fullBytes) / Double(frames) : 0 }
        var delta: Double { frames > 0 ? Double(deltaBytes) / Double(frames) : 0 }

        mutating func add(full: Int, delta: Int) {
            frames += 1
            fullBytes += full
            deltaBytes += delta
        }
    }

    var scrolling = Split()
    var pulling = Split()
    var animating = Split()

    var all: Split {
        Split(
            frames: scrolling.frames + pulling.frames + animating.frames,
            fullBytes: scrolling.fullBytes + pulling.fullBytes + animating.fullBytes,
            deltaBytes: scrolling.deltaBytes + pulling.deltaBytes + animating.deltaBytes)
    }

    static func measure() throws -> FrameBytes {
        var bytes = FrameBytes()
        // The bench's drag: 2 400 inputs.
        try bytes.run((0..<2400).map { i in { time in EngineBench.input(i, at: time) } })
        // Pulls of the top edge: start, 45 moves down, lift, then 2 s of ticks; 10 times.
        var script: [((Int64) -> Input)?] = []
        for _ in 0..<10 {
            script.append { .touch(TouchInput(phase: .start, pageTime: Double($0) / 1000)) }
            for _ in 0..<45 {
                script.append {
                    .touch(TouchInput(phase: .move, delta: Point(x: 0, y: 5), pageTime: Double($0) / 1000))
                }
            }
            script.append { .touch(TouchInput(phase: .end, pageTime: Double($0) / 1000)) }
            script += Array(repeating: nil, count: 120)
        }
        try bytes.run(script)
        return bytes
    }

    /// One input (or none: only the tick) per 16.667 ms period.
    private mutating func run(_ script: [((Int64) -> Input)?]) throws {
        var time: Int64 = 1_000_000
        var session = try ListModel(viewport: EngineBench.viewport, time: Timestamp(microseconds: time))
        let encoder = MessageEncoder()
        var base = session.frame()
        var full: [UInt8] = []
        var delta: [UInt8] = []
        for input in script {
            time += EngineBench.period
            if let input {
                try session.apply(input(time), at: Timestamp(microseconds: time))
            } else if session.isActive || session.nextDeadline != nil {
                session.advance(to: Timestamp(microseconds: time))
            } else {
                continue  // at rest: the server sends nothing
            }
            _ = session.takeEvents()
            let frame = session.frame()
            full.removeAll(keepingCapacity: true)
            delta.removeAll(keepingCapacity: true)
            encoder.encode(frame, into: &full)
            encoder.encodeDelta(frame, from: base, into: &delta)
            base = frame
            switch frame.phase {
            case .idle: continue
            case .animating: animating.add(full: full.count, delta: delta.count)
            case .dragging, .wheel:
                if frame.edges.contains(where: { $0.distance > 0 }) {
                    pulling.add(full: full.count, delta: delta.count)
                } else {
                    scrolling.add(full: full.count, delta: delta.count)
                }
            }
        }
    }
}
