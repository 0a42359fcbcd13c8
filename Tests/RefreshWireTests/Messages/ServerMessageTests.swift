import Foundation
import RefreshKit
import RefreshWire
import Testing

/// `MessageEncoder.encode(_: ServerMessage, into:)`: every kind of message, its bytes the same as its
/// specialised entry point's (whose exact bytes `EncoderTests` and `TraceTests` pin), its `type` its kind.
struct ServerMessageTests {
    static let configuration = Preset.ios.configuration
    static let frame = SharedFrame(
        EncoderTests.sampleFrame, acknowledgements: Acknowledgements([.init(member: 0, seq: 58)]))
    static let base: SharedFrame = {
        var earlier = EncoderTests.sampleFrame
        earlier.sequence = 1
        earlier.phase = .dragging
        return SharedFrame(earlier)
    }()
    static let welcome = Welcome(
        session: "0123456789abcdef0123456789abcdef", token: "fedcba9876543210fedcba9876543210", preset: "ios",
        presets: Preset.names, configuration: configuration, serverTime: Timestamp(microseconds: 81_234_500),
        member: 0)
    static let event = Event(
        .transition, edge: .top, from: .idle, to: .pulling, cause: .drag, time: Timestamp(microseconds: 81_315_200))
    static let error = WireError(code: .badField, message: "wheel.dy must be a finite number", ref: "wheel", seq: 4)
    static let recorder = TraceRecorder(
        header: TraceHeader(
            preset: "ios", viewport: Size(width: 390, height: 844), devicePixelRatio: 3, seed: 1, start: .zero))

    /// One message of every kind, and the bytes its specialised entry point writes.
    static let samples: [(ServerMessage, @Sendable (MessageEncoder, inout [UInt8]) -> Void)] = [
        (.welcome(welcome), { $0.encode(welcome, into: &$1) }),
        (.frame(frame), { $0.encode(frame, into: &$1) }),
        (.delta(frame, base: base), { $0.encodeDelta(frame, from: base, into: &$1) }),
        (.event(event), { $0.encode(event, into: &$1) }),
        (.error(error), { $0.encode(error, into: &$1) }),
        (
            .pong(t: 1021.3, serverTime: Timestamp(microseconds: 81_236_000)),
            { $0.encodePong(t: 1021.3, serverTime: Timestamp(microseconds: 81_236_000), into: &$1) }
        ),
        (.room(members: 3, member: 1), { $0.encodeRoom(members: 3, member: 1, into: &$1) }),
        (.trace(recorder), { _, buffer in recorder.encodeMessage(into: &buffer) }),
        (
            .config(preset: "ios", configuration: configuration),
            { $0.encodeConfig(preset: "ios", configuration: configuration, into: &$1) }
        ),
        (
            .rows(.prepended(1), items: FeedWireTests.items),
            { $0.encodeRows(.prepended(1), of: FeedWireTests.items, into: &$1) }
        ),
        (.feedRequest(FeedWireTests.answered), { $0.encodeFeedRequest(FeedWireTests.answered, into: &$1) }),
        (.newItems(count: 3, more: false), { $0.encodeNewItems(count: 3, more: false, into: &$1) }),
        (.heights(heights), { $0.encodeHeights(heights, into: &$1) }),
    ]

    static let heights = [RowMeasurement(id: "42", height: 88.5), RowMeasurement(id: "41", height: 72)]

    @Test func everyKindHasASample() {
        #expect(Self.samples.map(\.0.kind) == ServerMessage.Kind.allCases)
    }

    @Test func eachMessageIsWrittenAsItsOwnEntryPointWritesIt() throws {
        for (message, specialised) in Self.samples {
            let text = encoded { $0.encode(message, into: &$1) }
            #expect(text == encoded(specialised), "\(message.kind)")
            #expect(text.hasPrefix(#"{"type":"\#(message.kind.rawValue)","#), "\(text.prefix(40))")
            let object = try foundationObject { $0.encode(message, into: &$1) }
            #expect(object["type"] as? String == message.kind.rawValue)
        }
    }

    @Test func messagesAreAppended() {
        var buffer = Array("x".utf8)
        MessageEncoder().encode(.room(members: 1, member: 0), into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"x{"type":"room","members":1,"member":0}"#)
    }

    @Test func smallMessagesBytes() {
        #expect(
            encoded { $0.encode(.pong(t: 1021.3, serverTime: Timestamp(microseconds: 81_236_000)), into: &$1) }
                == #"{"type":"pong","t":1021.3,"serverT":81236}"#)
        #expect(
            encoded { $0.encode(.error(Self.error), into: &$1) }
                == #"{"type":"error","code":"bad_field","message":"wheel.dy must be a finite number","ref":"wheel","#
                + #""seq":4}"#)
        // The sample's edges do not move with its velocity (-1234.568 px/s), so the follow rule would get their
        // velocities wrong: the delta says them.
        #expect(
            encoded { $0.encode(.delta(Self.frame, base: Self.base), into: &$1) }
                == #"{"type":"delta","seq":2,"t":81315.2,"phase":"animating","#
                + #""edges":{"top":{"velocity":0},"bottom":{"velocity":1.001}},"ack":{"0":58}}"#)
    }

    /// `config` carries the configuration in the shape of `welcome.config` (PROTOCOL.md, "Server → page").
    @Test func configIsTheWelcomesConfig() throws {
        let config = try foundationObject {
            $0.encode(.config(preset: "ios", configuration: Self.configuration), into: &$1)
        }
        let welcome = try foundationObject { $0.encode(.welcome(Self.welcome), into: &$1) }
        #expect(config["preset"] as? String == "ios")
        let fromConfig = try #require(config["config"] as? NSDictionary)
        let fromWelcome = try #require(welcome["config"] as? NSDictionary)
        #expect(fromConfig == fromWelcome)
    }
}
