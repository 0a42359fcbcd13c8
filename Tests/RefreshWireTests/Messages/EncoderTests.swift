import Foundation
import RefreshKit
import Testing

@testable import RefreshWire

@Suite("Encoding the server's messages")
struct EncoderTests {
    static let sampleFrame = Frame(
        sequence: 2,
        time: Timestamp(microseconds: 81_315_200),
        offset: Point(x: 0, y: -21),
        velocity: Point(x: 0, y: -1234.5678),
        phase: .animating,
        verticalMotion: [
            MotionSegment(
                kind: .decay, start: Timestamp(microseconds: 81_400_000), end: Timestamp(microseconds: 81_500_123),
                position: -21, velocity: -300, decayConstant: 1000 * log(0.998), target: -80),
            MotionSegment(
                kind: .spring, start: Timestamp(microseconds: 81_500_123), end: Timestamp(microseconds: 82_010_000),
                position: -21, velocity: 0, target: 0, spring: Spring(mass: 0.5, stiffness: 100, damping: 15.556)),
            MotionSegment(
                kind: .hold, start: Timestamp(microseconds: 82_010_000), end: nil, position: 0, velocity: 0, target: 0),
        ],
        contentSize: Size(width: 390, height: 1440),
        viewport: Size(width: 390, height: 844),
        insets: EdgeInsets(top: 60, left: 0, bottom: 0.5, right: 0),
        edges: [
            EdgeFrame(
                edge: .top, state: .refreshing, distance: 21, progress: 0.21, velocity: 0,
                control: Rect(x: 0, y: -60, width: 390, height: 60), view: Rect(x: 0, y: -60, width: 390, height: 60),
                scale: 1,
                cycle: CycleFrame(
                    index: 3, start: Timestamp(microseconds: 81_000_000), duration: 1.2, delay: 0.1, kind: .keyframe),
                exit: ExitFrame(start: Timestamp(microseconds: 81_315_001), duration: 0.3)),
            EdgeFrame(edge: .bottom, state: .noMoreData, distance: -1e-9, progress: 0, velocity: 1.0005),
        ],
        feed: FeedFrame(count: 20, hasMore: false, loading: true, rowHeight: 72))

    @Test func frameBytesAreExactlyAsSpecified() {
        let text = encoded { $0.encode(Self.sampleFrame, into: &$1) }
        let expected =
            #"{"type":"frame","seq":2,"t":81315.2,"offset":{"x":0,"y":-21},"velocity":{"x":0,"y":-1234.568},"#
            + #""phase":"animating","segment":{"y":[{"kind":"decay","t0":81400,"t1":81500.123,"x0":-21,"#
            + #""v0":-300,"k":-2.002003},{"kind":"spring","t0":81500.123,"t1":82010,"x0":-21,"v0":0,"target":0,"#
            + #""mass":0.5,"stiffness":100,"damping":15.556},{"kind":"hold","t0":82010,"x0":0}]},"#
            + #""contentSize":{"w":390,"h":1440},"viewport":{"w":390,"h":844},"#
            + #""insets":{"top":60,"left":0,"bottom":0.5,"right":0},"edges":[{"edge":"top","state":"refreshing","#
            + #""distance":21,"progress":0.21,"velocity":0,"control":{"x":0,"y":-60,"w":390,"h":60},"#
            + #""view":{"x":0,"y":-60,"w":390,"h":60},"scale":1,"cycle":{"index":3,"t0":81000,"duration":1.2,"#
            + #""delay":0.1,"kind":"keyframe"},"exit":{"t0":81315.001,"duration":0.3}},{"edge":"bottom","#
            + #""state":"noMoreData","distance":0,"progress":0,"velocity":1.001,"#
            + #""control":{"x":0,"y":0,"w":0,"h":0},"view":{"x":0,"y":0,"w":0,"h":0},"scale":1}],"#
            + #""feed":{"count":20,"hasMore":false,"loading":true,"rowHeight":72}}"#
        #expect(text == expected)
    }

    @Test func segmentHoldsOnlyTheAnimatingAxes() {
        var frame = Self.sampleFrame
        frame.verticalMotion = []
        #expect(!encoded { $0.encode(frame, into: &$1) }.contains("segment"))
        frame.horizontalMotion = [
            MotionSegment(kind: .hold, start: .zero, end: nil, position: 1, velocity: 0, target: 1)
        ]
        #expect(encoded { $0.encode(frame, into: &$1) }.contains(#""segment":{"x":[{"kind":"hold","t0":0,"x0":1}]},"#))
        frame.verticalMotion = frame.horizontalMotion
        #expect(
            encoded { $0.encode(frame, into: &$1) }.contains(#""segment":{"x":[{"kind":"hold","t0":0,"x0":1}],"y":[{"#))
    }

    @Test func eventBytes() {
        let transition = Event(
            .transition, edge: .top, from: .idle, to: .pulling, cause: .drag, time: Timestamp(microseconds: 81_315_200))
        #expect(
            encoded { $0.encode(transition, into: &$1) }
                == #"{"type":"event","name":"transition","edge":"top","from":"idle","to":"pulling","cause":"drag","#
                + #""t":81315.2}"#)
        let loaded = Event(.feedLoaded, cause: .feedCompleted, time: Timestamp(microseconds: -5), value: 20)
        #expect(
            encoded { $0.encode(loaded, into: &$1) }
                == #"{"type":"event","name":"feedLoaded","cause":"feedCompleted","t":-0.005,"value":20}"#)
        // In a library's names (docs/PROTOCOL.md, "event"): the library's, and ours for what it stands for.
        let engaged = Event(
            .didStart, edge: .top, cause: .release, time: Timestamp(microseconds: 2000), library: .didEngageRefresh)
        #expect(
            encoded { $0.encode(engaged, into: &$1) }
                == #"{"type":"event","name":"DidEngageRefresh","kit":"didStart","edge":"top","cause":"release","t":2}"#)
    }

    @Test func errorBytes() {
        let error = WireError(code: .badField, message: "wheel.dy must be a finite number", ref: "wheel")
        #expect(
            encoded { $0.encode(error, into: &$1) }
                == #"{"type":"error","code":"bad_field","message":"wheel.dy must be a finite number","ref":"wheel"}"#)
        #expect(
            encoded { $0.encode(WireError(code: .badJSON, message: "not JSON"), into: &$1) }
                == #"{"type":"error","code":"bad_json","message":"not JSON"}"#)
    }

    @Test func pongEchoesTExactly() throws {
        #expect(
            encoded { $0.encodePong(t: 1021.3, serverTime: Timestamp(microseconds: 81_236_000), into: &$1) }
                == #"{"type":"pong","t":1021.3,"serverT":81236}"#)
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let t =
                generator.bool() ? generator.double(in: 0...1e7) : (generator.double(in: 0...1e6) * 10).rounded() / 10
            // JSONDecoder parses numbers exactly (JSONSerialization on Linux can be one ulp off).
            let text = encoded { $0.encodePong(t: t, serverTime: .zero, into: &$1) }
            let echoed = try JSONDecoder().decode(Pong.self, from: Data(text.utf8)).t
            #expect(echoed.bitPattern == t.bitPattern, "\(t) came back as \(echoed)")
        }
    }

    private struct Pong: Decodable {
        var type: String
        var t: Double
        var serverT: Double
    }

    @Test func welcomeBytes() {
        let welcome = Welcome(
            session: "s1", token: "tk", preset: "ios", presets: ["ios", "jh"],
            configuration: ListConfiguration(
                edges: [.bottom: EdgeConfiguration(role: .loadMore, trigger: .onReachEdge)], decelerationRate: 0.998),
            serverTime: Timestamp(microseconds: 81_234_500))
        let expected =
            #"{"type":"welcome","session":"s1","token":"tk","preset":"ios","presets":["ios","jh"],"#
            + #""config":{"edges":{"bottom":{"role":"loadMore","enabled":true,"triggerDistance":100,"restingInset":60,"#
            + #""promptingInset":0,"preload":0,"trigger":"onReachEdge","strictness":"inclusive","fling":"ignore","#
            + #""shortContent":"enabled","minimumVisibleDuration":0.4,"startDuration":0.25,"exitDuration":0.3,"#
            + #""insetMotion":"spring","endsOnCycleBoundary":false,"presentation":"slideDown","anchor":"bottom","viewBehaviour":"fixedBottom","cycleDuration":1,"#
            + #""cycleDelay":0,"cycleKind":"default","height":60,"control":"footer"}},"#
            + #""insets":{"top":0,"left":0,"bottom":0,"right":0},"feed":{"latencyMs":1200,"failureRate":0,"#
            + #""pageSize":20,"totalItems":200,"newItemsPerRefresh":3,"rowHeight":72,"timeoutMs":10000,"sectionHeaderHeight":28},"#
            + #""physics":{"decelerationRate":0.998,"spring":"ios","rubberBand":0.55,"flingPrefetch":true},"#
            + #""events":"refreshkit"},"#
            + #""schema":\#(String(decoding: ConfigurationJSON.schemaJSON, as: UTF8.self)),"serverT":81234.5,"#
            + #""protocol":"refreshkit.v1","binary":["touch"],"feed":{"source":"simulated","kind":"simulated","postable":false,"#
            + #""requests":[]},"role":"owner"}"#
        #expect(encoded { $0.encode(welcome, into: &$1) } == expected)
    }

    /// Every welcome names the member's role; the owner's has the share links, one per role (PROTOCOL.md, "Roles").
    @Test func welcomeRoleAndLinks() {
        var welcome = Welcome(
            session: "s1", token: "tk", preset: "ios", presets: ["ios"], configuration: Preset.ios.configuration,
            serverTime: .zero, role: .owner, links: ShareLinks(session: "s1", drive: "d1", watch: "w1"))
        #expect(
            encoded { $0.encode(welcome, into: &$1) }.hasSuffix(
                #","role":"owner","links":{"drive":"/?s=s1&k=d1","watch":"/?s=s1&k=w1"}}"#))
        (welcome.role, welcome.links) = (.watch, nil)
        #expect(encoded { $0.encode(welcome, into: &$1) }.hasSuffix(#","role":"watch"}"#))
    }

    @Test func welcomeListsEdgesInAFixedOrderWithExactNumbers() throws {
        var top = EdgeConfiguration(
            triggerDistance: 0.1 + 0.2, cycle: .init(duration: 1.0 / 3.0, delay: 1e-7, kind: .spring))
        top.height = 123_456_789.123_456_78
        let configuration = ListConfiguration(
            edges: [.right: .none, .left: .none, .bottom: .none, .top: top], decelerationRate: 0.9985432101)
        let welcome = Welcome(
            session: "", token: "", preset: "ios", presets: [], configuration: configuration, serverTime: .zero)
        let text = encoded { $0.encode(welcome, into: &$1) }
        let order = ["top", "bottom", "left", "right"].compactMap { text.range(of: #""\#($0)":{"role""#)?.lowerBound }
        #expect(order.count == 4 && order == order.sorted())
        // Read back with the standard library's parser, which is correctly rounded.
        func number(_ key: String) -> Double? {
            guard let start = text.range(of: #""\#(key)":"#)?.upperBound else { return nil }
            return Double(String(text[start...].prefix { $0 != "," && $0 != "}" }))
        }
        #expect(number("triggerDistance") == 0.1 + 0.2)
        #expect(number("cycleDuration") == 1.0 / 3.0)
        #expect(number("cycleDelay") == 1e-7)
        #expect(number("height") == 123_456_789.123_456_78)
        #expect(number("decelerationRate") == 0.9985432101)
    }

    @Test func encodingAppendsToTheBuffer() {
        var buffer = Array("prefix".utf8)
        MessageEncoder().encodePong(t: 1, serverTime: .zero, into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"prefix{"type":"pong","t":1,"serverT":0}"#)
    }

    @Test func sameValueSameBytes() {
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<200 {
            let frame = RandomValues.frame(&generator)
            var first: [UInt8] = []
            var second: [UInt8] = []
            MessageEncoder().encode(frame, into: &first)
            MessageEncoder().encode(frame, into: &second)
            #expect(first == second)
            // And a reused buffer gives the same bytes again.
            second.removeAll(keepingCapacity: true)
            MessageEncoder().encode(frame, into: &second)
            #expect(first == second)
        }
    }
}

@Suite("Number formatting")
struct NumberFormattingTests {
    /// How `value` is written as a length (rounded to 1/1000), through a frame's `offset.y`.
    private func length(_ value: Double) -> String {
        var frame = EncoderTests.sampleFrame
        frame.offset.y = value
        let text = encoded { $0.encode(frame, into: &$1) }
        let start = text.range(of: #""offset":{"x":0,"y":"#)!.upperBound
        return String(text[start...].prefix { $0 != "}" })
    }

    private func exact(_ value: Double) -> String {
        let text = encoded { $0.encodePong(t: value, serverTime: .zero, into: &$1) }
        let start = text.range(of: #""t":"#)!.upperBound
        return String(text[start...].prefix { $0 != "," })
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (2.5, "2.5"), (0.1 + 0.2, "0.3"), (-21, "-21"),
        (1234.5678, "1234.568"),
        (-0.0004, "0"), (-0.0005, "-0.001"), (0.0015, "0.002"), (1e-9, "0"), (123_456_789.987_654, "123456789.988"),
        (100_000, "100000"), (.nan, "0"), (.infinity, "0"), (-.infinity, "0"), (1e20, "1e+20"), (-1.5e300, "-1.5e+300"),
    ])
    func lengths(value: Double, expected: String) {
        #expect(length(value) == expected)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1021.3, "1021.3"), (0.1, "0.1"), (1.0 / 3.0, "0.3333333333333333"),
        (1e-7, "0.0000001"),
        (123_456_789_012.125, "123456789012.125"), (.nan, "0"), (.infinity, "0"),
        (9_007_199_254_740_992, "9007199254740992"), (-1e16, "-1e+16"),
        (1e300, "1e+300"), (-Double.leastNonzeroMagnitude, "-5e-324"),
    ])
    func exactNumbers(value: Double, expected: String) throws {
        let text = exact(value)
        #expect(text == expected)
        if value.isFinite {
            // Every one reads back as the same Double through Foundation's JSONDecoder.
            let parsed = try JSONDecoder().decode(Double.self, from: Data(text.utf8))
            #expect(parsed.bitPattern == value.bitPattern || value == 0)
        }
    }

    @Test(arguments: [
        (Int64(0), "0"), (1, "0.001"), (-1, "-0.001"), (1000, "1"), (1_500, "1.5"), (81_234_560, "81234.56"),
        // The server's clock counts from the Unix epoch: such a time keeps its microsecond.
        (1_795_478_700_123_456, "1795478700123.456"), (1_795_478_700_000_010, "1795478700000.01"),
        (Int64.max, "9223372036854775.807"), (Int64.min, "-9223372036854775.808"),
    ])
    func timestampsAreExactMilliseconds(microseconds: Int64, expected: String) {
        let text = encoded { $0.encodePong(t: 0, serverTime: Timestamp(microseconds: microseconds), into: &$1) }
        #expect(text == #"{"type":"pong","t":0,"serverT":\#(expected)}"#)
    }

    @Test func integersHaveNoFraction() {
        var frame = EncoderTests.sampleFrame
        frame.sequence = .max
        frame.feed.count = .max
        let text = encoded { $0.encode(frame, into: &$1) }
        #expect(text.hasPrefix(#"{"type":"frame","seq":18446744073709551615,"#))
        #expect(text.contains(#""count":9223372036854775807,"#))
    }
}
