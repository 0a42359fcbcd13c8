import RefreshKit
import Testing

@testable import RefreshWire

/// `JSONText.plainDecimal`, the one-pass reading of the page's usual numbers, against the general path
/// (`scanNumber` then `number(at:)`): wherever it answers, the same double bit for bit and the same end; it
/// answers for every plain decimal of up to 19 digits; it never answers for a token the validator refuses.
@Suite("Plain decimals, read in one pass")
struct PlainDecimalTests {
    /// What the two paths make of the number at the start of `text`, which is closed with `}` (as a touch is:
    /// the shortcut's precondition).
    func bothPaths(_ text: String) -> (plain: (value: Double, end: Int)?, general: (value: Double, end: Int)?) {
        Array((text + "}").utf8).withUnsafeBytes { bytes in
            let json = JSONText(bytes)
            let general = (try? json.scanNumber(at: 0)).flatMap { end in json.number(at: 0).map { ($0, end) } }
            return (json.plainDecimal(at: 0), general)
        }
    }

    /// Checks `number` followed by each of the texts that follow a touch's numbers.
    func expectSameReading(_ number: String, taken: Bool) {
        for tail in ["", ",", #","id":1"#, #","seq":123456789"#] {
            let text = number + tail
            let (plain, general) = bothPaths(text)
            if taken { #expect(plain != nil, "not taken: \(text)") }
            guard let plain else { continue }
            guard let general else {
                Issue.record("taken, but the general path refuses: \(text)")
                continue
            }
            #expect(plain.value.bitPattern == general.value.bitPattern, "\(text): \(plain.value) ≠ \(general.value)")
            #expect(plain.end == general.end && plain.end == number.utf8.count, "\(text)")
            #expect(plain.value.bitPattern == Double(number)?.bitPattern, "\(text)")
        }
    }

    /// `count` random digits, the first not a zero.
    func digits(_ count: Int, _ g: inout SeededGenerator) -> String {
        var text = String(1 + g.int(below: 9))
        for _ in 1..<max(count, 1) { text += String(g.int(below: 10)) }
        return text
    }

    @Test func integersFractionsAndTimestampsReadAsTheGeneralPathReadsThem() {
        var g = SeededGenerator(seed: 0x6469_6769_7473)
        var numbers = ["0", "-0", "0.0", "-0.0", "0.000", "1", "-5", "9", "10", "99999999", "100000000", "0.5"]
        numbers += ["9007199254740992", "9007199254740993", "18446744073709551615", "9999999999999999999"]
        numbers += ["1108.3000000000002", "-0.30000000000000004", "0.000000000000000001", "1234567890.123456789"]
        for count in 1...19 {
            for _ in 0..<60 {
                let integer = digits(count, &g)
                let sign = g.bool() ? "-" : ""
                numbers.append(sign + integer)
                // The same digits with a point somewhere, and with leading zeros after "0.".
                let point = 1 + g.int(below: count)
                if point < count {
                    numbers.append(sign + String(integer.prefix(point)) + "." + String(integer.dropFirst(point)))
                }
                let zeros = String(repeating: "0", count: g.int(below: 19 - count + 1))
                if count + zeros.count < 19 { numbers.append(sign + "0." + zeros + integer) }
            }
        }
        // 17-digit timestamps as `JSON.stringify(performance.now())` writes them, and the page's sums.
        for _ in 0..<3000 {
            let t = g.double(in: 0...1e7)
            numbers.append("\(t)")
            numbers.append("\((t * 1000).rounded() / 1000 + 16.667)")
            numbers.append("\(-t / 7)")
        }
        for number in numbers {
            let significant = number.filter(\.isNumber).count
            expectSameReading(number, taken: significant <= 19 && !number.contains("e"))
        }
    }

    @Test func otherTokensAreLeftToTheGeneralPath() {
        // Exponents, more than 19 digits: valid numbers the general path reads (the shortcut may not).
        for number in ["1e5", "1E5", "-2.5e-8", "1.5e+3", "12345678901234567890", "0.00000000000000000001"] {
            #expect(bothPaths(number).plain == nil, "\(number)")
            #expect(bothPaths(number).general != nil, "\(number)")
        }
        // Malformed: the validator refuses them, and so does the shortcut.
        for text in ["", "-", "+1", "01", "-01", "00", "1.", "1.e5", ".5", "-.5", "1.-5", "- 1", "a", "\"1\""] {
            let (plain, general) = bothPaths(text)
            #expect(plain == nil && general == nil, "\(text)")
        }
        // A number ends at the first non-digit, whatever follows it (bytes near the digits' in value).
        for number in ["0", "7", "12345.5", "-0.25", "123456789"] {
            for tail in ["/", ":", "\u{7F}", "é", "\u{FF}", " ", "x10", "a", "]"] {
                let (plain, general) = bothPaths(number + tail)
                #expect(plain?.end == general?.end && plain?.end == number.utf8.count, "\(number + tail)")
                #expect(plain?.value.bitPattern == general?.value.bitPattern, "\(number + tail)")
            }
        }
    }

    @Test func runsOfDigitsAreReadToTheirEnd() {
        // Every length of run, at several distances from the end of the text, as a value and a count.
        for length in 0...20 {
            for after in 0...9 {
                let run = String((0..<length).map { Character(String(($0 * 7 + 3) % 10)) })
                let text = "x" + run + String(repeating: "-", count: after) + "}"
                let (value, count) = Array(text.utf8).withUnsafeBytes {
                    JSONText($0).digitRun(at: 1, appendingTo: 42)
                }
                #expect(count == length, "\(text)")
                if length <= 17 { #expect(value == UInt64("42" + run), "\(text)") }
            }
        }
    }
}
