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
        buffer.append(contentsOf: repeatElement(0, count: room))
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

/// Writes JSON tokens into a fixed piece of memory. A write that does not fit sets ``overflowed`` and
/// writes nothing; nothing is ever written outside the memory.
struct JSONWriter {
    private let start: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0
    private(set) var overflowed = false

    init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }

    /// The place for the next `n` bytes, or nil (and ``overflowed``) when they do not fit.
    @inline(__always)
    private mutating func claim(_ n: Int) -> UnsafeMutablePointer<UInt8>? {
        guard !overflowed, n <= capacity - count else {
            overflowed = true
            return nil
        }
        defer { count += n }
        return start + count
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
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        count = Swift.max(count, width)
        guard let target = claim(count) else { return }
        rest = value
        var i = count - 1
        while i >= 0 {
            target[i] = .digit0 &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            i -= 1
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
        let unit = UInt64(powersOfTen[decimals])
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
    @inline(__always)
    mutating func fixed(_ value: Double, decimals: Int) {
        let rounded = (value * powersOfTen[decimals]).rounded()
        guard abs(rounded) < 9e15 else {  // also false for NaN
            exact(value)
            return
        }
        scaled(rounded == 0 ? 0 : Int64(rounded), decimals: decimals)
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
