import Foundation
import RefreshKit
import RefreshWire
import Testing

@Suite("Strings survive the wire")
struct StringRoundTripTests {
    static let awkward = [
        "", "plain", "quote \" inside", "back\\slash", "slash / too", "new\nline", "cr\r tab\t bs\u{08} ff\u{0C}",
        "nul \u{0} and \u{1} and \u{1F} and del \u{7F}", "é ß € 中文", "emoji 😀👍🏽 flag 🇫🇷",
        "line sep \u{2028} para \u{2029}",
        "combining e\u{301}", "\u{FEFF}bom", "\u{10FFFF}", "</script>", "\"\\\"\\\\", "\\u0041 is not an escape here",
    ]

    static func randomString(_ g: inout SeededGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<g.int(below: 24) {
            let value: UInt32 =
                switch g.int(below: 5) {
                case 0: UInt32(g.int(below: 0x20))
                case 1: g.element(of: [0x22, 0x5C, 0x2F, 0x7F, 0x2028, 0xFFFD])
                case 2: UInt32(0x20 + g.int(below: 0x5F))
                case 3: UInt32(0x80 + g.int(below: 0xD800 - 0x80))
                default: UInt32(0xE000 + g.int(below: 0x110000 - 0xE000))
                }
            scalars.append(Unicode.Scalar(value) ?? "?")
        }
        return String(scalars)
    }

    static var samples: [String] {
        var g = SeededGenerator(seed: 2028)
        return awkward + (0..<500).map { _ in randomString(&g) }
    }

    private struct ErrorMessage: Decodable {
        var type: String
        var code: String
        var message: String
        var ref: String?
    }

    private struct WelcomeStrings: Decodable {
        var session: String
        var token: String
        var preset: String
        var presets: [String]
    }

    // JSONDecoder rather than JSONSerialization: the latter drops a leading U+FEFF from strings on Linux.
    @Test func encoderEscapesSoFoundationReadsTheSameString() throws {
        for text in Self.samples {
            let error = WireError(code: .badField, message: text, ref: text)
            let json = encoded { $0.encode(error, into: &$1) }
            let parsed = try JSONDecoder().decode(ErrorMessage.self, from: Data(json.utf8))
            #expect(parsed.message == text && parsed.ref == text, "\(json)")
            // Raw control characters never appear in the output.
            #expect(!json.utf8.contains { $0 < 0x20 }, "\(json)")
        }
    }

    @Test func welcomeStringsRoundTrip() throws {
        for text in Self.samples {
            let welcome = Welcome(
                session: text, token: text, preset: text, presets: [text, "ios"],
                configuration: ListConfiguration(edges: [:]), serverTime: .zero)
            let json = encoded { $0.encode(welcome, into: &$1) }
            let parsed = try JSONDecoder().decode(WelcomeStrings.self, from: Data(json.utf8))
            #expect(parsed.session == text && parsed.token == text && parsed.preset == text)
            #expect(parsed.presets == [text, "ios"])
        }
    }

    @Test func decoderReadsWhatFoundationWrites() throws {
        for text in Self.samples where text.utf8.count <= 256 {
            let object: [String: Any] = ["type": "hello", "viewport": ["w": 1, "h": 2], "dpr": 1, "session": text]
            let data = try JSONSerialization.data(withJSONObject: object)
            let message = try decode(bytes: Array(data))
            #expect(message == .hello(Hello(viewport: Size(width: 1, height: 2), dpr: 1, session: text)), "\(text)")
        }
    }

    @Test func decoderReadsEveryScalarAsAUnicodeEscape() throws {
        var g = SeededGenerator(seed: 0x5C75)
        for _ in 0..<300 {
            let text = Self.randomString(&g)
            var escaped = ""
            for unit in text.utf16 { escaped += "\\u" + String(format: g.bool() ? "%04x" : "%04X", unit) }
            let message = try decode(#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"token":"\#(escaped)"}"#)
            #expect(message == .hello(Hello(viewport: Size(width: 1, height: 1), dpr: 1, token: text)), "\(escaped)")
        }
    }

    @Test func encoderOutputDecodesBackThroughTheDecoder() throws {
        for text in Self.samples where text.utf8.count <= 256 {
            // The encoder's JSON string for `text`, used as the session of a hello.
            let json = encoded { $0.encode(WireError(code: .lagging, message: text), into: &$1) }
            let token = json.dropFirst(#"{"type":"error","code":"lagging","message":"#.count).dropLast()
            let message = try decode(#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"session":\#(token)}"#)
            #expect(message == .hello(Hello(viewport: Size(width: 1, height: 1), dpr: 1, session: text)), "\(json)")
        }
    }
}
