import RefreshKit
import Testing

@testable import RefreshWire

/// `MessageDecoder.plainTouch`, the one-pass reading of a touch spelled as the page spells it, against the
/// general decoder: it must be taken for the page's messages, and wherever it answers it must answer what
/// the general path answers (anything else falls back, so errors come from one place).
@Suite("The page's touch spelling, read in one pass")
struct PlainTouchTests {
    let decoder = MessageDecoder()

    /// What `decode` (shortcut first) and the general path alone make of `bytes`.
    func bothPaths(_ bytes: [UInt8], _ decoder: MessageDecoder) -> (
        decoded: Result<ClientMessage, WireError>, general: Result<ClientMessage, WireError>, plain: ClientMessage?
    ) {
        bytes.withUnsafeBytes { text in
            (
                Result { () throws(WireError) in try decoder.decode(text) },
                Result { () throws(WireError) in try decoder.decodeAnySpelling(text) },
                decoder.plainTouch(text).map { ClientMessage.input(.touch($0.0), seq: $0.seq) }
            )
        }
    }

    /// A touch as `JSON.stringify` writes the page's object literal (web/js/pointerInput.js), `seq` last.
    static func pageMessage(_ phase: String, dx: String, dy: String, t: String, id: String?, seq: String? = nil)
        -> String
    {
        #"{"type":"touch","phase":"\#(phase)","dx":\#(dx),"dy":\#(dy),"t":\#(t)"#
            + (id.map { #","id":\#($0)"# } ?? "") + (seq.map { #","seq":\#($0)"# } ?? "") + "}"
    }

    /// Numbers as JavaScript writes them: integers, fractions, 17-digit `performance.now()` sums, exponents;
    /// and the edges of the one-pass decimal reading (19 digits and 20, zeros, a negative zero).
    static let numbers = [
        "0", "-5", "5", "12.25", "-0.5", "1108.3000000000002", "1e-7", "-2.5e-8", "123456.125", "1000000",
        "999999.9999999999", "-0", "0.000", "0.0001", "12345.67890123456789", "12345.678901234567891",
        "0.0000000000000000001",
        "-0.30000000000000004",
    ]

    @Test func thePagesSpellingTakesTheShortcutAndReadsTheSame() {
        var count = 0
        for phase in ["start", "move", "end", "cancel"] {
            for dx in Self.numbers {
                for dy in Self.numbers.reversed() {
                    for id in [nil, "0", "1", "17", "-3"] as [String?] {
                        let seq = [nil, "0", "58", "9007199254740992", "1234567"][(count / 5 + count) % 5]
                        let text = Self.pageMessage(phase, dx: dx, dy: dy, t: "1721.4000000000233", id: id, seq: seq)
                        let (decoded, general, plain) = bothPaths(Array(text.utf8), decoder)
                        #expect(plain != nil, "not taken: \(text)")
                        #expect(decoded == general, "\(text)")
                        if let plain { #expect(general == .success(plain), "\(text)") }
                        count += 1
                    }
                }
            }
        }
        #expect(count == 4 * Self.numbers.count * Self.numbers.count * 5)
    }

    @Test func otherSpellingsAndRefusedValuesFallBackToTheGeneralPath() {
        let fallBack = [
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"id":4} "#,  // trailing whitespace
            #"{ "type":"touch","phase":"move","dx":1,"dy":2,"t":3}"#,
            #"{"phase":"move","type":"touch","dx":1,"dy":2,"t":3}"#,  // another order
            #"{"type":"touch","phase":"move","dy":2,"dx":1,"t":3}"#,
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"id":4,"x":5}"#,  // an extra member
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"id":null}"#,
            #"{"type":"touch","phase":"m\u006fve","dx":1,"dy":2,"t":3}"#,  // an escape
            #"{"type":"touch","phase":"hover","dx":1,"dy":2,"t":3}"#,  // refused: unknown phase
            #"{"type":"touch","phase":"move","dx":1e400,"dy":2,"t":3}"#,  // refused: not finite
            #"{"type":"touch","phase":"move","dx":1000001,"dy":2,"t":3}"#,  // refused: beyond maxDelta
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":1e13}"#,  // refused: beyond maxTime
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"id":1.5}"#,  // refused: not an integer
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"id":9007199254740994}"#,  // refused: too big
            #"{"type":"touch","phase":"move","dx":01,"dy":2,"t":3}"#,  // refused: leading zero
            #"{"type":"touch","phase":"move","dx":1.,"dy":2,"t":3}"#,  // refused: bad number
            #"{"type":"touch","phase":"move","dx":-,"dy":2,"t":3}"#,
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3}}"#,  // refused: trailing bytes
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3"#,  // refused: truncated
            #"{"type":"touch","phase":"move","dx":1,"dy":2}"#,  // refused: no t
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":4,"id":1}"#,  // seq before id
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":null}"#,
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"id":1,"seq":1.5}"#,  // refused: a fraction
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"id":1,"seq":-1}"#,  // refused: negative
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":9007199254740994}"#,  // refused: too big
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":"5"}"#,  // refused: a string
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":4e1}"#,  // an integer, spelled otherwise
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":5.0}"#,
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":05}"#,  // refused: a leading zero
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":-0}"#,
            #"{"type":"touch","phase":"move","dx":1,"dy":2,"t":3,"seq":00000000000000012}"#,  // refused: bad JSON
        ]
        for text in fallBack {
            let (decoded, general, plain) = bothPaths(Array(text.utf8), decoder)
            #expect(plain == nil, "taken: \(text)")
            #expect(decoded == general, "\(text)")
        }
        // A decoder that allows no nesting refuses every object: so does the shortcut.
        var flat = MessageDecoder()
        flat.limits.maxDepth = 0
        let page = Self.pageMessage("move", dx: "1", dy: "2", t: "3", id: "1")
        let (decoded, general, plain) = bothPaths(Array(page.utf8), flat)
        #expect(plain == nil && decoded == general)
        #expect(throws: WireError.self) { try general.get() }
    }

    @Test func mutatedTouchesGetTheSameAnswerEitherWay() {
        var g = SeededGenerator(seed: 0x70_7563_68)
        var taken = 0
        let base = (0..<40).map { i in
            Array(
                Self.pageMessage(
                    g.element(of: ["start", "move", "end", "cancel"]), dx: g.element(of: Self.numbers),
                    dy: g.element(of: Self.numbers), t: "\(1000 + i).5", id: g.bool() ? "\(i)" : nil,
                    seq: g.bool() ? "\(i * 7)" : nil
                ).utf8)
        }
        for _ in 0..<20_000 {
            let bytes = FuzzTests.mutate(g.element(of: base), &g)
            let (decoded, general, plain) = bothPaths(bytes, decoder)
            #expect(decoded == general, "\(String(decoding: bytes, as: UTF8.self))")
            if let plain {
                taken += 1
                #expect(general == .success(plain))
            }
        }
        #expect(taken > 100)  // some mutations keep the page's spelling (a digit changed, say)
    }
}

/// The server's own `touch cancel` (a member left with a finger down) reads back as the input it applied.
@Suite struct SynthesizedTouchTests {
    @Test(arguments: [(0, 0.0), (7, 1234.5), (-3, 99_999_999.25), (4_294_967_295, 1e-3)])
    func aCancelReadsBackAsTheInputApplied(pointer: Int, pageTime: Double) throws {
        let cancel = SynthesizedTouch.cancel(pointer: pointer, pageTime: pageTime)
        let decoded = try cancel.text.withUnsafeBytes { try MessageDecoder().decode($0) }
        #expect(decoded == .input(cancel.input))
    }
}
