import Foundation
import RefreshKit
import Testing

@testable import RefreshWire

/// `JSONWriter`'s numbers are written without libm or a digit-by-digit loop; these tests hold them to the
/// straightforward method (`rounded()`, then the decimal digits), byte for byte, so that frames do not
/// change.
@Suite struct NumberWriterTests {
    /// What `fixed(_:decimals:)` wrote before: `(value · 10^decimals).rounded()` as an integer, then its
    /// digits with the trailing zeros of the fraction trimmed; `nil` where it defers to `exact(_:)`.
    static func reference(_ value: Double, decimals: Int) -> String? {
        let scale = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9][decimals]
        let rounded = (value * scale).rounded()
        guard abs(rounded) < 9e15 else { return nil }
        return reference(rounded == 0 ? 0 : Int64(rounded), decimals: decimals)
    }

    /// `scaled / 10^decimals` as `scaled(_:decimals:)` wrote it before: integer digits, then the fraction's
    /// with its trailing zeros trimmed.
    static func reference(_ scaled: Int64, decimals: Int) -> String {
        let unit = (0..<decimals).reduce(UInt64(1)) { value, _ in value * 10 }
        var text = (scaled < 0 ? "-" : "") + String(scaled.magnitude / unit)
        var fraction = scaled.magnitude % unit
        guard fraction != 0 else { return text }
        var width = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: width - digits.count) + digits
        return text
    }

    /// What `body` appends to an array (with room to spare).
    static func written(_ body: (inout JSONWriter) -> Void) -> String {
        var buffer: [UInt8] = []
        appendJSON(to: &buffer, bound: 64, body)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Doubles that stress the rounding: halfway cases and their neighbours, tiny and huge magnitudes,
    /// both signs.
    static func values(decimals: Int) -> [Double] {
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 0.1 + 0.2, 1e-9, -1e-9, 123_456.789]
        let scale = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9][decimals]
        var generator = SeededGenerator(seed: UInt64(decimals) + 17)
        for _ in 0..<20_000 {
            let halfway = (Double(generator.int(below: 2_000_000)) - 1_000_000 + 0.5) / scale
            values += [halfway, halfway.nextUp, halfway.nextDown]
            values.append(generator.double(in: -5000...5000))
            values.append(generator.double(in: -1...1))
            let magnitude = Double(sign: .plus, exponent: generator.int(below: 120) - 60, significand: 1)
            values.append(generator.double(in: -1...1) * magnitude)
        }
        // Around the point where `exact(_:)` takes over, and where every double is an integer.
        for edge in [9e15 / scale, 4_503_599_627_370_496 / scale] {
            values += [edge, edge.nextUp, edge.nextDown, -edge, -edge.nextDown]
        }
        return values
    }

    /// What `body` writes into exactly `capacity` bytes, or nil if it overflowed.
    static func written(capacity: Int, _ body: (inout JSONWriter) -> Void) -> String? {
        var memory = [UInt8](repeating: 0, count: capacity)
        let count: Int? = memory.withUnsafeMutableBufferPointer { all in
            var writer = JSONWriter(start: all.baseAddress!, capacity: capacity)
            body(&writer)
            return writer.overflowed ? nil : writer.count
        }
        return count.map { String(decoding: memory[..<$0], as: UTF8.self) }
    }

    @Test(arguments: [0, 1, 3, 6, 9])
    func fixedMatchesRoundedThenDigits(decimals: Int) {
        var mismatches: [String] = []
        for value in Self.values(decimals: decimals) {
            let expected = Self.reference(value, decimals: decimals) ?? Self.written { $0.exact(value) }
            // With room to spare (the grouped path), and in exactly the room it needs (byte by byte).
            let roomy = Self.written { $0.fixed(value, decimals: decimals) }
            let tight = Self.written(capacity: expected.utf8.count) { $0.fixed(value, decimals: decimals) }
            let short = Self.written(capacity: expected.utf8.count - 1) { $0.fixed(value, decimals: decimals) }
            if (roomy != expected || tight != expected || short != nil) && mismatches.count < 10 {
                mismatches.append("\(value): \(roomy), \(tight ?? "overflow"), \(short ?? "overflow") ≠ \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func nonFiniteValuesAreZero() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(Self.written { $0.fixed(value, decimals: 3) } == "0")
        }
    }

    @Test func digitsIntegersAndTimes() {
        var generator = SeededGenerator(seed: 5)
        var samples: [UInt64] = [0, 1, 9, 10, 99, 100, 101, 999, 1000, UInt64.max, UInt64.max - 1, 1 << 63]
        for power in 0..<20 {
            let p = (0..<power).reduce(UInt64(1)) { value, _ in value * 10 }
            samples += [p, p - 1, p + 1]
        }
        for _ in 0..<5000 { samples.append(generator.next() >> UInt64(generator.int(below: 64))) }
        for value in samples {
            #expect(Self.written { $0.digits(value) } == String(value))
            let width = generator.int(below: 21)
            let padded = String(value)
            let expected = String(repeating: "0", count: max(0, width - padded.count)) + padded
            #expect(Self.written { $0.digits(value, width: width) } == expected)
            let signed = Int64(bitPattern: value)
            #expect(Self.written { $0.integer(signed) } == String(signed))
        }
        for microseconds in samples.map({ Int64(bitPattern: $0) }) + [.min, .max, 0, -1, 999, -999_999] {
            let expected = Self.reference(microseconds, decimals: 3)
            #expect(Self.written { $0.milliseconds(Timestamp(microseconds: microseconds)) } == expected)
            #expect(Self.written(capacity: expected.utf8.count) { $0.scaled(microseconds, decimals: 3) } == expected)
            #expect(Self.written { $0.scaled(microseconds, decimals: 6) } == Self.reference(microseconds, decimals: 6))
        }
        #expect(Self.written { $0.milliseconds(Timestamp(microseconds: 81_234_500)) } == "81234.5")
        #expect(Self.written { $0.milliseconds(Timestamp(microseconds: -1_001)) } == "-1.001")
        #expect(Self.written { $0.milliseconds(Timestamp(microseconds: 7_000)) } == "7")
    }

    /// Times on the server's clock (µs since 1970: a 13-digit integer part in ms), written by groups of three
    /// digits, and the integer parts around each power of ten past a million.
    @Test func realClockTimes() {
        var generator = SeededGenerator(seed: 31)
        var samples: [Int64] = []
        for _ in 0..<5000 { samples.append(1_764_028_800_000_000 + Int64(generator.int(below: 1 << 40))) }
        for power in 9...18 {
            let p = (0..<power).reduce(Int64(1)) { value, _ in value * 10 }
            samples += [p, p - 1, p + 1, p + 999, p - 1000, -p, -(p - 1)]
        }
        for microseconds in samples {
            let expected = Self.reference(microseconds, decimals: 3)
            #expect(Self.written { $0.milliseconds(Timestamp(microseconds: microseconds)) } == expected)
            #expect(Self.written { $0.scaled(microseconds, decimals: 6) } == Self.reference(microseconds, decimals: 6))
        }
    }

    @Test func aWriteThatDoesNotFitWritesNothingAndNothingAfterIt() {
        var memory = [UInt8](repeating: 0xAA, count: 8)
        memory.withUnsafeMutableBufferPointer { all in
            var writer = JSONWriter(start: all.baseAddress!, capacity: 6)
            writer.fixed(12.5, decimals: 3)
            #expect(writer.count == 4 && !writer.overflowed)
            writer.digits(123)
            #expect(writer.count == 4 && writer.overflowed)
            writer.byte(.comma)
            #expect(writer.count == 4)
        }
        #expect(Array(memory[0..<4]) == Array("12.5".utf8))
        #expect(memory[4...].allSatisfy { $0 == 0xAA })
        // appendJSON starts over with more room.
        var buffer: [UInt8] = Array("x".utf8)
        appendJSON(to: &buffer, bound: 1) { w in
            for _ in 0..<100 { w.fixed(-1234.5678, decimals: 3) }
        }
        #expect(String(decoding: buffer, as: UTF8.self) == "x" + String(repeating: "-1234.568", count: 100))
    }
}
