import Foundation
import RefreshKit
import RefreshWire
import Testing

/// Seeded random and mutated inputs: the decoder never crashes, never hangs, and every failure is a
/// `WireError` with a decoder code; every success respects the limits.
@Suite("Fuzzing the decoder")
struct FuzzTests {
    static let seeds = [
        #"{"type":"hello","viewport":{"w":390,"h":844},"dpr":3,"preset":"ios","session":"abc","token":"t\"\u00e9"}"#,
        #"{"type":"touch","phase":"move","dx":-1.5,"dy":40,"t":1108.3,"id":2}"#,
        #"{"type":"wheel","dx":0,"dy":-120,"mode":1,"t":1300.25}"#,
        #"{"type":"resize","viewport":{"w":844,"h":390}}"#,
        #"{"type":"command","name":"scrollBy","edge":"top","animated":false,"amount":-2.5e1}"#,
        #"{"type":"configure","preset":"jh","edges":{"top":{"trigger":"onRelease","height":60,"enabled":true},"#
            + #""bottom":{"role":"loadMore","cycleKind":"spring"}},"feed":{"pageSize":20,"failureRate":0.5},"#
            + #""physics":{"spring":"pop","rubberBand":0.55}}"#,
        #"{"type":"ping","t":1021.3}"#,
        #"[1, -0.5e-3, "x\\y", true, false, null, {"a": []}]"#,
    ]

    /// Codes the decoder itself may produce.
    static let decoderCodes: Set<ErrorCode> = [
        .badJSON, .badMessage, .unknownType, .missingField, .badField, .outOfRange, .unknownCommand,
    ]

    static let alphabet =
        Array(#"{}[]:,"\ -+.eE0123456789tfnulrsaxy/bu"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]

    static func mutate(_ input: [UInt8], _ g: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + g.int(below: 4)) {
            let position = bytes.isEmpty ? 0 : g.int(below: bytes.count + 1)
            switch g.int(below: 9) {
            case 0 where position < bytes.count:  // flip a bit
                bytes[position] ^= 1 << UInt8(g.int(below: 8))
            case 1:  // insert a JSON-ish byte
                bytes.insert(g.element(of: alphabet), at: position)
            case 2 where !bytes.isEmpty:  // delete a range
                let end = min(bytes.count, position + 1 + g.int(below: 8))
                if position < end { bytes.removeSubrange(position..<end) }
            case 3 where position < bytes.count:  // duplicate a range
                let end = min(bytes.count, position + 1 + g.int(below: 16))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            case 4:  // splice in part of another seed
                let other = Array(g.element(of: seeds).utf8)
                let start = g.int(below: other.count)
                bytes.insert(contentsOf: other[start..<min(other.count, start + g.int(below: 24))], at: position)
            case 5:  // nest deeply
                let opening: [UInt8] = g.bool() ? [0x5B] : Array(#"{"a":"#.utf8)
                bytes.insert(
                    contentsOf: Array([[UInt8]](repeating: opening, count: g.int(below: 40)).joined()), at: position)
            case 6:  // an extreme number
                let number = g.element(of: [
                    "1e400", "-0", "1e-400", "123456789012345678901234567890", "9007199254740993", "0.1",
                ])
                bytes.insert(contentsOf: Array(number.utf8), at: position)
            case 7 where position < bytes.count:  // replace a byte
                bytes[position] = g.element(of: alphabet)
            default:  // truncate
                bytes.removeSubrange(min(position, bytes.count)...)
            }
        }
        return bytes
    }

    static let values = [
        "0", "-0", "1", "2", "3", "-1.5", "1e400", "1e12", "1e13", "0.5", "1e-400", "100001", "16", "17", "null",
        "true",
        "false", "\"\"", "\"x\"", "\"move\"", "\"top\"", "\"refresh\"", "\"ios\"", "\"spring\"", "{}", "[]",
        #"{"w":1,"h":1}"#, #"{"top":{}}"#, "\"\\u0074op\"",
    ]

    static let keys = [
        "type", "phase", "dx", "dy", "t", "id", "mode", "viewport", "w", "h", "dpr", "name", "edge", "amount",
        "animated",
        "edges", "top", "feed", "physics", "spring", "height", "pageSize", "x",
    ]

    /// Mutations that keep the text JSON: replace a member's value, rename a key, drop a member.
    static func mutateStructure(_ input: [UInt8], _ g: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + g.int(below: 3)) {
            let colons = bytes.indices.filter { bytes[$0] == 0x3A && outsideString(bytes, $0) }
            guard !colons.isEmpty else { return bytes }
            let colon = g.element(of: colons)
            let valueEnd = endOfValue(bytes, colon + 1)
            let keyStart = bytes[..<(colon - 1)].lastIndex(of: 0x22).map { $0 } ?? colon
            switch g.int(below: 3) {
            case 0:
                bytes.replaceSubrange((colon + 1)..<valueEnd, with: Array(g.element(of: values).utf8))
            case 1:
                bytes.replaceSubrange(keyStart..<colon, with: Array("\"\(g.element(of: keys))\"".utf8))
            default:
                let before = keyStart > 0 && bytes[keyStart - 1] == 0x2C ? keyStart - 1 : keyStart
                let after =
                    before == keyStart && valueEnd < bytes.count && bytes[valueEnd] == 0x2C ? valueEnd + 1 : valueEnd
                bytes.removeSubrange(before..<after)
            }
        }
        return bytes
    }

    private static func outsideString(_ bytes: [UInt8], _ index: Int) -> Bool {
        var inside = false
        var i = 0
        while i < index {
            if bytes[i] == 0x5C && inside { i += 1 } else if bytes[i] == 0x22 { inside.toggle() }
            i += 1
        }
        return !inside
    }

    /// The end of the JSON value starting at `start` (strings and nesting respected).
    private static func endOfValue(_ bytes: [UInt8], _ start: Int) -> Int {
        var depth = 0
        var inside = false
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if inside {
                if b == 0x5C { i += 1 } else if b == 0x22 { inside = false }
            } else if b == 0x22 {
                inside = true
            } else if b == 0x7B || b == 0x5B {
                depth += 1
            } else if b == 0x7D || b == 0x5D {
                if depth == 0 { return i }
                depth -= 1
            } else if b == 0x2C && depth == 0 {
                return i
            }
            i += 1
        }
        return i
    }

    /// Decodes `bytes` and checks what came out; returns whether it decoded.
    @discardableResult
    static func check(_ bytes: [UInt8], limits: DecodingLimits = .init()) -> Bool {
        let first: Result<ClientMessage, WireError> = bytes.withUnsafeBytes { raw in
            Result { () throws(WireError) in try MessageDecoder(limits: limits).decode(raw) }
        }
        let second: Result<ClientMessage, WireError> = bytes.withUnsafeBytes { raw in
            Result { () throws(WireError) in try MessageDecoder(limits: limits).decode(raw) }
        }
        #expect(first == second, "decoding is not deterministic")
        switch first {
        case .success(let message):
            checkLimits(message, limits)
            return true
        case .failure(let error):
            #expect(decoderCodes.contains(error.code), "\(error)")
            #expect(!error.message.isEmpty)
            if error.code == .badJSON || error.code == .badMessage { #expect(error.ref == nil) }
            if decoderCodes.subtracting([.badJSON, .badMessage, .unknownType]).contains(error.code) {
                #expect(error.ref != nil, "\(error)")
            }
            return false
        }
    }

    static func checkLimits(_ message: ClientMessage, _ limits: DecodingLimits) {
        func viewportOK(_ size: Size) -> Bool {
            size.width > 0 && size.height > 0 && size.width <= limits.maxViewport && size.height <= limits.maxViewport
        }
        switch message {
        case .hello(let hello):
            #expect(viewportOK(hello.viewport) && hello.dpr > 0 && hello.dpr <= limits.maxDevicePixelRatio)
            for string in [hello.preset, hello.session, hello.token].compactMap({ $0 }) {
                #expect(string.utf8.count <= limits.maxStringLength)
            }
        case .ping(let t):
            #expect(t.isFinite && abs(t) <= limits.maxTime)
        case .trace:
            break
        case .input(.touch(let touch), _):
            #expect(abs(touch.delta.x) <= limits.maxDelta && abs(touch.delta.y) <= limits.maxDelta)
            #expect(touch.pageTime.isFinite && abs(touch.pageTime) <= limits.maxTime)
        case .input(.wheel(let wheel), _):
            #expect(abs(wheel.delta.x) <= limits.maxDelta && abs(wheel.delta.y) <= limits.maxDelta)
            #expect(wheel.pageTime.isFinite && abs(wheel.pageTime) <= limits.maxTime)
        case .input(.resize(let size), _):
            #expect(viewportOK(size))
        case .input(.command(let command), _):
            #expect(command.amount.isFinite && abs(command.amount) <= limits.maxAmount)
        case .input(.configure(let patch), _):
            // Every number the decoder lets through is finite (the engine checks the ranges).
            let values =
                patch.edges.values.flatMap { $0.values.values } + (patch.feed?.values.values.map { $0 } ?? [])
                + (patch.physics?.values.values.map { $0 } ?? [])
            let numbers: [Double?] = values.map {
                if case .number(let number) = $0 { number } else { nil }
            }
            #expect(numbers.allSatisfy { $0?.isFinite ?? true })
        case .input(.feedAnswer, _):
            Issue.record("the page's decoder let a feed_answer through")
        case .input(.measure(let batch), _):
            #expect(batch.width > 0 && batch.width <= limits.maxViewport)
            #expect(batch.rows.count <= MessageDecoder.maxMeasuredRows)
            #expect(batch.rows.allSatisfy { $0.height.isFinite && !$0.id.isEmpty })
        }
    }

    @Test func randomBytes() {
        var g = SeededGenerator(seed: 0xF022)
        for _ in 0..<5000 {
            let length = g.int(below: 120)
            let bytes = (0..<length).map { _ in
                g.bool() ? g.element(of: Self.alphabet) : UInt8(truncatingIfNeeded: g.next())
            }
            Self.check(bytes)
        }
    }

    @Test func mutatedMessages() {
        var g = SeededGenerator(seed: 0xBEEF)
        var decoded = 0
        var codes: [ErrorCode: Int] = [:]
        for i in 0..<15_000 {
            let seed = Array(Self.seeds[i % Self.seeds.count].utf8)
            let bytes = i % 2 == 0 ? Self.mutate(seed, &g) : Self.mutateStructure(seed, &g)
            if Self.check(bytes) {
                decoded += 1
            } else if let error = decodingError(bytes) {
                codes[error.code, default: 0] += 1
            }
        }
        // The corpus must exercise both outcomes and most codes, or the loop proves little.
        #expect(decoded > 1000)
        #expect(Set(codes.keys) == Self.decoderCodes)
    }

    @Test func mutatedMessagesWithTightLimits() {
        var g = SeededGenerator(seed: 7)
        let limits = DecodingLimits(
            maxDepth: 3, maxViewport: 500, maxDelta: 50, maxAmount: 3, maxTime: 2000, maxStringLength: 2)
        for i in 0..<3000 {
            let seed = Array(Self.seeds[i % Self.seeds.count].utf8)
            Self.check(i % 2 == 0 ? Self.mutate(seed, &g) : Self.mutateStructure(seed, &g), limits: limits)
        }
    }

    /// Our verdict on "is this JSON" agrees with Foundation's on the mutated corpus, where both apply
    /// (Foundation allows 512 levels, where we stop at 16).
    @Test func syntaxVerdictAgreesWithFoundation() {
        var g = SeededGenerator(seed: 0x8259)
        var compared = 0
        var disagreements: [String] = []
        for i in 0..<5000 {
            let seed = Array(Self.seeds[i % Self.seeds.count].utf8)
            let bytes = i % 4 == 0 ? Self.mutateStructure(seed, &g) : Self.mutate(seed, &g)
            let ours = decodingError(bytes)?.code != .badJSON
            if !ours, decodingError(bytes)?.message.contains("nested too deeply") == true { continue }
            // Foundation refuses numbers that overflow a Double (1e400): they are JSON, and ours says bad_field.
            if hasHugeExponent(bytes) { continue }
            let foundation = (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil
            compared += 1
            if ours != foundation {
                disagreements.append("\(ours) \(foundation): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(compared > 4000)
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(10))")
    }
}

/// Whether `bytes` hold a digit followed by an exponent of three digits or more (`1e400`, `5E+1000`).
private func hasHugeExponent(_ bytes: [UInt8]) -> Bool {
    let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
    for i in bytes.indices.dropFirst() where (bytes[i] == 0x65 || bytes[i] == 0x45) && isDigit(bytes[i - 1]) {
        var j = i + 1
        if j < bytes.count && (bytes[j] == 0x2B || bytes[j] == 0x2D) { j += 1 }
        var digits = 0
        while j < bytes.count && isDigit(bytes[j]) {
            digits += 1
            j += 1
        }
        if digits >= 3 { return true }
    }
    return false
}

func decodingError(_ bytes: [UInt8]) -> WireError? {
    do {
        _ = try decode(bytes: bytes)
        return nil
    } catch {
        return error
    }
}
