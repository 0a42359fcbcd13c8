import Foundation
import PageFixtures
import RefreshKit
import RefreshSessions
import RefreshWire
import Testing

/// A random but plausible session, driven the way the server drives one (messages decoded from their text,
/// a 60 Hz tick while something moves, timers at their deadlines, a frame after every change), keeping every
/// frame: drags that scroll and drags that pull past an edge, flings, wheels, commands, resizes, preset
/// switches, insets, edges switched on and off.
private struct RandomModel {
    var traced: TracedListModel
    var frames: [Frame] = []
    /// The same frames with their `ack` maps, as the server keeps them.
    var shared: [SharedFrame] = []
    /// Whether touches and wheels carry `seq` (each member numbering its own from 1).
    var numbered: Bool
    var lastSeq: [Int: UInt64] = [:]
    var now: Int64
    var pageTime = 1000.0
    var random: SeededGenerator
    let decoder = MessageDecoder()

    init(seed: UInt64) throws {
        random = SeededGenerator(seed: seed)
        numbered = seed % 2 == 1
        now = 7_000_000_000 + Int64(seed) * 1_234_567
        let preset = ["ios", "jh", "ht", "gv", "ms", "iq"][Int(seed % 6)]
        traced = try TracedListModel(
            header: TraceHeader(
                preset: preset, viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: seed,
                start: Timestamp(microseconds: now)),
            limits: .unlimited)
        frame()
    }

    mutating func frame() {
        var scratch = MessageBuffer()
        frames.append(traced.frame(appendingUpdateTo: &scratch).frame)
        shared.append(traced.latest!)
        _ = traced.takeEvents()
    }

    mutating func send(_ text: String, member: Int = 0) {
        var text = text
        if numbered && (text.hasPrefix(#"{"type":"touch""#) || text.hasPrefix(#"{"type":"wheel""#)) {
            let seq = (lastSeq[member] ?? 0) + 1
            lastSeq[member] = seq
            text = text.dropLast() + #","seq":\#(seq)}"#
        }
        guard case .input(let input, let seq)? = try? decoder.decode(text) else {
            Issue.record("does not decode: \(text)")
            return
        }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { raw in
            Result { () throws(ListModelError) in
                try traced.apply(
                    ReceivedInput(input, seq: seq, text: raw), member: member, at: Timestamp(microseconds: now))
            }
        }
        frame()
    }

    mutating func wait(milliseconds: Int64) {
        let end = now + milliseconds * 1000
        while now < end {
            let tick = nextServerTick(of: traced.model, after: now, until: end)
            pageTime += Double(tick.time - now) / 1000
            now = tick.time
            if tick.due {
                traced.advance(to: Timestamp(microseconds: now))
                frame()
            }
        }
    }

    /// A drag of `steps` moves of (`dx`, `dy`), 8–24 ms apart, released (a fling when fast) or held.
    mutating func drag(dx: Double, dy: Double, steps: Int) {
        send(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":\#(pageTime),"id":1}"#)
        for _ in 0..<steps {
            let gap = Int64(8 + random.int(below: 17))
            wait(milliseconds: gap)
            let jitter = random.double(in: 0.9...1.1)
            send(#"{"type":"touch","phase":"move","dx":\#(dx * jitter),"dy":\#(dy * jitter),"t":\#(pageTime),"id":1}"#)
        }
        wait(milliseconds: 16)
        send(
            #"{"type":"touch","phase":"\#(random.int(below: 8) == 0 ? "cancel" : "end")","dx":0,"dy":0,"t":\#(pageTime),"id":1}"#
        )
    }

    mutating func step() {
        switch random.int(below: 20) {
        case 0..<5:  // scroll the content
            drag(dx: 0, dy: random.double(in: -40...40), steps: 5 + random.int(below: 25))
        case 5..<8:  // pull past the top (a refresh, often) or push past the bottom
            drag(dx: 0, dy: random.bool() ? random.double(in: 5...30) : random.double(in: -60 ... -10), steps: 10)
        case 8:
            drag(dx: random.double(in: -30...30), dy: random.double(in: -10...10), steps: 8)
        case 9, 10:
            let dy = random.element(of: [-120.0, -3, 3, 40, 120, 400])
            for _ in 0..<(1 + random.int(below: 8)) {
                send(#"{"type":"wheel","dx":0,"dy":\#(dy),"mode":\#(random.int(below: 3)),"t":\#(pageTime)}"#)
                wait(milliseconds: Int64(4 + random.int(below: 30)))
            }
        case 11:
            let name = random.element(of: ["refresh", "finish", "loadMore", "retry", "scrollByPage"])
            let edge = random.element(of: ["", #","edge":"top""#, #","edge":"bottom""#, #","edge":"left""#])
            send(#"{"type":"command","name":"\#(name)"\#(edge),"animated":\#(random.bool()),"amount":1}"#)
        case 12:
            let edge = random.element(of: ["top", "bottom", "left", "right"])
            send(#"{"type":"command","name":"scrollToEdge","edge":"\#(edge)","animated":\#(random.int(below: 4) > 0)}"#)
        case 13:
            let (w, h) = random.element(of: [(390, 844), (844, 390), (1280, 720), (320, 200)])
            send(#"{"type":"resize","viewport":{"w":\#(w),"h":\#(h)}}"#)
        case 14:
            send(#"{"type":"configure","preset":"\#(random.element(of: ["ios", "jh", "ht", "gv", "ms", "iq"]))"}"#)
        case 15:
            let edge = random.element(of: ["left", "right", "bottom"])
            send(#"{"type":"configure","edges":{"\#(edge)":{"enabled":\#(random.bool())}}}"#)
        case 16:
            send(
                #"{"type":"configure","insets":{"top":\#(random.int(below: 3) * 44),"bottom":\#(random.int(below: 2) * 34)}}"#
            )
        case 17:
            send(
                #"{"type":"configure","feed":{"latencyMs":\#(random.int(below: 4) * 200),"failureRate":\#(random.element(of: [0, 0, 0.5, 1]))}}"#
            )
        default:
            wait(milliseconds: Int64(random.int(below: 1500)))
        }
    }
}

/// Checks that `delta(base → frame)` applied to the JSON of `base` is the JSON of `frame`. - Returns: the
/// frame's JSON, and the sizes of its `frame` and `delta` messages.
@discardableResult
func expectReconstructs(
    _ frame: Frame, from base: Frame, baseJSON: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
) throws -> (json: JSONValue, full: Int, delta: Int) {
    try expectReconstructs(SharedFrame(frame), from: SharedFrame(base), baseJSON: baseJSON)
}

/// ``expectReconstructs(_:from:baseJSON:sourceLocation:)`` of frames with their `ack` maps.
@discardableResult
func expectReconstructs(
    _ frame: SharedFrame, from base: SharedFrame, baseJSON: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
) throws -> (json: JSONValue, full: Int, delta: Int) {
    var fullBytes: [UInt8] = []
    var deltaBytes: [UInt8] = []
    MessageEncoder().encode(frame, into: &fullBytes)
    MessageEncoder().encodeDelta(frame, from: base, into: &deltaBytes)
    let full = try JSONValue.parse(fullBytes)
    let delta = try JSONValue.parse(deltaBytes)
    let rebuilt = DeltaApplier.apply(delta, to: baseJSON)
    #expect(delta["type"] == .string("delta"), sourceLocation: sourceLocation)
    #expect(delta["seq"] == full["seq"] && delta["t"] == full["t"], sourceLocation: sourceLocation)
    #expect(
        rebuilt == full, "delta \(delta)\nfrom \(baseJSON)\nmade \(rebuilt)\nnot \(full)",
        sourceLocation: sourceLocation)
    return (full, fullBytes.count, deltaBytes.count)
}

@Suite("Delta frames")
struct FrameDeltaTests {
    /// The property: for every frame of real engine sessions, the delta from the previous frame applied to the
    /// page's copy (itself rebuilt from deltas since the first frame) is exactly the frame's own JSON value.
    @Test(arguments: 0..<8)
    func deltasOfRealSessionsRebuildEveryFrame(seed: UInt64) throws {
        var session = try RandomModel(seed: seed)
        for _ in 0..<30 { session.step() }
        let frames = session.shared  // odd seeds number their inputs: their frames carry acks
        #expect(frames.count > 100)
        #expect(frames.last!.acknowledgements.isEmpty == !session.numbered)
        var page = try JSONValue.message { $0.encode(frames[0], into: &$1) }
        var fullBytes = 0
        var deltaBytes = 0
        for (base, frame) in zip(frames, frames.dropFirst()) {
            let result = try expectReconstructs(frame, from: base, baseJSON: page)
            page = result.json
            fullBytes += result.full
            deltaBytes += result.delta
        }
        #expect(deltaBytes * 3 < fullBytes, "deltas \(deltaBytes) B, full frames \(fullBytes) B")
    }

    /// A ``MessageBuffer`` holds exactly the bytes the `[UInt8]` encoders append, from a standing start (no
    /// memory: every write grows it) and message after message; its headroom is never written, and emptying
    /// it keeps the headroom.
    @Test(arguments: [0, 4] as [UInt64])
    func aMessageBufferHoldsWhatAnArrayDoes(seed: UInt64) throws {
        var session = try RandomModel(seed: seed)
        for _ in 0..<20 { session.step() }
        let frames = session.frames
        let encoder = MessageEncoder()
        var buffer = MessageBuffer(headroom: 16, capacity: 0)
        var expected: [UInt8] = []
        for (index, (base, frame)) in zip(frames, frames.dropFirst()).enumerated() {
            if index % 7 == 0 {  // now and then, start over
                buffer.removeAll()
                expected.removeAll()
                #expect(buffer.isEmpty && buffer.count == 0)
            }
            encoder.encodeDelta(frame, from: base, into: &expected)
            encoder.encodeDelta(frame, from: base, into: &buffer)
            encoder.encode(frame, into: &expected)
            encoder.encode(frame, into: &buffer)
            let event = Event(.armed, edge: .top, cause: .drag, time: frame.time)
            encoder.encode(event, into: &expected)
            encoder.encode(event, into: &buffer)
            #expect(buffer.bytes == expected)
            #expect(buffer.count == expected.count)
            buffer.withUnsafeBytes { #expect(Array($0) == expected) }
            buffer.withUnsafeMutableBytesIncludingHeadroom { all in
                #expect(all.count == 16 + expected.count)
                #expect(all.prefix(16).allSatisfy { $0 == 0 })
            }
        }
    }

    /// Unrelated random frames (every member different, edge sets that change, cycles and exits that come and
    /// go) and small mutations of them (a patch of a few members).
    @Test func deltasBetweenRandomFramesRebuildThem() throws {
        var g = SeededGenerator(seed: 77)
        for _ in 0..<600 {
            let base = RandomValues.frame(&g)
            var frame = g.int(below: 3) == 0 ? RandomValues.frame(&g) : base
            if frame == base { mutate(&frame, &g) }
            let baseJSON = try JSONValue.message { $0.encode(base, into: &$1) }
            try expectReconstructs(frame, from: base, baseJSON: baseJSON)
        }
    }

    /// The delta's bytes, not only its value, are pinned: every delta between the frames of real sessions (from
    /// the frame before, and from one three frames back, as a connection that skipped writes holds it), between
    /// random frames and their mutations, with `ack` maps that change, grow and drop members, and with values at
    /// the edges of rounding (`-0`, half-units, beyond 9·10¹⁵, NaN), hashed together. Recorded from the encoder
    /// of trace format v2 (the frame's `feed` without `newest`, docs/TRACE.md, "Versions"): a change to the
    /// encoder that moves any byte of any of these deltas fails here.
    @Test func deltaBytesAreWhatTheyWere() throws {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        var count = 0
        var bytes = 0
        func add(_ frame: SharedFrame, from base: SharedFrame) {
            var array: [UInt8] = []
            MessageEncoder().encodeDelta(frame, from: base, into: &array)
            var buffer = MessageBuffer(capacity: 0)
            MessageEncoder().encodeDelta(frame, from: base, into: &buffer)
            #expect(buffer.bytes == array)
            for byte in array + [0xFF] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            count += 1
            bytes += array.count
        }
        for seed in 0..<8 as Range<UInt64> {
            var session = try RandomModel(seed: seed)
            for _ in 0..<30 { session.step() }
            let frames = session.shared
            for i in 1..<frames.count { add(frames[i], from: frames[i - 1]) }
            for i in 3..<frames.count { add(frames[i], from: frames[i - 3]) }
        }
        var g = SeededGenerator(seed: 2026)
        for _ in 0..<20_000 {
            let base = RandomValues.frame(&g)
            var frame = g.int(below: 4) == 0 ? RandomValues.frame(&g) : base
            if frame == base || g.bool() { mutate(&frame, &g) }
            if g.int(below: 3) == 0 { Self.setAwkwardValue(&frame, &g) }
            let baseAcks = Self.randomAcks(&g)
            let acks = g.bool() ? Self.randomAcks(&g) : Self.moved(baseAcks, &g)
            add(SharedFrame(frame, acknowledgements: acks), from: SharedFrame(base, acknowledgements: baseAcks))
        }
        #expect(count == 24_982 && bytes == 14_301_330, "\(count) deltas, \(bytes) B")
        #expect(hash == 0x8b37_2873_842f_cbc7, "the deltas' hash is \(String(hash, radix: 16))")
    }

    /// A value where rounding or the writer's spelling changes: `-0`, half a unit either way, beyond what
    /// ``WrittenNumber`` scales, not finite, in a member of `frame` or of one of its edges.
    private static func setAwkwardValue(_ frame: inout Frame, _ g: inout SeededGenerator) {
        let values: [Double] = [
            0, -0.0, 0.0005, -0.0005, 0.0004999, 1.0005, 2.5e-7, -2.5e-7, 1e-9, 123.4565, 9e12, 9.1e15, -3e17, 1e300,
            .nan, .infinity, -.infinity, .ulpOfOne, 1e15 + 0.5,
        ]
        let value = g.element(of: values)
        switch g.int(below: 8) {
        case 0: frame.offset.y = value
        case 1: frame.velocity.x = value
        case 2: frame.insets.left = value
        case 3: frame.feed.rowHeight = value
        case 4: frame.contentSize.height = value
        default:
            guard !frame.edges.isEmpty else { return }
            let i = g.int(below: frame.edges.count)
            switch g.int(below: 6) {
            case 0: frame.edges[i].distance = value
            case 1: frame.edges[i].velocity = value
            case 2: frame.edges[i].progress = value
            case 3: frame.edges[i].view.origin.y = value
            case 4: frame.edges[i].scale = value
            default: frame.edges[i].cycle?.duration = value
            }
        }
    }

    /// An `ack` map of up to six members (so some spill past the four stored inline).
    private static func randomAcks(_ g: inout SeededGenerator) -> Acknowledgements {
        var member = 0
        return Acknowledgements(
            (0..<g.int(below: 7)).map { _ in
                member += 1 + g.int(below: 3)
                return Acknowledgements.Entry(member: member, seq: UInt64(g.int(below: 1000)))
            })
    }

    /// `acks` one input later: the same members with a `seq` moved on, or one member gone or come.
    private static func moved(_ acks: Acknowledgements, _ g: inout SeededGenerator) -> Acknowledgements {
        var entries = acks.entries
        switch g.int(below: 4) {
        case 0 where !entries.isEmpty: entries.remove(at: g.int(below: entries.count))
        case 1: entries.append(Acknowledgements.Entry(member: (entries.last?.member ?? 0) + 1, seq: 1))
        default:
            if !entries.isEmpty { entries[g.int(below: entries.count)].seq += 1 }
        }
        return Acknowledgements(entries)
    }

    /// A few members of `frame` changed, as from one engine frame to the next (but anywhere).
    private func mutate(_ frame: inout Frame, _ g: inout SeededGenerator) {
        frame.sequence &+= 1
        frame.time = frame.time.advanced(byMicroseconds: Int64(g.int(below: 20_000)))
        for _ in 0..<(1 + g.int(below: 4)) {
            switch g.int(below: 12) {
            case 0: frame.offset.y += g.double(in: -50...50)
            case 1: frame.velocity = Point(x: RandomValues.length(&g), y: RandomValues.length(&g))
            case 2: frame.phase = g.element(of: ScrollPhase.allCases)
            case 3: frame.verticalMotion = g.bool() ? [] : [RandomValues.segment(&g)]
            case 4: frame.horizontalMotion = g.bool() ? [] : [RandomValues.segment(&g), RandomValues.segment(&g)]
            case 5: frame.insets.top = g.double(in: 0...100)
            case 6: frame.feed.count += 20
            case 7 where !frame.edges.isEmpty:
                let i = g.int(below: frame.edges.count)
                frame.edges[i].distance += g.double(in: -10...10)
                frame.edges[i].control.size.height = g.double(in: 0...100)
                frame.edges[i].state = g.element(of: EdgeState.allCases)
            case 8 where !frame.edges.isEmpty:
                let i = g.int(below: frame.edges.count)
                let other = RandomValues.edge(&g)
                frame.edges[i].cycle = other.cycle
                frame.edges[i].exit = other.exit
            case 9 where !frame.edges.isEmpty:
                let i = g.int(below: frame.edges.count)
                if var cycle = frame.edges[i].cycle {
                    cycle.index += 1
                    cycle.start = cycle.start.advanced(byMicroseconds: 1000)
                    frame.edges[i].cycle = cycle
                }
                if var exit = frame.edges[i].exit {
                    exit.duration += 0.25
                    frame.edges[i].exit = exit
                }
            case 10: frame.edges = (0..<g.int(below: 3)).map { _ in RandomValues.edge(&g) }
            default: frame.offset.y += 1e-9  // invisible once written
            }
        }
    }

    @Test func helloChoosesTheFrameFormat() throws {
        let hello = #"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3"#
        #expect(try decode(hello + "}") == .hello(Hello(viewport: Size(width: 390, height: 844), dpr: 3)))
        #expect(
            try decode(hello + #","frames":"delta"}"#)
                == .hello(Hello(viewport: Size(width: 390, height: 844), dpr: 3, frames: .delta)))
        #expect(
            try decode(hello + #","frames":"full"}"#)
                == .hello(Hello(viewport: Size(width: 390, height: 844), dpr: 3, frames: .full)))
        #expect(try decode(hello + #","frames":null}"#) == decode(hello + "}"))
        for bad in [#""deltas""#, #""DELTA""#, "1", "true", "{}", #""""#] {
            expectError(
                hello + #","frames":\#(bad)}"#, .badField, message: "hello.frames must be one of full, delta",
                ref: "hello")
        }
    }

    @Test func anUnchangedFrameIsOnlyItsHeader() throws {
        var session = try RandomModel(seed: 1)
        session.drag(dx: 0, dy: -20, steps: 10)
        var base = try #require(session.frames.last)
        base.offset.y = 100
        var frame = base
        frame.sequence += 1
        frame.time = frame.time.advanced(byMicroseconds: 16_667)
        frame.offset.y = 100.0004  // the same once rounded to 1/1000 px
        let text = encoded { $0.encodeDelta(frame, from: base, into: &$1) }
        let t = encoded { $0.encode(frame, into: &$1) }.split(separator: ",")[2]
        #expect(text == #"{"type":"delta","seq":\#(frame.sequence),\#(t)}"#)
    }

    /// Scrolling the content moves every edge's `distance` and `velocity` with the offset: the follow rule
    /// leaves them out, so a delta is the offset and velocity alone.
    @Test func scrollingTheContentSendsOffsetAndVelocityOnly() throws {
        var session = try RandomModel(seed: 6)  // ios, top and bottom edges
        let first = session.frames.count
        session.drag(dx: 0, dy: -8, steps: 30)
        let frames = Array(session.frames[(first - 1)...])
        var sizes: [Int] = []
        for (base, frame) in zip(frames, frames.dropFirst()) where frame.phase == .dragging {
            let text = encoded { $0.encodeDelta(frame, from: base, into: &$1) }
            #expect(!text.contains("edges"), "\(text)")
            sizes.append(text.utf8.count)
        }
        #expect(sizes.count >= 30)
        #expect(sizes.allSatisfy { $0 <= 120 }, "\(sizes)")
    }

    @Test func theMembersThatEndAreNull() throws {
        var session = try RandomModel(seed: 12)
        session.drag(dx: 0, dy: 25, steps: 12)  // pull the top, release: a spring back
        let animating = try #require(session.frames.last { !$0.verticalMotion.isEmpty })
        session.wait(milliseconds: 3000)
        let rest = try #require(session.frames.last)
        #expect(rest.verticalMotion.isEmpty && rest.phase == .idle)
        let text = encoded { $0.encodeDelta(rest, from: animating, into: &$1) }
        #expect(text.contains(#""segment":null"#), "\(text)")
        #expect(text.contains(#""phase":"idle""#), "\(text)")
    }

    @Test func aChangedEdgeSetIsWrittenWhole() throws {
        var session = try RandomModel(seed: 18)
        let base = try #require(session.frames.last)
        session.send(#"{"type":"configure","edges":{"left":{"enabled":true}}}"#)
        let frame = try #require(session.frames.last)
        #expect(frame.edges.count == base.edges.count + 1)
        let delta = try JSONValue.message { $0.encodeDelta(frame, from: base, into: &$1) }
        guard case .array(let edges)? = delta["edges"] else {
            Issue.record("edges is not an array: \(delta)")
            return
        }
        #expect(edges.count == frame.edges.count)
    }

    /// A cycle that starts is written whole; one that moves on, member by member; one that ends, `null`.
    @Test func cyclesAndExitsArePatched() throws {
        let edge = EdgeFrame(edge: .top, state: .refreshing, distance: 0, progress: 1, velocity: 0)
        var base = Frame(
            sequence: 1, time: .zero, offset: .zero, velocity: .zero, phase: .idle,
            contentSize: Size(width: 1, height: 1),
            viewport: Size(width: 1, height: 1), insets: .zero, edges: [edge],
            feed: FeedFrame(count: 0, hasMore: true, loading: true, rowHeight: 72))
        var frame = base
        frame.sequence = 2
        frame.edges[0].cycle = CycleFrame(
            index: 0, start: Timestamp(microseconds: 1500), duration: 0.8, delay: 0, kind: .default)
        #expect(
            encoded { $0.encodeDelta(frame, from: base, into: &$1) }
                == #"{"type":"delta","seq":2,"t":0,"edges":{"top":{"cycle":{"index":0,"t0":1.5,"duration":0.8,"delay":0,"kind":"default"}}}}"#
        )
        base = frame
        frame.sequence = 3
        frame.edges[0].cycle?.index = 1
        frame.edges[0].cycle?.start = Timestamp(microseconds: 801_500)
        #expect(
            encoded { $0.encodeDelta(frame, from: base, into: &$1) }
                == #"{"type":"delta","seq":3,"t":0,"edges":{"top":{"cycle":{"index":1,"t0":801.5}}}}"#)
        base = frame
        frame.sequence = 4
        frame.edges[0].cycle = nil
        frame.edges[0].state = .finishing
        frame.edges[0].exit = ExitFrame(start: Timestamp(microseconds: 900_000), duration: 0.25)
        #expect(
            encoded { $0.encodeDelta(frame, from: base, into: &$1) }
                == #"{"type":"delta","seq":4,"t":0,"edges":{"top":{"state":"finishing","cycle":null,"exit":{"t0":900,"duration":0.25}}}}"#
        )
    }

    /// The follow rule is only used when the page's arithmetic is exact: beyond the limit, the values are
    /// written.
    @Test func hugeDistancesAreWrittenNotFollowed() throws {
        let edge = EdgeFrame(edge: .bottom, state: .idle, distance: -4e12, progress: 0, velocity: 0)
        let base = Frame(
            sequence: 1, time: .zero, offset: .zero, velocity: .zero, phase: .dragging,
            contentSize: Size(width: 1, height: 4e12), viewport: Size(width: 1, height: 1), insets: .zero,
            edges: [edge], feed: FeedFrame(count: 0, hasMore: true, loading: false, rowHeight: 72))
        var frame = base
        frame.sequence = 2
        frame.offset.y = 5
        frame.edges[0].distance = -4e12 + 5
        let text = encoded { $0.encodeDelta(frame, from: base, into: &$1) }
        #expect(text.contains(#""distance":-3999999999995"#), "\(text)")
        let small = encoded {
            var f = frame
            f.edges[0].distance = 5
            var b = base
            b.edges[0].distance = 0
            $0.encodeDelta(f, from: b, into: &$1)
        }
        #expect(!small.contains("distance"), "\(small)")
    }

    /// `web/test/fixtures/deltas.json` is what the encoder writes now: the vectors the page's own test
    /// (`web/test/delta.test.js`) applies with the page's code, a whole frame, then for every second frame of a
    /// real session its delta from the one before (as a page that was written every other frame holds it) and
    /// its whole frame. A golden test: it fails when the encoder's output moved away from what the page is tested
    /// against; `REFRESHKIT_WRITE_FIXTURES=1 swift test --filter thePageFixture` writes the file anew.
    @Test func thePageFixtureIsWhatTheEncoderWrites() throws {
        var session = try RandomModel(seed: 1)  // jh: animation cycles while refreshing; inputs numbered
        session.send(#"{"type":"configure","feed":{"latencyMs":300}}"#)
        session.drag(dx: 0, dy: -15, steps: 8)  // scroll the content
        for member in [1, 0, 1] {  // a second device's wheel, each numbering its own (the frames' `ack`)
            session.send(#"{"type":"wheel","dx":0,"dy":40,"mode":0,"t":\#(session.pageTime)}"#, member: member)
            session.wait(milliseconds: 50)
        }
        session.wait(milliseconds: 300)
        session.send(#"{"type":"command","name":"scrollToEdge","edge":"top","animated":false}"#)
        session.drag(dx: 0, dy: 40, steps: 10)  // pull to refresh
        session.wait(milliseconds: 1200)
        session.send(#"{"type":"configure","insets":{"top":44}}"#)
        session.send(#"{"type":"configure","edges":{"left":{"enabled":true}}}"#)
        session.drag(dx: 20, dy: 0, steps: 4)  // pull the left edge
        session.wait(milliseconds: 400)
        session.send(#"{"type":"command","name":"scrollToEdge","edge":"bottom","animated":false}"#)
        session.wait(milliseconds: 500)
        let frames = session.shared
        func text(_ write: (MessageEncoder, inout [UInt8]) -> Void) -> String {
            var buffer: [UInt8] = []
            write(MessageEncoder(), &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        func quoted(_ json: String) -> String {
            "\"" + json.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var out = "{\"first\":\(quoted(text { $0.encode(frames[0], into: &$1) })),\"steps\":[\n"
        for (i, (base, frame)) in zip(frames, frames.dropFirst()).enumerated() {
            let delta = text { $0.encodeDelta(frame, from: base, into: &$1) }
            let whole = text { $0.encode(frame, into: &$1) }
            out += (i > 0 ? ",\n" : "") + "{\"delta\":\(quoted(delta)),\"frame\":\(quoted(whole))}"
        }
        out += "\n]}\n"
        #expect(
            try PageFixtures.committed(out, named: "deltas.json") == out,
            "\(PageFixtures.differs("deltas.json", filter: "thePageFixture"))")
    }
}
