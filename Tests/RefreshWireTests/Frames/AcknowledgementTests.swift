import Foundation
import RefreshKit
import RefreshSessions
import RefreshWire
import Testing

/// Input sequence numbers and their acknowledgements (PROTOCOL.md, "Prediction and acknowledgement"): `seq`
/// on `touch` and `wheel`, the `ack` map every frame carries once a member sent one, `welcome.ack` and
/// `error.seq`.
@Suite("Input seq and frame acks")
struct AcknowledgementTests {
    static let touch = #"{"type":"touch","phase":"move","dx":0,"dy":4,"t":100,"id":1"#
    static let wheel = #"{"type":"wheel","dx":0,"dy":4,"mode":0,"t":100"#

    // MARK: Decoding `seq`

    @Test func aValidSeqIsReadOnBothPathsAndAbsentIsNone() throws {
        let move = TouchInput(phase: .move, delta: Point(x: 0, y: 4), pageTime: 100, pointer: 1)
        #expect(try decode(Self.touch + #","seq":58}"#) == .input(.touch(move), seq: 58))  // the page's spelling
        #expect(try decode(#"{"seq":58,"#.appending(Self.touch.dropFirst()) + "}") == .input(.touch(move), seq: 58))
        #expect(try decode(Self.touch + #","seq":0}"#) == .input(.touch(move), seq: 0))
        #expect(try decode(Self.touch + #","seq":9007199254740992}"#) == .input(.touch(move), seq: 1 << 53))
        #expect(try decode(Self.touch + #","seq":5.0}"#) == .input(.touch(move), seq: 5))  // as every integer field
        #expect(try decode(Self.touch + "}") == .input(.touch(move), seq: nil))
        #expect(try decode(Self.touch + #","seq":null}"#) == .input(.touch(move), seq: nil))
        let wheel = WheelInput(delta: Point(x: 0, y: 4), mode: .pixel, pageTime: 100)
        #expect(try decode(Self.wheel + #","seq":7}"#) == .input(.wheel(wheel), seq: 7))
        #expect(try decode(Self.wheel + "}") == .input(.wheel(wheel), seq: nil))
        // Other inputs have no seq: the member is ignored, like any unknown field.
        #expect(
            try decode(#"{"type":"resize","viewport":{"w":1,"h":2},"seq":3}"#)
                == .input(.resize(Size(width: 1, height: 2))))
    }

    @Test(arguments: ["touch", "wheel"])
    func aBadSeqIsRefusedWithAClearErrorAndNoSeq(type: String) {
        let head = type == "touch" ? Self.touch : Self.wheel
        let integer = "\(type).seq must be an integer from 0 to 9007199254740992"
        let range = "\(type).seq must be from 0 to 9007199254740992"
        let cases: [(String, ErrorCode, String)] = [
            ("1.5", .badField, integer), (#""5""#, .badField, integer), ("true", .badField, integer),
            ("[1]", .badField, integer), ("1e400", .badField, integer), ("-1", .outOfRange, range),
            ("9007199254740994", .outOfRange, range), ("1e300", .outOfRange, range),
        ]
        for (value, code, message) in cases {
            let text = head + #","seq":\#(value)}"#
            expectError(text, code, message: message, ref: type)
            #expect(decodingError(text)?.seq == nil, "\(text)")
        }
    }

    @Test func anErrorAboutAnotherFieldEchoesAValidSeq() {
        let badDy = #"{"type":"touch","phase":"move","dx":0,"dy":"far","t":100,"id":1,"seq":41}"#
        #expect(
            decodingError(badDy)
                == WireError(code: .badField, message: "touch.dy must be a finite number", ref: "touch", seq: 41))
        let noMode = #"{"type":"wheel","dx":0,"dy":1,"t":100,"seq":42}"#
        #expect(
            decodingError(noMode)
                == WireError(code: .missingField, message: "wheel.mode is required", ref: "wheel", seq: 42))
        // Another field's error comes first, without the seq when that is bad too.
        let both = #"{"type":"touch","phase":"hover","dx":0,"dy":0,"t":1,"seq":-2}"#
        #expect(decodingError(both)?.message.hasPrefix("touch.phase") == true)
        #expect(decodingError(both)?.seq == nil)
    }

    @Test func anErrorWritesItsSeq() throws {
        let error = WireError(code: .badField, message: "touch.t went backwards", ref: "touch", seq: 9)
        #expect(
            encoded { $0.encode(error, into: &$1) }
                == #"{"type":"error","code":"bad_field","message":"touch.t went backwards","ref":"touch","seq":9}"#)
        #expect(!encoded { $0.encode(WireError(code: .badJSON, message: "x"), into: &$1) }.contains("seq"))
        #expect(WireError(code: .lagging, message: "b").answering(seq: 3).seq == 3)
        #expect(WireError(code: .lagging, message: "b", seq: 2).answering(seq: nil).seq == 2)
    }

    // MARK: The table and its bound

    @Test func theTableKeepsEachMembersLastSeqInMemberOrder() {
        var table = AcknowledgementTable()
        #expect(table.snapshot().isEmpty)
        table.note(seq: 5, member: 2)
        table.note(seq: 9, member: 0)
        table.note(seq: 6, member: 2)
        table.note(seq: 3, member: 1)
        let acks = table.snapshot()
        #expect(acks.entries == [.init(member: 0, seq: 9), .init(member: 1, seq: 3), .init(member: 2, seq: 6)])
        #expect(acks.seq(of: 2) == 6 && acks.seq(of: 7) == nil && table.seq(of: 0) == 9)
        // A seq that goes back (a page that started its numbering over) is taken as it is: the last one counts.
        table.note(seq: 1, member: 0)
        #expect(table.snapshot().seq(of: 0) == 1)
        #expect(acks.seq(of: 0) == 9)  // a snapshot is a value: it keeps what it was
    }

    @Test func theTableDropsTheMemberThatSentLongestAgoBeyondItsBound() {
        var table = AcknowledgementTable()
        let capacity = AcknowledgementTable.capacity
        for member in 0..<capacity { table.note(seq: UInt64(100 + member), member: member) }
        table.note(seq: 1_000, member: 0)  // member 0 is the most recent now; member 1 the least
        #expect(table.count == capacity)
        table.note(seq: 7, member: 500)
        #expect(table.count == capacity)
        #expect(table.seq(of: 1) == nil)
        #expect(table.seq(of: 0) == 1_000 && table.seq(of: 2) == 102 && table.seq(of: 500) == 7)
        let acks = table.snapshot()
        #expect(acks.count == capacity)
        #expect(acks.entries.map(\.member) == acks.entries.map(\.member).sorted())
        table.note(seq: 8, member: 3)  // an update drops nothing
        #expect(table.count == capacity && table.seq(of: 2) == 102)
        table.note(seq: 1, member: 501)
        #expect(table.seq(of: 2) == nil)
    }

    /// The member that noted last keeps its row in the table itself (``AcknowledgementTable``): however
    /// members take turns and snapshots come between notes, the table reads as its rows say.
    @Test func theRecentMembersRowReadsAsTheRows() {
        var table = AcknowledgementTable()
        var expected: [Int: UInt64] = [:]
        var state: UInt64 = 7
        func next(_ bound: UInt64) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % bound)
        }
        var member = 0
        for seq in 1...400 {
            if next(4) == 0 { member = next(7) }  // runs of one member's inputs, now and then another's
            table.note(seq: UInt64(seq), member: member)
            expected[member] = UInt64(seq)
            #expect(table.seq(of: member) == UInt64(seq) && table.count == expected.count)
            guard next(3) != 0 else { continue }  // not every note is followed by a frame
            let entries = expected.keys.sorted().map { Acknowledgements.Entry(member: $0, seq: expected[$0]!) }
            #expect(table.snapshot().entries == entries)
        }
    }

    @Test func snapshotsEqualWhatTheyHold() {
        let a = Acknowledgements((0..<9).map { Acknowledgements.Entry(member: $0, seq: UInt64($0 * 3)) })
        let b = Acknowledgements(a.entries)
        #expect(a == b && a.hashValue == b.hashValue && a.count == 9 && a[8] == .init(member: 8, seq: 24))
        #expect(a != Acknowledgements(a.entries.dropLast()))
    }

    /// `Acknowledgements` as it was stored before its spill became optional, with the synthesized `Codable`.
    struct SynthesizedAcknowledgements: Encodable {
        var count: Int
        var inline0, inline1, inline2, inline3: Acknowledgements.Entry
        var spill: [Acknowledgements.Entry]
    }

    /// A snapshot stores the map (and the table, which holds one) in the form the synthesized `Codable` wrote,
    /// the spill an array even when it is nil; and reads it back.
    @Test func aMapIsStoredInTheSynthesizedForm() throws {
        let zero = Acknowledgements.Entry(member: 0, seq: 0)
        for count in [0, 1, 4, 5, 9] {
            let entries = (0..<count).map { Acknowledgements.Entry(member: $0 + 2, seq: UInt64($0 * 7 + 1)) }
            let map = Acknowledgements(entries)
            let inline = (0..<4).map { $0 < count ? entries[$0] : zero }
            let old = SynthesizedAcknowledgements(
                count: count, inline0: inline[0], inline1: inline[1], inline2: inline[2], inline3: inline[3],
                spill: Array(entries.dropFirst(4)))
            var bytes: [UInt8] = []
            var oldBytes: [UInt8] = []
            try SnapshotEncoder().encode(map).write(into: &bytes)
            try SnapshotEncoder().encode(old).write(into: &oldBytes)
            #expect(bytes == oldBytes, "\(count) entries")
            let back = try SnapshotDecoder().decode(Acknowledgements.self, from: SnapshotValue.read(bytes[...]))
            #expect(back == map && back.entries == entries)
        }
    }

    // MARK: Frames and deltas

    static func frame(_ sequence: UInt64) -> Frame {
        Frame(
            sequence: sequence, time: Timestamp(microseconds: 1_000 * Int64(sequence)), offset: .zero,
            velocity: .zero, phase: .idle, contentSize: Size(width: 390, height: 2000),
            viewport: Size(width: 390, height: 844), insets: .zero, edges: [],
            feed: FeedFrame(count: 20, hasMore: true, loading: false, rowHeight: 72))
    }

    static func acks(_ pairs: KeyValuePairs<Int, UInt64>) -> Acknowledgements {
        Acknowledgements(pairs.map { Acknowledgements.Entry(member: $0.key, seq: $0.value) })
    }

    @Test func aFrameCarriesItsAcksLastAndNoneWhenEmpty() {
        let frame = Self.frame(4)
        let plain = encoded { $0.encode(frame, into: &$1) }
        #expect(!plain.contains("ack"))
        let acked = encoded { $0.encode(SharedFrame(frame, acknowledgements: Self.acks([0: 58, 3: 2])), into: &$1) }
        #expect(acked == plain.dropLast() + #","ack":{"0":58,"3":2}}"#)
    }

    @Test func aDeltaCarriesTheAcksThatChanged() throws {
        let base = SharedFrame(Self.frame(1), acknowledgements: Self.acks([0: 57, 1: 4]))
        let cases: [(Acknowledgements, String)] = [
            (Self.acks([0: 58, 1: 4]), #","ack":{"0":58}"#),  // only member 0's changed
            (Self.acks([0: 57, 1: 4]), ""),  // unchanged: no ack at all
            (Self.acks([0: 57, 1: 4, 2: 1]), #","ack":{"2":1}"#),  // a member's first
            (Self.acks([1: 5, 2: 1]), #","ack":{"0":null,"1":5,"2":1}"#),  // member 0's entry dropped
            (Self.acks([0: 1 << 53, 1: 0]), #","ack":{"0":9007199254740992,"1":0}"#),
        ]
        for (acks, expected) in cases {
            let next = SharedFrame(Self.frame(2), acknowledgements: acks)
            let text = encoded { $0.encodeDelta(next, from: base, into: &$1) }
            #expect(text == #"{"type":"delta","seq":2,"t":2"# + expected + "}")
            // The page's rule (merge patch) rebuilds the whole frame exactly.
            let baseJSON = try JSONValue.message { $0.encode(base, into: &$1) }
            let rebuilt = DeltaApplier.apply(try JSONValue.parse(text), to: baseJSON)
            #expect(rebuilt == (try JSONValue.message { $0.encode(next, into: &$1) }))
        }
        // The first acks of a session: from a frame without any.
        let first = SharedFrame(Self.frame(2), acknowledgements: Self.acks([1: 1]))
        #expect(
            encoded { $0.encodeDelta(first, from: SharedFrame(Self.frame(1)), into: &$1) }
                == #"{"type":"delta","seq":2,"t":2,"ack":{"1":1}}"#)
    }

    @Test func aWelcomeToAResumedMemberCarriesItsAck() throws {
        let session = try ListModel(viewport: Size(width: 390, height: 844), time: .zero)
        var welcome = Welcome(
            session: "s", token: "k", preset: "ios", presets: ["ios"], configuration: session.configuration,
            serverTime: .zero, member: 1, resumed: true, ack: 77)
        let object = try foundationObject { $0.encode(welcome, into: &$1) }
        #expect(object["ack"] as? Int == 77 && object["resumed"] as? Bool == true)
        welcome.ack = nil
        #expect(try foundationObject { $0.encode(welcome, into: &$1) }["ack"] == nil)
    }

    // MARK: The session

    /// A recorded session at `now`, driven with message texts as the server drives it.
    struct Driver {
        var traced: TracedListModel
        var now: Int64 = 9_000_000_000
        var messages: [[UInt8]] = []
        var decoder = MessageDecoder()

        init() throws {
            traced = try TracedListModel(
                header: TraceHeader(
                    preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 2, seed: 3,
                    start: Timestamp(microseconds: now)))
        }

        /// Applies `text` from `member` (whatever the engine says) and makes the frame, as the server does.
        @discardableResult
        mutating func send(_ text: String, member: Int) throws -> SharedFrame {
            guard case .input(let input, let seq) = try decoder.decode(text) else {
                throw TraceError("not an input")
            }
            now += 16_000
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { raw in
                Result { () throws(ListModelError) in
                    try traced.apply(
                        ReceivedInput(input, seq: seq, text: raw), member: member, at: Timestamp(microseconds: now))
                }
            }
            var buffer = MessageBuffer(capacity: 0)
            let shared = traced.frame(appendingUpdateTo: &buffer)
            messages.append(buffer.bytes)
            return shared
        }
    }

    @Test func aFrameAcknowledgesEachMembersLastAppliedInput() throws {
        var driver = try Driver()
        var frame = try driver.send(#"{"type":"touch","phase":"start","dx":0,"dy":0,"t":1,"id":1}"#, member: 0)
        #expect(frame.acknowledgements.isEmpty)  // nobody sent a seq yet
        frame = try driver.send(#"{"type":"touch","phase":"move","dx":0,"dy":-9,"t":17,"id":1,"seq":1}"#, member: 0)
        #expect(frame.acknowledgements == Self.acks([0: 1]))
        frame = try driver.send(#"{"type":"wheel","dx":0,"dy":3,"mode":0,"t":40,"seq":70}"#, member: 1)
        #expect(frame.acknowledgements == Self.acks([0: 1, 1: 70]))
        // An input without seq changes no ack; an input the engine refuses is not applied, so not acknowledged.
        frame = try driver.send(#"{"type":"touch","phase":"move","dx":0,"dy":-9,"t":33,"id":1}"#, member: 0)
        #expect(frame.acknowledgements == Self.acks([0: 1, 1: 70]))
        // A decoder that lets through a delta the engine refuses (beyond its 10⁶ px).
        driver.decoder = MessageDecoder(limits: DecodingLimits(maxDelta: 1e9))
        frame = try driver.send(#"{"type":"wheel","dx":0,"dy":5000000,"mode":0,"t":50,"seq":71}"#, member: 1)
        #expect(frame.acknowledgements == Self.acks([0: 1, 1: 70]))
        #expect(driver.traced.acknowledgements.seq(of: 1) == 70)
        // What the page gets: the ack in the frame message, and a delta with only what changed.
        let texts = driver.messages.map { String(decoding: $0, as: UTF8.self) }
        #expect(!texts[0].contains("ack"))
        #expect(texts[1].contains(#","ack":{"0":1}"#))
        #expect(texts[2].contains(#","ack":{"1":70}}"#))
        #expect(!texts[3].contains("ack") && !texts[4].contains("ack"))
    }
}
