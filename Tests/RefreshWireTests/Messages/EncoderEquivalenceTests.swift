import Foundation
import RefreshKit
import RefreshWire
import Testing

/// Deterministic pseudo-random engine values.
enum RandomValues {
    static func length(_ g: inout SeededGenerator) -> Double {
        switch g.int(below: 6) {
        case 0: 0
        case 1: Double(g.int(below: 2000) - 1000)
        case 2: g.double(in: -1...1)
        default: g.double(in: -5000...5000)
        }
    }

    static func time(_ g: inout SeededGenerator) -> Timestamp {
        Timestamp(microseconds: Int64(g.int(below: 1 << 40)) - (1 << 20))
    }

    static func rect(_ g: inout SeededGenerator) -> Rect {
        Rect(x: length(&g), y: length(&g), width: abs(length(&g)), height: abs(length(&g)))
    }

    static func segment(_ g: inout SeededGenerator) -> MotionSegment {
        let kind = g.element(of: MotionSegment.Kind.allCases)
        let start = time(&g)
        return MotionSegment(
            kind: kind, start: start,
            end: kind == .hold && g.bool() ? nil : start.advanced(byMicroseconds: Int64(g.int(below: 2_000_000))),
            position: length(&g), velocity: g.double(in: -8000...8000), decayConstant: -g.double(in: 0...30),
            target: length(&g),
            spring: kind == .spring
                ? Spring(mass: g.double(in: 0.1...5), stiffness: g.double(in: 1...1000), damping: g.double(in: 0...100))
                : nil)
    }

    static func edge(_ g: inout SeededGenerator) -> EdgeFrame {
        EdgeFrame(
            edge: g.element(of: Edge.allCases), state: g.element(of: EdgeState.allCases), distance: length(&g),
            progress: g.double(in: 0...1), velocity: g.double(in: -5000...5000), control: rect(&g), view: rect(&g),
            scale: g.double(in: 0...3),
            cycle: g.bool()
                ? CycleFrame(
                    index: g.int(below: 1000), start: time(&g), duration: g.double(in: 0...5),
                    delay: g.double(in: 0...1),
                    kind: g.element(of: EdgeConfiguration.AnimationCycle.Kind.allCases)) : nil,
            exit: g.bool() ? ExitFrame(start: time(&g), duration: g.double(in: 0...2)) : nil)
    }

    static func frame(_ g: inout SeededGenerator) -> Frame {
        Frame(
            sequence: g.next() >> UInt64(g.int(below: 64)), time: time(&g), offset: Point(x: length(&g), y: length(&g)),
            velocity: Point(x: length(&g), y: length(&g)), phase: g.element(of: ScrollPhase.allCases),
            horizontalMotion: (0..<g.int(below: 3)).map { _ in segment(&g) },
            verticalMotion: (0..<g.int(below: 4)).map { _ in segment(&g) },
            contentSize: Size(width: abs(length(&g)), height: abs(length(&g))),
            viewport: Size(width: g.double(in: 1...3000), height: g.double(in: 1...3000)),
            insets: EdgeInsets(top: length(&g), left: length(&g), bottom: length(&g), right: length(&g)),
            edges: (0..<g.int(below: 5)).map { _ in edge(&g) },
            feed: FeedFrame(
                count: g.int(below: 10_000), hasMore: g.bool(), loading: g.bool(),
                rowHeight: g.double(in: 1...200)))
    }

    static func event(_ g: inout SeededGenerator) -> Event {
        Event(
            g.element(of: Event.Name.allCases), edge: g.bool() ? g.element(of: Edge.allCases) : nil,
            from: g.bool() ? g.element(of: EdgeState.allCases) : nil,
            to: g.bool() ? g.element(of: EdgeState.allCases) : nil,
            cause: g.element(of: Cause.allCases), time: time(&g), value: g.bool() ? length(&g) : nil)
    }
}

/// The JSON a frame or an event should become, written independently of the encoder as plain dictionaries.
enum Reference {
    static func ms(_ t: Timestamp) -> Double { Double(t.microseconds) / 1000 }
    static func point(_ p: Point) -> [String: Any] { ["x": p.x, "y": p.y] }
    static func size(_ s: Size) -> [String: Any] { ["w": s.width, "h": s.height] }
    static func rect(_ r: Rect) -> [String: Any] {
        ["x": r.origin.x, "y": r.origin.y, "w": r.size.width, "h": r.size.height]
    }

    static func segment(_ s: MotionSegment) -> [String: Any] {
        var object: [String: Any] = ["kind": s.kind.rawValue, "t0": ms(s.start), "x0": s.position]
        if let end = s.end { object["t1"] = ms(end) }
        switch s.kind {
        case .hold: break
        case .decay:
            object["v0"] = s.velocity
            object["k"] = s.decayConstant
        case .spring:
            object["v0"] = s.velocity
            object["target"] = s.target
            if let spring = s.spring {
                object["mass"] = spring.mass
                object["stiffness"] = spring.stiffness
                object["damping"] = spring.damping
            }
        case .timed:
            let curve = s.curve ?? .linear
            object["target"] = s.target
            object["curve"] = [curve.x1, curve.y1, curve.x2, curve.y2]
        }
        return object
    }

    static func frame(_ f: Frame) -> [String: Any] {
        var object: [String: Any] = [
            "type": "frame", "seq": f.sequence, "t": ms(f.time), "offset": point(f.offset),
            "velocity": point(f.velocity),
            "phase": f.phase.rawValue, "contentSize": size(f.contentSize), "viewport": size(f.viewport),
            "insets": ["top": f.insets.top, "left": f.insets.left, "bottom": f.insets.bottom, "right": f.insets.right],
            "edges": f.edges.map { e -> [String: Any] in
                var edge: [String: Any] = [
                    "edge": e.edge.rawValue, "state": e.state.rawValue, "distance": e.distance, "progress": e.progress,
                    "velocity": e.velocity, "control": rect(e.control), "view": rect(e.view), "scale": e.scale,
                ]
                if let c = e.cycle {
                    edge["cycle"] = [
                        "index": c.index, "t0": ms(c.start), "duration": c.duration, "delay": c.delay,
                        "kind": c.kind.rawValue,
                    ]
                }
                if let x = e.exit { edge["exit"] = ["t0": ms(x.start), "duration": x.duration] }
                return edge
            },
            "feed": [
                "count": f.feed.count, "hasMore": f.feed.hasMore, "loading": f.feed.loading,
                "rowHeight": f.feed.rowHeight,
            ],
        ]
        var segment: [String: Any] = [:]
        if !f.horizontalMotion.isEmpty { segment["x"] = f.horizontalMotion.map(Self.segment) }
        if !f.verticalMotion.isEmpty { segment["y"] = f.verticalMotion.map(Self.segment) }
        if !segment.isEmpty { object["segment"] = segment }
        return object
    }

    static func event(_ e: Event) -> [String: Any] {
        var object: [String: Any] = [
            "type": "event", "name": e.name.rawValue, "cause": e.cause.rawValue, "t": ms(e.time),
        ]
        if let edge = e.edge { object["edge"] = edge.rawValue }
        if let from = e.from { object["from"] = from.rawValue }
        if let to = e.to { object["to"] = to.rawValue }
        if let value = e.value { object["value"] = value }
        return object
    }

    /// Differences between what Foundation parsed and the reference: same keys, same strings and booleans,
    /// integers equal, other numbers within `tolerance`.
    static func differences(_ actual: Any, _ expected: Any, path: String = "", tolerance: Double = 1e-3) -> [String] {
        switch expected {
        case let expected as [String: Any]:
            guard let actual = actual as? [String: Any] else { return ["\(path): not an object"] }
            var found: [String] = []
            if Set(actual.keys) != Set(expected.keys) {
                found.append("\(path): keys \(actual.keys.sorted()) ≠ \(expected.keys.sorted())")
            }
            for (key, value) in expected {
                if let other = actual[key] {
                    found += differences(other, value, path: "\(path).\(key)", tolerance: tolerance)
                }
            }
            return found
        case let expected as [Any]:
            guard let actual = actual as? [Any], actual.count == expected.count else {
                return ["\(path): array differs"]
            }
            return zip(actual, expected).enumerated().flatMap {
                differences($1.0, $1.1, path: "\(path)[\($0)]", tolerance: tolerance)
            }
        case let expected as String:
            return actual as? String == expected ? [] : ["\(path): \(actual) ≠ \(expected)"]
        case let expected as Bool:
            // Foundation gives booleans as NSNumber; the byte-exact tests check the text says true/false.
            return (actual as? Bool) == expected ? [] : ["\(path): \(actual) ≠ \(expected)"]
        case let expected as Int:
            return (actual as? NSNumber)?.int64Value == Int64(expected) ? [] : ["\(path): \(actual) ≠ \(expected)"]
        case let expected as UInt64:
            return (actual as? NSNumber)?.uint64Value == expected ? [] : ["\(path): \(actual) ≠ \(expected)"]
        case let expected as Double:
            guard let value = (actual as? NSNumber)?.doubleValue, abs(value - expected) <= tolerance else {
                return ["\(path): \(actual) ≠ \(expected)"]
            }
            return []
        default:
            return ["\(path): unexpected reference value \(expected)"]
        }
    }
}

@Suite("Encoder output is what Foundation reads")
struct EncoderEquivalenceTests {
    @Test func framesMatchTheReference() throws {
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<1000 {
            let frame = RandomValues.frame(&generator)
            let object = try foundationObject { $0.encode(frame, into: &$1) }
            let differences = Reference.differences(object, Reference.frame(frame))
            let text = encoded { $0.encode(frame, into: &$1) }
            #expect(text.contains(#""hasMore":\#(frame.feed.hasMore),"loading":\#(frame.feed.loading),"#))
            #expect(differences.isEmpty, "\(differences.prefix(5))")
        }
    }

    @Test func eventsMatchTheReference() throws {
        var generator = SeededGenerator(seed: 4048)
        for _ in 0..<1000 {
            let event = RandomValues.event(&generator)
            let object = try foundationObject { $0.encode(event, into: &$1) }
            let differences = Reference.differences(object, Reference.event(event))
            #expect(differences.isEmpty, "\(differences.prefix(5))")
        }
    }

    @Test func timesAreExact() throws {
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<1000 {
            let event = RandomValues.event(&generator)
            let object = try foundationObject { $0.encode(event, into: &$1) }
            let t = try #require(object["t"] as? NSNumber).doubleValue
            #expect(Timestamp(milliseconds: t) == event.time)
        }
    }

    @Test func welcomeMatchesTheConfiguration() throws {
        for preset in Preset.all {
            let welcome = Welcome(
                session: "a", token: "b", preset: preset.name, presets: Preset.names,
                configuration: preset.configuration,
                serverTime: Timestamp(microseconds: 1))
            var object = try foundationObject { $0.encode(welcome, into: &$1) }
            // The schema is the same in every welcome (ConfigurationSchemaDocumentTests).
            #expect(object.removeValue(forKey: "schema") is [String: Any])
            let c = preset.configuration
            var edges: [String: Any] = [:]
            for (edge, e) in c.edges {
                edges[edge.rawValue] =
                    [
                        "role": e.role.rawValue, "enabled": e.enabled, "triggerDistance": e.triggerDistance,
                        "restingInset": e.restingInset, "promptingInset": e.promptingInset, "preload": e.preload,
                        "trigger": e.trigger.rawValue, "strictness": e.strictness.rawValue, "fling": e.fling.rawValue,
                        "shortContent": e.shortContent.rawValue, "minimumVisibleDuration": e.minimumVisibleDuration,
                        "startDuration": e.startDuration, "exitDuration": e.exitDuration,
                        "insetMotion": e.insetMotion.rawValue, "endsOnCycleBoundary": e.endsOnCycleBoundary,
                        "presentation": e.presentation.rawValue,
                        "anchor": e.anchor.rawValue, "viewBehaviour": e.viewBehaviour.rawValue,
                        "cycleDuration": e.cycle.duration,
                        "cycleDelay": e.cycle.delay, "cycleKind": e.cycle.kind.rawValue, "height": e.height,
                        "control": e.control.description,
                    ] as [String: Any]
            }
            let expected: [String: Any] = [
                "type": "welcome", "session": "a", "token": "b", "preset": preset.name, "presets": Preset.names,
                "config": [
                    "edges": edges,
                    "insets": [
                        "top": c.insets.top, "left": c.insets.left, "bottom": c.insets.bottom,
                        "right": c.insets.right,
                    ] as [String: Any],
                    "feed": [
                        "latencyMs": c.feed.latencyMs, "failureRate": c.feed.failureRate, "pageSize": c.feed.pageSize,
                        "totalItems": c.feed.totalItems, "newItemsPerRefresh": c.feed.newItemsPerRefresh,
                        "rowHeight": c.feed.rowHeight, "timeoutMs": c.feed.timeoutMs,
                        "sectionHeaderHeight": c.feed.sectionHeaderHeight,
                    ] as [String: Any],
                    "physics": [
                        "decelerationRate": c.decelerationRate, "spring": c.springName, "rubberBand": c.rubberBand,
                        "flingPrefetch": c.flingPrefetch,
                    ]
                        as [String: Any],
                    "events": (c.events ?? .refreshkit).rawValue,
                ] as [String: Any],
                "serverT": 0.001, "protocol": "refreshkit.v1", "binary": ["touch"],
                "feed": ["source": "simulated", "kind": "simulated", "postable": false, "requests": [Any]()]
                    as [String: Any],
                "role": "owner",
            ]
            let differences = Reference.differences(object, expected, tolerance: 1e-9)
            #expect(differences.isEmpty, "\(differences)")
        }
    }
}
