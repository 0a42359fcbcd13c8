import Foundation
import RefreshKit
import RefreshWire
import Testing

/// A number exactly as JSON text writes it: `mantissa · 10^exponent`, normalised (no trailing zeros in the
/// mantissa), so two spellings of one number (`1.5`, `1.50`, `15e-1`) are equal, and sums are exact.
struct ExactNumber: Equatable, CustomStringConvertible {
    private(set) var mantissa: Int128
    private(set) var exponent: Int

    init(mantissa: Int128, exponent: Int) {
        var m = mantissa
        var e = exponent
        if m == 0 { e = 0 }
        while m != 0 && m % 10 == 0 {
            m /= 10
            e += 1
        }
        self.mantissa = m
        self.exponent = e
    }

    static func + (a: ExactNumber, b: ExactNumber) -> ExactNumber {
        let e = min(a.exponent, b.exponent)
        return ExactNumber(mantissa: a.scaled(to: e) + b.scaled(to: e), exponent: e)
    }

    static prefix func - (a: ExactNumber) -> ExactNumber { ExactNumber(mantissa: -a.mantissa, exponent: a.exponent) }

    static func - (a: ExactNumber, b: ExactNumber) -> ExactNumber { a + -b }

    private func scaled(to e: Int) -> Int128 {
        var m = mantissa
        for _ in 0..<(exponent - e) { m *= 10 }
        return m
    }

    var description: String { "\(mantissa)e\(exponent)" }
}

/// A JSON value with exact numbers, so two messages can be compared as values: member order does not
/// matter, and numbers are equal when the texts spell the same number.
indirect enum JSONValue: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(ExactNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): "\(n)"
        case .string(let s): "\"\(s)\""
        case .array(let a): "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o):
            "{" + o.keys.sorted().map { "\"\($0)\":\(o[$0]!)" }.joined(separator: ",") + "}"
        }
    }

    /// Parses JSON text (the encoder's output: no need for every corner of RFC 8259).
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer)
            let value = try parser.value()
            parser.skipSpace()
            guard parser.index == buffer.count else { throw ParseError(at: parser.index) }
            return value
        }
    }

    static func parse(_ text: String) throws -> JSONValue { try parse(Array(text.utf8)) }

    struct ParseError: Error {
        let at: Int
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

        mutating func skipSpace() {
            while current == 0x20 || current == 0x0A || current == 0x0D || current == 0x09 { index += 1 }
        }

        mutating func expect(_ literal: StaticString) throws {
            let n = literal.utf8CodeUnitCount
            guard index + n <= bytes.count else { throw ParseError(at: index) }
            for i in 0..<n where bytes[index + i] != literal.utf8Start[i] { throw ParseError(at: index) }
            index += n
        }

        mutating func value() throws -> JSONValue {
            skipSpace()
            switch current {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: JSONValue] = [:]
                skipSpace()
                if current == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard case .string(let key) = try value() else { throw ParseError(at: index) }
                    skipSpace()
                    try expect(":")
                    members[key] = try value()
                    skipSpace()
                    if current == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONValue] = []
                skipSpace()
                if current == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                while true {
                    elements.append(try value())
                    skipSpace()
                    if current == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                index += 1
                var scalars: [UInt8] = []
                while current != UInt8(ascii: "\"") {
                    guard index < bytes.count else { throw ParseError(at: index) }
                    if current == UInt8(ascii: "\\") {
                        index += 1
                        switch current {
                        case UInt8(ascii: "b"): scalars.append(0x08)
                        case UInt8(ascii: "f"): scalars.append(0x0C)
                        case UInt8(ascii: "n"): scalars.append(0x0A)
                        case UInt8(ascii: "r"): scalars.append(0x0D)
                        case UInt8(ascii: "t"): scalars.append(0x09)
                        case UInt8(ascii: "u"):  // the encoder only escapes control characters this way
                            let hex = String(decoding: bytes[(index + 1)..<(index + 5)], as: UTF8.self)
                            scalars.append(contentsOf: Array(String(UnicodeScalar(UInt32(hex, radix: 16)!)!).utf8))
                            index += 4
                        default: scalars.append(current)
                        }
                    } else {
                        scalars.append(current)
                    }
                    index += 1
                }
                index += 1
                return .string(String(decoding: scalars, as: UTF8.self))
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default:
                return .number(try number())
            }
        }

        /// `-? digits (. digits)? ([eE] [+-]? digits)?`, exactly.
        mutating func number() throws -> ExactNumber {
            let start = index
            let negative = current == UInt8(ascii: "-")
            if negative { index += 1 }
            var mantissa: Int128 = 0
            var exponent = 0
            var digits = 0
            while (0x30...0x39).contains(current) {
                mantissa = mantissa * 10 + Int128(current - 0x30)
                index += 1
                digits += 1
            }
            if current == UInt8(ascii: ".") {
                index += 1
                while (0x30...0x39).contains(current) {
                    mantissa = mantissa * 10 + Int128(current - 0x30)
                    exponent -= 1
                    index += 1
                    digits += 1
                }
            }
            guard digits > 0 else { throw ParseError(at: start) }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                let negativeExponent = current == UInt8(ascii: "-")
                if current == UInt8(ascii: "-") || current == UInt8(ascii: "+") { index += 1 }
                var e = 0
                while (0x30...0x39).contains(current) {
                    e = e * 10 + Int(current - 0x30)
                    index += 1
                }
                exponent += negativeExponent ? -e : e
            }
            return ExactNumber(mantissa: negative ? -mantissa : mantissa, exponent: exponent)
        }
    }
}

/// The page's side of PROTOCOL.md's "delta", written from the document rather than from the encoder: RFC
/// 7386 merge patch, the `edges` rule, and the follow rule, in exact decimal arithmetic.
enum DeltaApplier {
    /// RFC 7386 `MergePatch(target, patch)`.
    static func mergePatch(_ target: JSONValue?, _ patch: JSONValue) -> JSONValue {
        guard case .object(let members) = patch else { return patch }
        var result: [String: JSONValue] = [:]
        if case .object(let existing)? = target { result = existing }
        for (key, value) in members {
            if value == .null {
                result[key] = nil
            } else {
                result[key] = mergePatch(result[key], value)
            }
        }
        return .object(result)
    }

    /// The frame that `delta` turns `base` (a whole frame) into.
    static func apply(_ delta: JSONValue, to base: JSONValue) -> JSONValue {
        guard case .object(var patch) = delta, case .object(let frame) = base else { return .null }
        let edgesPatch = patch.removeValue(forKey: "edges")
        patch["type"] = .string("frame")
        guard case .object(var next) = mergePatch(base, .object(patch)) else { return .null }
        switch edgesPatch {
        case .array?:
            next["edges"] = edgesPatch
        default:
            guard case .array(let entries)? = frame["edges"] else { return .object(next) }
            var edges: [JSONValue] = []
            for entry in entries {
                guard case .object(var e) = entry, case .string(let name)? = e["edge"] else { return .null }
                follow(&e, edge: name, from: base, to: .object(next))
                var patched = JSONValue.object(e)
                if let p = edgesPatch?[name] { patched = mergePatch(patched, p) }
                edges.append(patched)
            }
            next["edges"] = .array(edges)
        }
        return .object(next)
    }

    /// The follow rule: `distance` moves by the offset's change along the edge's axis (against it for top and
    /// left), `velocity` is the frame's velocity along the axis (negated for top and left).
    static func follow(_ entry: inout [String: JSONValue], edge: String, from base: JSONValue, to next: JSONValue) {
        let axis = edge == "top" || edge == "bottom" ? "y" : "x"
        let leading = edge == "top" || edge == "left"
        guard case .number(let distance)? = entry["distance"], case .number(let was)? = base["offset"]?[axis],
            case .number(let now)? = next["offset"]?[axis], case .number(let speed)? = next["velocity"]?[axis]
        else { return }
        entry["distance"] = .number(leading ? distance - (now - was) : distance + (now - was))
        entry["velocity"] = .number(leading ? -speed : speed)
    }
}

extension JSONValue {
    /// The message `write` appends, parsed.
    static func message(_ write: (MessageEncoder, inout [UInt8]) -> Void) throws -> JSONValue {
        var buffer: [UInt8] = []
        write(MessageEncoder(), &buffer)
        return try parse(buffer)
    }
}
