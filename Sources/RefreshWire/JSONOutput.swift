import RefreshKit

/// Appends up to `bound` bytes written by `body` to `buffer`: the bytes are written through a raw pointer
/// (no uniqueness or capacity check per token), and the unused part of the reservation is dropped. If
/// `body` needed more than `bound` after all, the attempt is discarded and made again with more room, so a
/// low estimate costs time, never correctness.
@inline(__always)
func appendJSON(to buffer: inout [UInt8], bound: Int, _ body: (inout JSONWriter) -> Void) {
    let start = buffer.count
    var room = Swift.max(bound, 64)
    while true {
        appendZeros(room, to: &buffer)
        let written: Int? = buffer.withUnsafeMutableBufferPointer { all in
            var writer = JSONWriter(start: all.baseAddress! + start, capacity: room)
            body(&writer)
            return writer.overflowed ? nil : writer.count
        }
        if let written {
            buffer.removeSubrange((start + written)...)
            return
        }
        buffer.removeSubrange(start...)
        room *= 2
    }
}

/// Zeros to grow a buffer by, copied in one go: appending `repeatElement(0, count:)` goes element by
/// element, which cost more than writing a whole frame's numbers.
private let zeros = [UInt8](repeating: 0, count: 4096)

@inline(__always)
private func appendZeros(_ count: Int, to buffer: inout [UInt8]) {
    var left = count
    while left > 0 {
        let chunk = Swift.min(left, zeros.count)
        buffer.append(contentsOf: zeros[..<chunk])
        left -= chunk
    }
}

/// Writes JSON tokens into a fixed piece of memory. A write that does not fit sets ``overflowed`` and
/// writes nothing; nothing is ever written outside the memory.
struct JSONWriter {
    private let start: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    private var next: UnsafeMutablePointer<UInt8>
    /// The end of the memory; brought back to `next` by an overflow, so that no later write fits either.
    private var end: UnsafeMutablePointer<UInt8>
    private(set) var overflowed = false

    init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        next = start
        end = start + capacity
    }

    /// The bytes written so far.
    var count: Int { next - start }

    /// The place for the next `n` bytes, or nil (and ``overflowed``) when they do not fit. One comparison:
    /// every token goes through here.
    @inline(__always)
    private mutating func claim(_ n: Int) -> UnsafeMutablePointer<UInt8>? {
        guard n <= end - next else {
            overflowed = true
            end = next
            return nil
        }
        defer { next += n }
        return next
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        claim(1)?.pointee = value
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress, let target = claim(source.count) else { return }
        target.update(from: base, count: source.count)
    }

    /// Writes ASCII that needs no escaping: punctuation, keys, enum raw values.
    @inline(__always)
    mutating func literal(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `"text"` for a string known to need no escaping (an enum's raw value).
    @inline(__always)
    mutating func plainString(_ text: String) {
        var text = text
        byte(.quote)
        text.withUTF8 { bytes($0) }
        byte(.quote)
    }

    /// Writes `text` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`;
    /// everything else as its UTF-8 (a `String` is always valid Unicode).
    mutating func string(_ text: String) {
        var text = text
        byte(.quote)
        text.withUTF8 { utf8 in
            var run = 0  // start of the bytes not yet written
            for (i, c) in utf8.enumerated() where c < 0x20 || c == .quote || c == .backslash {
                bytes(UnsafeBufferPointer(rebasing: utf8[run..<i]))
                run = i + 1
                byte(.backslash)
                switch c {
                case .quote, .backslash: byte(c)
                case 0x08: byte(.b)
                case 0x0C: byte(.f)
                case 0x0A: byte(.n)
                case 0x0D: byte(.r)
                case 0x09: byte(.t)
                default:
                    literal("u00")
                    byte(hexDigit(c >> 4))
                    byte(hexDigit(c & 0xF))
                }
            }
            bytes(UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        byte(.quote)
    }

    /// Writes the decimal digits of `value`, zero-padded on the left to `width` (at most 20).
    @inline(__always)
    mutating func digits(_ value: UInt64, width: Int = 1) {
        let count = Swift.max(Self.decimalLength(value), width)
        guard let target = claim(count) else { return }
        Self.write(value, digits: count, to: target)
    }

    /// The number of decimal digits of `value` (1 for 0).
    @inline(__always)
    private static func decimalLength(_ value: UInt64) -> Int {
        var length = 1
        var rest = value
        while rest >= 100 {
            rest /= 100
            length += 2
        }
        return rest >= 10 ? length + 1 : length
    }

    /// Writes the last `count` decimal digits of `value` (zero-padded) to `target`, two at a time from a
    /// table of the hundred pairs: half the divisions of a digit-by-digit loop.
    @inline(__always)
    private static func write(_ value: UInt64, digits count: Int, to target: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        var rest = value
        var end = count
        while end >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            end -= 2
            target[end] = pairs[pair]
            target[end + 1] = pairs[pair + 1]
        }
        if end == 1 { target[0] = .digit0 &+ UInt8(truncatingIfNeeded: rest % 10) }
    }

    /// "00", "01", … "99" (a literal: its bytes are a constant in the binary).
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// 10^`decimals` (`decimals` ≤ 22), exact; a constant where `decimals` is one.
    @inline(__always)
    private static func powerOfTen(_ decimals: Int) -> Double {
        switch decimals {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        default: powersOfTen[decimals]
        }
    }

    /// Writes an integer.
    @inline(__always)
    mutating func integer(_ value: Int64) {
        if value < 0 { byte(.minus) }
        digits(value.magnitude)
    }

    /// Writes `scaled / 10^decimals` in fixed notation with trailing zeros (and a bare `.`) trimmed:
    /// `-12345, 3` → `-12.345`, `1500, 3` → `1.5`, `2000, 3` → `2`, `0, 3` → `0`.
    @inline(__always)
    mutating func scaled(_ scaled: Int64, decimals: Int) {
        let unit = UInt64(Self.powerOfTen(decimals))
        let magnitude = scaled.magnitude
        if scaled < 0 { byte(.minus) }
        digits(magnitude / unit)
        var fraction = magnitude % unit
        guard fraction != 0 else { return }
        var width = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        byte(.dot)
        digits(fraction, width: width)
    }

    /// Writes `value` rounded to `decimals` (0…9) decimal places: `0.1 + 0.2` → `0.3`, `2.0` → `2`,
    /// `-0.0001` → `0`. Non-finite values are written as `0`; magnitudes beyond 9·10¹⁵ / 10^decimals, as
    /// ``exact(_:)`` writes them.
    mutating func fixed(_ value: Double, decimals: Int) {
        // The encoder's two precisions get their own copy of the body, where 10^decimals is a constant (the
        // divisions by it become multiplications).
        switch decimals {
        case 3: fixed(value, constantDecimals: 3)
        case 6: fixed(value, constantDecimals: 6)
        default: fixed(value, constantDecimals: decimals)
        }
    }

    /// ``fixed(_:decimals:)``'s body. The rounding is `rounded()`'s (to nearest, ties away from zero), done
    /// on the integer part instead of through libm: `x − Int64(x)` is exact (it is the fraction of a
    /// double), so comparing it with ½ picks the same integer, bit for bit.
    @inline(__always)
    private mutating func fixed(_ value: Double, constantDecimals decimals: Int) {
        let x = value * Self.powerOfTen(decimals)
        // Beyond 2⁵² every double is an integer, so this is the same test as on the rounded value; false for
        // NaN and infinities.
        guard abs(x) < 9e15 else {
            exact(value)
            return
        }
        var integer = Int64(x)  // toward zero
        let fraction = x - Double(integer)
        if fraction >= 0.5 {
            integer += 1
        } else if fraction <= -0.5 {
            integer -= 1
        }
        scaled(integer, decimals: decimals)
    }

    /// Writes `value` so that a correct JSON parser reads back exactly the same `Double`: the fewest
    /// decimals (up to 9) that round-trip, else the standard library's shortest representation (which may
    /// have an exponent). Non-finite values are written as `0`.
    mutating func exact(_ value: Double) {
        guard value.isFinite else {
            byte(.digit0)
            return
        }
        for decimals in 0...9 {
            let scale = powersOfTen[decimals]
            let rounded = (value * scale).rounded()
            guard abs(rounded) < 9e15 else { break }
            // Both are exact and the division is correctly rounded, so this is what a parser reads back.
            if rounded / scale == value {
                scaled(rounded == 0 ? 0 : Int64(rounded), decimals: decimals)
                return
            }
        }
        var text = value.description  // "1e+20", "1.2345678912e-05", "9007199254740992.0"
        text.withUTF8 { utf8 in
            let integral = utf8.count > 2 && utf8[utf8.count - 2] == .dot && utf8[utf8.count - 1] == .digit0
            bytes(integral ? UnsafeBufferPointer(rebasing: utf8.dropLast(2)) : utf8)
        }
    }

    /// Writes a timestamp in milliseconds, exact to the microsecond: `81234500µs` → `81234.5`.
    @inline(__always)
    mutating func milliseconds(_ time: Timestamp) {
        scaled(time.microseconds, decimals: 3)
    }

    @inline(__always)
    mutating func bool(_ value: Bool) {
        if value { literal("true") } else { literal("false") }
    }
}

@inline(__always)
private func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? .digit0 &+ nibble : 0x61 &+ nibble &- 10
}
