import Foundation
import PageFixtures
import RefreshKit
import RefreshWire
import Testing

/// The page's evaluator against the engine's: web/test/fixtures/segments.json holds timed segments as the
/// encoder writes them (inside a frame) with the engine's position and velocity at fixed times, and
/// web/test/motion.test.js evaluates each with web/js/motion.js and matches them to 1e-9.
@Suite struct TimedSegmentFixtureTests {
    /// Synthetic segments: every named curve, a curve whose X'(s) vanishes mid-way (the solve's bisection
    /// path) and one that overshoots, at durations and start times with fractional milliseconds.
    static func syntheticSegments() -> [MotionSegment] {
        let curves: [TimingCurve] = [
            .linear, .easeIn, .easeOut, .easeInEaseOut, .default, TimingCurve(1, 0, 0, 1),
            TimingCurve(0.68, -0.55, 0.265, 1.55),
        ]
        var segments: [MotionSegment] = []
        for (index, curve) in curves.enumerated() {
            let start = Timestamp(microseconds: 81_351_300 + Int64(index) * 1_000_007)
            let duration = [0.1, 0.2, 0.25, 0.333333, 0.3][index % 5]
            let (from, to) = index % 2 == 0 ? (-83.125, 0.0) : (0.0, -60.5)
            segments.append(.timed(from: from, to: to, at: start, duration: duration, curve: curve))
        }
        return segments
    }

    /// Segments the engine plans itself: each timed preset's top edge started by a command and by a release.
    static func presetSegments() throws -> [MotionSegment] {
        var segments: [MotionSegment] = []
        for preset in ["jh", "ms", "ht", "iq"] {
            let t = Timestamp(microseconds: 5_000_000)
            var session = try ListModel(viewport: Size(width: 390, height: 844), preset: preset, time: t)
            try session.apply(.command(Command(.refresh, edge: .top)), at: t.advanced(byMicroseconds: 1_234))
            if let first = session.scroll.verticalMotion.first, first.kind == .timed { segments.append(first) }
            var pulled = try ListModel(viewport: Size(width: 390, height: 844), preset: preset, time: t)
            var now = t
            try pulled.apply(.touch(TouchInput(phase: .start, delta: .zero, pageTime: 0, pointer: 0)), at: now)
            for step in 1...20 {
                now = now.advanced(byMicroseconds: 16_000)
                try pulled.apply(
                    .touch(
                        TouchInput(phase: .move, delta: Point(x: 0, y: 21), pageTime: Double(step) * 16, pointer: 0)),
                    at: now)
            }
            now = now.advanced(byMicroseconds: 150_000)
            try pulled.apply(.touch(TouchInput(phase: .end, delta: .zero, pageTime: 470, pointer: 0)), at: now)
            if let first = pulled.scroll.verticalMotion.first, first.kind == .timed { segments.append(first) }
        }
        return segments
    }

    /// The segment the page reads: the numbers as written (3 decimals for lengths, ms with 3 decimals).
    static func asWritten(_ json: [String: Any]) throws -> MotionSegment {
        func microseconds(_ key: String) throws -> Timestamp {
            Timestamp(microseconds: Int64(((try #require(json[key] as? Double)) * 1000).rounded()))
        }
        let curve = try #require(json["curve"] as? [Double])
        return MotionSegment(
            kind: .timed, start: try microseconds("t0"), end: try microseconds("t1"),
            position: try #require(json["x0"] as? Double), velocity: 0,
            target: try #require(json["target"] as? Double),
            curve: TimingCurve(curve[0], curve[1], curve[2], curve[3]))
    }

    static func frameText(_ segment: MotionSegment) -> String {
        let frame = Frame(
            sequence: 1, time: segment.start, offset: Point(x: 0, y: segment.position), velocity: .zero,
            phase: .animating, verticalMotion: [segment], contentSize: Size(width: 390, height: 2000),
            viewport: Size(width: 390, height: 844), insets: .zero, edges: [],
            feed: FeedFrame(count: 20, hasMore: true, loading: false, rowHeight: 100))
        var buffer: [UInt8] = []
        MessageEncoder().encode(frame, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func thePageFixtureOfTimedSegmentsIsWhatTheEngineComputes() throws {
        let segments = try Self.syntheticSegments() + Self.presetSegments()
        #expect(segments.count >= 7 + 4 + 3)
        var vectors: [String] = []
        for segment in segments {
            let text = Self.frameText(segment)
            let frame = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let chain = try #require((frame["segment"] as? [String: Any])?["y"] as? [[String: Any]])
            let written = try Self.asWritten(chain[0])
            let start = written.start.microseconds
            let end = try #require(written.end).microseconds
            let length = end - start
            var samples: [String] = []
            // Before, at, through, at and after the end; odd microseconds on purpose.
            let times =
                [start - 5_000, start, start + 1] + (1..<16).map { start + length * Int64($0) / 16 + 3 }
                + [end - 1, end, end + 40_000]
            for t in times {
                let at = Timestamp(microseconds: t)
                let x = written.position(at: at)
                let v = written.velocity(at: at)
                #expect(x.isFinite && v.isFinite)
                samples.append("[\(Double(t) / 1000),\(x),\(v)]")
            }
            // The quoted frame text, as the page receives it.
            let quoted =
                "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
            vectors.append("{\"frame\":\(quoted),\"samples\":[\(samples.joined(separator: ","))]}")
        }
        let out = "{\"vectors\":[\n" + vectors.joined(separator: ",\n") + "\n]}\n"
        #expect(
            try PageFixtures.committed(out, named: "segments.json") == out,
            "\(PageFixtures.differs("segments.json", filter: "thePageFixture"))")
    }

    @Test func theNamedCurvesAreCoreAnimations() {
        #expect(TimingCurve.easeInEaseOut == TimingCurve(0.42, 0, 0.58, 1))
        #expect(TimingCurve.easeOut == TimingCurve(0, 0, 0.58, 1))
        #expect(TimingCurve.easeIn == TimingCurve(0.42, 0, 1, 1))
        #expect(TimingCurve.default == TimingCurve(0.25, 0.1, 0.25, 1))
        // Ease-in-ease-out is symmetric: half the time, half the way.
        #expect(TimingCurve.easeInEaseOut.progress(at: 0.5) == 0.5)
        #expect(abs(TimingCurve.easeOut.progress(at: 0.5) - 0.6846431874274606) < 1e-12)
        // Every named curve but linear arrives at rest; ease-out leaves at 1/0.58 of the average speed.
        #expect(TimingCurve.easeOut.slope(at: 1) == 0)
        #expect(abs(TimingCurve.easeOut.slope(at: 0) - 1 / 0.58) < 1e-12)
        #expect(TimingCurve.linear.slope(at: 0.3) == 1)
    }
}
