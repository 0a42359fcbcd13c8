import Foundation
import RefreshKit
import RefreshWire
import Testing

/// RFC 8259 conformance. Values are tried as an ignored field of a valid `ping`, so that the only possible
/// error is the grammar's.
@Suite("JSON grammar")
struct JSONGrammarTests {
    private func withValue(_ value: String) -> String { #"{"type":"ping","t":1,"x":\#(value)}"# }

    @Test(arguments: [
        "0", "-0", "1", "-1", "10", "1.5", "-0.25", "1e5", "1E5", "1e+5", "1e-5", "1.5e-300",
        "123456789012345678901234567890",
        "0.000000000000000000000000000001", "1e400", "-1e-400", "true", "false", "null", "\"\"", "\"a\"", "[]", "{}",
        "[1,[2,[3]]]",
        "{\"a\":{\"b\":[true,false,null]}}", "[ 1 , 2 ]", "{ \"a\" : 1 , \"b\" : 2 }", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
        "\"\\u0000\\u001f\\uFFFF\\uabcd\"", "\"\\ud83d\\ude00\"", "\"\\uD83D\\uDE00\"", "\"é€😀\"", "\"\u{7F}\"",
        "\"\u{10FFFF}\"",
    ])
    func acceptsValidValues(value: String) throws {
        #expect(try decode(withValue(value)) == .ping(t: 1))
    }

    @Test(arguments: [
        "01", "-01", "00", "-", "+1", ".5", "1.", "1.e5", "1e", "1e+", "--1", "0x10", "1_000", "NaN", "Infinity",
        "-Infinity", "nan",
        "inf", "True", "nul", "nulll", "tru", "falsey", "'a'", "\"a", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"",
        "\"\\U0041\"",
        "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"\\ud83dx\"", "\"a\u{01}b\"", "\"a\nb\"", "\"a\tb\"",
        "[1,]", "[,1]",
        "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{a:1}", "{\"a\":1,}", "{,}", "[", "]", "}", "{\"a\":1]", "[1}",
        "",
        "\u{00A0}1", "/*c*/1",
    ])
    func rejectsInvalidValues(value: String) {
        expectError(withValue(value), .badJSON, ref: .some(nil))
    }

    @Test(
        arguments: [
            [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        ] as [[UInt8]])
    func rejectsInvalidUTF8InStrings(sequence: [UInt8]) {
        let bytes = Array(#"{"type":"ping","t":1,"x":"a"#.utf8) + sequence + Array(#"b"}"#.utf8)
        #expect(throws: WireError.self) { try decode(bytes: bytes) }
        #expect((try? decode(bytes: bytes)) == nil)
        do {
            _ = try decode(bytes: bytes)
        } catch {
            #expect(error.code == .badJSON)
            #expect(error.message.contains("invalid UTF-8"))
        }
    }

    @Test func rejectsBytesOutsideStringsAndNUL() {
        for bytes: [UInt8] in [
            [0x7B, 0x00, 0x7D], Array(#"{"type":"ping","t":1}"#.utf8) + [0], [0xEF, 0xBB, 0xBF] + Array("{}".utf8),
        ] {
            #expect((try? decode(bytes: bytes)) == nil)
            do { _ = try decode(bytes: bytes) } catch { #expect(error.code == .badJSON) }
        }
    }

    @Test func emptyBufferIsBadJSON() throws {
        do {
            _ = try MessageDecoder().decode(UnsafeRawBufferPointer(start: nil, count: 0))
            Issue.record("an empty buffer decoded")
        } catch {
            #expect(error.code == .badJSON)
        }
    }

    @Test func escapesDecodeToTheRightString() throws {
        let cases: [(json: String, expected: String)] = [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#""\u0041\u00e9\u20AC\ud83d\ude00""#, "Aé€😀"),
            (#""plain é€😀""#, "plain é€😀"),
            (#""\u0000""#, "\u{0}"),
            (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
        ]
        for (json, expected) in cases {
            let message = try decode(#"{"type":"hello","viewport":{"w":1,"h":1},"dpr":1,"session":\#(json)}"#)
            #expect(message == .hello(Hello(viewport: Size(width: 1, height: 1), dpr: 1, session: expected)), "\(json)")
        }
    }

    @Test(arguments: ["[", "{\"a\":"])
    func hundredThousandLevelsAreRefusedWithoutRecursing(opening: String) {
        let deep = String(repeating: opening, count: 100_000)
        for text in [deep, withValue(deep), deep + "1" + String(repeating: opening == "[" ? "]" : "}", count: 100_000)]
        {
            expectError(text, .badJSON, message: "not JSON: nested too deeply (more than 16 levels)")
        }
    }

    @Test func depthLimitIsExact() throws {
        // The message object is depth 1, so 15 more levels reach the limit of 16 exactly.
        let ok = withValue(String(repeating: "[", count: 15) + String(repeating: "]", count: 15))
        #expect(try decode(ok) == .ping(t: 1))
        let tooDeep = withValue(String(repeating: "[", count: 16) + String(repeating: "]", count: 16))
        expectError(tooDeep, .badJSON, message: "not JSON: nested too deeply (more than 16 levels)")
        let shallow = DecodingLimits(maxDepth: 2)
        #expect(try decode(withValue("[]"), limits: shallow) == .ping(t: 1))
        expectError(withValue("[[]]"), .badJSON, limits: shallow)
        expectError(withValue("{\"a\":{}}"), .badJSON, limits: shallow)
        // Siblings do not add up: depth is nesting, not count.
        let siblings = withValue("[" + String(repeating: "[[]],", count: 100) + "1]")
        #expect(try decode(siblings, limits: DecodingLimits(maxDepth: 4)) == .ping(t: 1))
        expectError(siblings, .badJSON, limits: DecodingLimits(maxDepth: 3))
    }

    /// 17–19 significant digits with small exponents: what `JSON.stringify(performance.now())` looks like,
    /// plus exact ties between two doubles (which must round to even).
    @Test func longMantissasAreCorrectlyRounded() throws {
        var generator = SeededGenerator(seed: 1_108_300)
        var texts: [String] = []
        for _ in 0..<5000 {
            let t = generator.double(in: 0...1e8)
            texts.append("\(t)")
            texts.append("\((t * 10).rounded(.down) * 0.1)")  // 11083 * 0.1 = 1108.3000000000002
        }
        for _ in 0..<5000 {
            var digits = String(generator.int(below: 9) + 1)
            for _ in 0..<(16 + generator.int(below: 3)) { digits += String(generator.int(below: 10)) }
            let exponent = generator.int(below: 42) - 21
            texts.append(digits + "e" + String(exponent))
            let point = 1 + generator.int(below: digits.count - 1)
            texts.append(String(digits.prefix(point)) + "." + String(digits.dropFirst(point)))
        }
        // Just above a tie between two doubles by less than 64 bits can show: only the sticky bit of the
        // long division rounds these up (found by searching with exact rational arithmetic).
        texts += [
            "8721.512005252233394", "22678897522851.79883", "3.062797953636671844", "0.5016288759196965708",
            "7064.285869930536592", "71913503.71001488716", "72402685167578.66407", "1666798.849207989988",
            "485290.4468985522690", "838877352.5087619424", "30738863293221.92383", "98905038875738.72657",
        ]
        for odd in stride(from: 1, to: 200, by: 2) {
            let tie = (1 << 53) + odd  // halfway between two doubles
            texts += ["\(tie)", "\(tie)0e-1", "\(tie).0", "\(tie)00e-2", "\(tie * 2)e-1", "\(tie)e1", "\(tie)e3"]
        }
        for text in texts {
            let expected = try #require(Double(text))
            let message = try decode(#"{"type":"ping","t":\#(text)}"#, limits: DecodingLimits(maxTime: .infinity))
            #expect(message == .ping(t: expected), "\(text)")
            if case .ping(let t) = message { #expect(t.bitPattern == expected.bitPattern, "\(text)") }
        }
    }

    @Test func numbersAreCorrectlyRounded() throws {
        var generator = SeededGenerator(seed: 8259)
        var texts = [
            "0", "-0", "1", "0.1", "0.2", "0.3", "1021.3", "1108.3", "2.2250738585072014e-308", "4.9e-324",
            "1.7976931348623157e308",
            "9007199254740993", "9007199254740992.5", "123456789012345678", "1234567890123456789",
            "12345678901234567890",
            "0.1000000000000000055511151231257827", "1e22", "1e23", "1e-22", "1e-23", "8.41e21", "3.0000000000000004",
            "5e-324", "1.00000000000000011102230246251565404236316680908203125",
        ]
        for _ in 0..<3000 {
            var digits = String(generator.int(below: 9) + 1)
            for _ in 0..<generator.int(below: 22) { digits += String(generator.int(below: 10)) }
            let point = generator.int(below: digits.count + 1)
            var text = generator.bool() ? "-" : ""
            if point == 0 {
                text += "0." + digits
            } else if point == digits.count {
                text += digits
            } else {
                text += String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            }
            if generator.int(below: 3) == 0 { text += "e" + String(generator.int(below: 80) - 40) }
            texts.append(text)
        }
        for _ in 0..<2000 {
            // Shortest representations of random doubles must come back bit for bit.
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF | (generator.bool() ? 1 << 63 : 0))
            texts.append("\(value)")
        }
        var checked = 0
        for text in texts {
            guard let expected = Double(text), expected.isFinite else { continue }
            let message = try decode(#"{"type":"ping","t":\#(text)}"#, limits: DecodingLimits(maxTime: .infinity))
            guard case .ping(let t) = message else {
                Issue.record("\(text) did not decode as a ping")
                continue
            }
            #expect(t.bitPattern == expected.bitPattern, "\(text): \(t) ≠ \(expected)")
            checked += 1
        }
        #expect(checked == texts.count)
    }
}
