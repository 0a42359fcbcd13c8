// Over 400 lines on purpose: the validator and the cursor share the byte-level scanning primitives that the
// hot path inlines; apart, those would have to become internal API.

/// UTF-8 JSON text, read without allocating: a strict validator (pass 1) and cursor helpers that walk text
/// the validator accepted (pass 2). Nothing here recurses; nesting is tracked in a 64-bit stack.
///
/// Reads past the end return the sentinel byte 0, which is never valid where the reader would consume
/// it, so no read ever leaves the buffer, valid input or not.
struct JSONText {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    @inline(__always)
    func byte(_ index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    @inline(__always)
    func skipWhitespace(_ index: Int) -> Int {
        var i = index
        while true {
            switch byte(i) {
            case .space, .tab, .newline, .carriageReturn: i += 1
            default: return i
            }
        }
    }
}

// MARK: - Pass 1: validation

extension JSONText {
    /// What the validator learned about the top-level value.
    struct Outline {
        /// Where the top-level value starts.
        var start: Int
        /// Whether it is an object.
        var isObject: Bool
        /// Where the value of the top-level object's last `"type"` member starts, or -1.
        var typeValue: Int
    }

    /// Checks that the whole text is exactly one JSON value (RFC 8259, UTF-8) nested at most `maxDepth`
    /// deep, and finds the top-level `type`. Stops at the first error.
    func validate(maxDepth: Int) throws(WireError) -> Outline {
        let limit = min(max(maxDepth, 0), 64)
        let start = skipWhitespace(0)
        guard start < count else { throw syntaxError(count == 0 ? "the message is empty" : "no JSON value") }
        var outline = Outline(start: start, isObject: byte(start) == .openBrace, typeValue: -1)
        var i = start
        var depth = 0
        // Bit `d - 1` tells whether the container at depth `d` is an object (1) or an array (0).
        var objects: UInt64 = 0
        var wantValue = true
        while true {
            if wantValue {
                i = skipWhitespace(i)
                switch byte(i) {
                case .openBrace:
                    depth += 1
                    if depth > limit { throw tooDeep(limit) }
                    objects |= 1 &<< UInt64(depth - 1)
                    i = skipWhitespace(i + 1)
                    if byte(i) == .closeBrace {
                        i += 1
                        depth -= 1
                        wantValue = false
                    } else {
                        i = try member(at: i, depth: depth, outline: &outline)
                    }
                case .openBracket:
                    depth += 1
                    if depth > limit { throw tooDeep(limit) }
                    objects &= ~(1 &<< UInt64(depth - 1))
                    i = skipWhitespace(i + 1)
                    if byte(i) == .closeBracket {
                        i += 1
                        depth -= 1
                        wantValue = false
                    }
                case .quote:
                    i = try scanString(at: i).end
                    wantValue = false
                case .t:
                    i = try literal("true", at: i)
                    wantValue = false
                case .f:
                    i = try literal("false", at: i)
                    wantValue = false
                case .n:
                    i = try literal("null", at: i)
                    wantValue = false
                case .minus, .digit0 ... .digit9:
                    i = try scanNumber(at: i)
                    wantValue = false
                default:
                    throw unexpected(at: i, expecting: "a value")
                }
            } else {
                i = skipWhitespace(i)
                if depth == 0 { break }
                let inObject = objects & (1 &<< UInt64(depth - 1)) != 0
                let c = byte(i)
                if c == .comma {
                    i += 1
                    if inObject { i = try member(at: skipWhitespace(i), depth: depth, outline: &outline) }
                    wantValue = true
                } else if c == (inObject ? .closeBrace : .closeBracket) {
                    i += 1
                    depth -= 1
                } else {
                    throw unexpected(at: i, expecting: inObject ? "',' or '}'" : "',' or ']'")
                }
            }
        }
        if i < count { throw unexpected(at: i, expecting: "the end of the message") }
        return outline
    }

    /// Reads `"key" :` at `index` and returns where the member's value starts.
    private func member(at index: Int, depth: Int, outline: inout Outline) throws(WireError) -> Int {
        guard byte(index) == .quote else { throw unexpected(at: index, expecting: "a string key") }
        let key = try scanString(at: index)
        let colon = skipWhitespace(key.end)
        guard byte(colon) == .colon else { throw unexpected(at: colon, expecting: "':'") }
        let value = skipWhitespace(colon + 1)
        if depth == 1 && equals(key.string, "type") { outline.typeValue = value }
        return value
    }

    /// Validates the string starting at `index` (on its opening quote): escapes, surrogate pairs, no raw
    /// control characters, well-formed UTF-8.
    func scanString(at index: Int) throws(WireError) -> (string: StringRef, end: Int) {
        var i = index + 1
        var escaped = false
        while true {
            let c = byte(i)
            if c == .quote {
                return (StringRef(start: index + 1, end: i, escaped: escaped), i + 1)
            } else if c == .backslash {
                escaped = true
                switch byte(i + 1) {
                case .quote, .backslash, .slash, .b, .f, .n, .r, .t:
                    i += 2
                case .u:
                    guard let unit = hex4(at: i + 2) else { throw syntaxError("invalid \\u escape", at: i) }
                    if unit >= 0xD800 && unit < 0xDC00 {
                        guard byte(i + 6) == .backslash, byte(i + 7) == .u, let low = hex4(at: i + 8),
                            low >= 0xDC00 && low < 0xE000
                        else { throw syntaxError("unpaired surrogate in \\u escape", at: i) }
                        i += 12
                    } else if unit >= 0xDC00 && unit < 0xE000 {
                        throw syntaxError("unpaired surrogate in \\u escape", at: i)
                    } else {
                        i += 6
                    }
                default:
                    throw syntaxError("invalid escape in a string", at: i)
                }
            } else if c < 0x20 {
                if i >= count { throw syntaxError("unterminated string", at: index) }
                throw syntaxError("unescaped control character in a string", at: i)
            } else if c < 0x80 {
                i += 1
            } else {
                i = try scanUTF8(at: i)
            }
        }
    }

    /// Validates one multi-byte UTF-8 sequence (Unicode Table 3-7) and returns the index after it.
    private func scanUTF8(at i: Int) throws(WireError) -> Int {
        let lead = byte(i)
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw syntaxError("invalid UTF-8", at: i)
        }
        let second = byte(i + 1)
        guard second >= low && second <= high else { throw syntaxError("invalid UTF-8", at: i) }
        for k in 2..<length {
            let next = byte(i + k)
            guard next >= 0x80 && next <= 0xBF else { throw syntaxError("invalid UTF-8", at: i) }
        }
        return i + length
    }

    /// Validates an RFC 8259 number at `index`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    func scanNumber(at index: Int) throws(WireError) -> Int {
        var i = index
        if byte(i) == .minus { i += 1 }
        let first = byte(i)
        if first == .digit0 {
            i += 1
            if byte(i).isDigit { throw syntaxError("leading zeros are not allowed in a number", at: index) }
        } else if first.isDigit {
            i += 1
            while byte(i).isDigit { i += 1 }
        } else {
            throw syntaxError("invalid number", at: index)
        }
        if byte(i) == .dot {
            i += 1
            guard byte(i).isDigit else { throw syntaxError("invalid number", at: index) }
            while byte(i).isDigit { i += 1 }
        }
        if byte(i) == .e || byte(i) == .capitalE {
            i += 1
            if byte(i) == .plus || byte(i) == .minus { i += 1 }
            guard byte(i).isDigit else { throw syntaxError("invalid number", at: index) }
            while byte(i).isDigit { i += 1 }
        }
        return i
    }

    private func literal(_ word: StaticString, at index: Int) throws(WireError) -> Int {
        let n = word.utf8CodeUnitCount
        guard index + n <= count, memoryEquals(index, word.utf8Start, n) else {
            throw syntaxError("invalid literal", at: index)
        }
        return index + n
    }

    /// The value of four hex digits at `index`, or nil.
    func hex4(at index: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = byte(index + k)
            let digit: UInt8
            switch c {
            case .digit0 ... .digit9: digit = c &- .digit0
            case 0x61...0x66: digit = c &- 0x61 &+ 10
            case 0x41...0x46: digit = c &- 0x41 &+ 10
            default: return nil
            }
            value = value &<< 4 | UInt32(digit)
        }
        return value
    }

    private func syntaxError(_ what: String, at index: Int? = nil) -> WireError {
        if let index {
            return WireError(code: .badJSON, message: "not JSON: \(what) at byte \(index)")
        }
        return WireError(code: .badJSON, message: "not JSON: \(what)")
    }

    private func unexpected(at index: Int, expecting: String) -> WireError {
        if index >= count { return syntaxError("unexpected end of text, expecting \(expecting)") }
        return syntaxError("unexpected character, expecting \(expecting)", at: index)
    }

    private func tooDeep(_ limit: Int) -> WireError {
        WireError(code: .badJSON, message: "not JSON: nested too deeply (more than \(limit) levels)")
    }
}

// MARK: - Pass 2: walking validated text

/// A string in the text: the bytes between its quotes, and whether any is an escape.
struct StringRef {
    var start: Int
    var end: Int
    var escaped: Bool
}

/// The kind of value starting at an index of validated text.
enum ValueKind {
    case object, array, string, number, bool, null
}

extension JSONText {
    func kind(at index: Int) -> ValueKind {
        switch byte(index) {
        case .openBrace: .object
        case .openBracket: .array
        case .quote: .string
        case .t, .f: .bool
        case .n: .null
        default: .number
        }
    }

    /// The string starting at `index` (on its opening quote) of validated text.
    func string(at index: Int) -> StringRef {
        var i = index + 1
        var escaped = false
        while true {
            let c = byte(i)
            if c == .quote || i >= count { return StringRef(start: index + 1, end: i, escaped: escaped) }
            if c == .backslash {
                escaped = true
                i += 2
            } else {
                i += 1
            }
        }
    }

    /// The index just after the value starting at `index` of validated text.
    func valueEnd(_ index: Int) -> Int {
        switch byte(index) {
        case .quote:
            return string(at: index).end + 1
        case .t, .n:
            return index + 4
        case .f:
            return index + 5
        case .openBrace, .openBracket:
            var depth = 0
            var i = index
            while i < count {
                switch byte(i) {
                case .openBrace, .openBracket: depth += 1
                case .closeBrace, .closeBracket:
                    depth -= 1
                    if depth == 0 { return i + 1 }
                case .quote:
                    i = string(at: i).end
                default: break
                }
                i += 1
            }
            return i
        default:
            var i = index
            while true {
                switch byte(i) {
                case .minus, .plus, .dot, .e, .capitalE, .digit0 ... .digit9: i += 1
                default: return i
                }
            }
        }
    }

    /// Calls `body` with each member of the object starting at `index` of validated text, in order.
    @inline(__always)
    func forEachMember(ofObjectAt index: Int, _ body: (_ key: StringRef, _ value: Int) throws(WireError) -> Void)
        throws(WireError)
    {
        var i = skipWhitespace(index + 1)
        guard byte(i) == .quote else { return }
        while i < count {
            let key = string(at: i)
            let value = skipWhitespace(skipWhitespace(key.end + 1) + 1)
            try body(key, value)
            i = skipWhitespace(valueEnd(value))
            guard byte(i) == .comma else { return }
            i = skipWhitespace(i + 1)
        }
    }

    /// Calls `body` with each element of the array starting at `index` of validated text, in order.
    func forEachElement(ofArrayAt index: Int, _ body: (_ value: Int) throws(WireError) -> Void) throws(WireError) {
        var i = skipWhitespace(index + 1)
        guard byte(i) != .closeBracket else { return }
        while i < count {
            try body(i)
            i = skipWhitespace(valueEnd(i))
            guard byte(i) == .comma else { return }
            i = skipWhitespace(i + 1)
        }
    }

    /// Whether the `n` bytes at `index` are those at `other`. Eight at a time: a touch message is mostly
    /// literal keys, and a byte loop over them was much of reading one. What is left after
    /// the eight-byte words, and a literal shorter than eight bytes, is compared as two overlapping words
    /// (`,"dy":` as bytes 0–3 and 2–5), not a comparison a byte (docs/PERFORMANCE.md, "The touch decode").
    @inline(__always)
    func memoryEquals(_ index: Int, _ other: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        // (`count &- index`, not `index + n`: the same test without an overflow check on every key of a touch.)
        guard let base = bytes.baseAddress, n <= count &- index else { return n == 0 }
        let text = base + index
        let literal = UnsafeRawPointer(other)
        @inline(__always)
        func equal<Word: FixedWidthInteger>(_ offset: Int, _: Word.Type) -> Bool {
            text.loadUnaligned(fromByteOffset: offset, as: Word.self)
                == literal.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        if n >= 8 {
            var k = 0
            while k + 8 <= n {
                guard equal(k, UInt64.self) else { return false }
                k += 8
            }
            return k == n || equal(n - 8, UInt64.self)
        }
        if n >= 4 { return equal(0, UInt32.self) && equal(n - 4, UInt32.self) }
        if n >= 2 { return equal(0, UInt16.self) && equal(n - 2, UInt16.self) }
        return n == 0 || equal(0, UInt8.self)
    }

    /// Whether `string` (escapes decoded) is exactly `literal`.
    @inline(__always)
    func equals(_ string: StringRef, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        if !string.escaped {
            return string.end - string.start == n && memoryEquals(string.start, literal.utf8Start, n)
        }
        return equals(string, UnsafeBufferPointer(start: literal.utf8Start, count: n))
    }

    /// Whether `string` (escapes decoded) is exactly the UTF-8 `other`.
    func equals(_ string: StringRef, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        if !string.escaped {
            guard string.end - string.start == other.count, let base = other.baseAddress else {
                return string.end == string.start && other.isEmpty
            }
            return memoryEquals(string.start, base, other.count)
        }
        var decoded = UnescapedBytes(text: self, string: string)
        var k = 0
        while let b = decoded.next() {
            guard k < other.count, other[k] == b else { return false }
            k += 1
        }
        return k == other.count
    }

    /// Whether `string` (escapes decoded) equals `other`. (Not an overload of the `StaticString` one:
    /// a literal argument would pick this slower one.)
    func equals(_ string: StringRef, string other: String) -> Bool {
        var other = other
        return other.withUTF8 { equals(string, $0) }
    }

    /// The length of `string` in UTF-8 bytes, escapes decoded.
    func decodedLength(_ string: StringRef) -> Int {
        if !string.escaped { return string.end - string.start }
        var decoded = UnescapedBytes(text: self, string: string)
        var n = 0
        while decoded.next() != nil { n += 1 }
        return n
    }

    /// `string` as a Swift `String`, escapes decoded.
    func makeString(_ string: StringRef) -> String {
        if !string.escaped {
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[string.start..<string.end]), as: UTF8.self)
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(string.end - string.start)
        var decoded = UnescapedBytes(text: self, string: string)
        while let b = decoded.next() { utf8.append(b) }
        return String(decoding: utf8, as: UTF8.self)
    }
}

/// The UTF-8 bytes of a validated string with its escapes decoded.
struct UnescapedBytes: IteratorProtocol {
    let text: JSONText
    var index: Int
    let end: Int
    /// Bytes of a decoded `\u` escape still to deliver, lowest first.
    var pending: UInt32 = 0
    var pendingCount = 0

    init(text: JSONText, string: StringRef) {
        self.text = text
        self.index = string.start
        self.end = string.end
    }

    mutating func next() -> UInt8? {
        if pendingCount > 0 {
            let b = UInt8(truncatingIfNeeded: pending)
            pending >>= 8
            pendingCount -= 1
            return b
        }
        guard index < end else { return nil }
        let c = text.byte(index)
        guard c == .backslash else {
            index += 1
            return c
        }
        let e = text.byte(index + 1)
        index += 2
        switch e {
        case .b: return 0x08
        case .f: return 0x0C
        case .n: return 0x0A
        case .r: return 0x0D
        case .t: return 0x09
        case .u: break
        default: return e  // \" \\ \/
        }
        var scalar = text.hex4(at: index) ?? 0xFFFD
        index += 4
        if scalar >= 0xD800 && scalar < 0xDC00 {
            let low = text.hex4(at: index + 2) ?? 0xDC00
            index += 6
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00)
        }
        let value = (Unicode.Scalar(scalar) ?? "\u{FFFD}").value
        if value < 0x80 { return UInt8(value) }
        let continuation = { (shift: UInt32) -> UInt32 in 0x80 | (value >> shift) & 0x3F }
        if value < 0x800 {
            pending = continuation(0)
            pendingCount = 1
            return UInt8(0xC0 | value >> 6)
        }
        if value < 0x10000 {
            pending = continuation(6) | continuation(0) << 8
            pendingCount = 2
            return UInt8(0xE0 | value >> 12)
        }
        pending = continuation(12) | continuation(6) << 8 | continuation(0) << 16
        pendingCount = 3
        return UInt8(0xF0 | value >> 18)
    }
}

// MARK: - Numbers

extension JSONText {
    /// The number at `index` of validated text, or nil when the value there is not a number. Correctly
    /// rounded: up to 19 significant digits with a decimal exponent within ±22 are converted exactly
    /// without allocating (``exactValue(mantissa:exponent:)``); anything else goes through the standard
    /// library's parser.
    func number(at index: Int) -> Double? {
        var i = index
        var negative = false
        if byte(i) == .minus {
            negative = true
            i += 1
        }
        guard byte(i).isDigit else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var exact = true
        while byte(i).isDigit {
            let d = UInt64(byte(i) &- .digit0)
            if digits < 19 {
                if mantissa != 0 || d != 0 {
                    mantissa = mantissa &* 10 &+ d
                    digits += 1
                }
            } else {
                exact = false
            }
            i += 1
        }
        if byte(i) == .dot {
            i += 1
            while byte(i).isDigit {
                let d = UInt64(byte(i) &- .digit0)
                if digits < 19 {
                    if mantissa != 0 || d != 0 {
                        mantissa = mantissa &* 10 &+ d
                        digits += 1
                    }
                    exponent -= 1
                } else {
                    exact = false
                }
                i += 1
            }
        }
        if byte(i) == .e || byte(i) == .capitalE {
            i += 1
            var negativeExponent = false
            if byte(i) == .minus {
                negativeExponent = true
                i += 1
            } else if byte(i) == .plus {
                i += 1
            }
            var e = 0
            while byte(i).isDigit {
                if e < 100_000 { e = e * 10 + Int(byte(i) &- .digit0) }
                i += 1
            }
            exponent += negativeExponent ? -e : e
        }
        if exact, let value = exactValue(mantissa: mantissa, exponent: exponent) {
            return negative ? -value : value
        }
        if mantissa == 0 && exact { return negative ? -0.0 : 0 }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<i]), as: UTF8.self)
        return Double(text) ?? .nan
    }
}

extension JSONText {
    /// The page's usual number at `index`, `-?(0|[1-9][0-9]*)(.[0-9]+)?` with at most 19 digits, validated
    /// and read in one pass, and where it ends; nil for anything else (an exponent, more digits, a malformed
    /// token), which ``scanNumber(at:)`` and ``number(at:)`` then judge and read. Those make two passes,
    /// two thirds of decoding a touch; for these tokens they make the same mantissa (< 10¹⁹, so no
    /// overflow here) and exponent (≥ −19), so ``exactValue(mantissa:exponent:)`` gives the same value.
    ///
    /// The two common cases are converted here rather than in a call: an integer up to 2⁵³ (`dx`, `dy`, `id`)
    /// is exact as it is, and Clinger's fast path (a `t` of up to 16 digits) is one division.
    ///
    /// - Precondition: `index` is inside the text, whose last byte is `}` (a touch's end; no number ends a
    ///   text then, nor does a `-` or `.` that a digit must follow), so that every byte read here is inside
    ///   it: they are read without bounds checks (`bytes[_:]`, not `byte(_:)`), which also keeps
    ///   `PlainReader.number` small enough to be inlined (see there).
    @inline(__always)
    func plainDecimal(at index: Int) -> (value: Double, end: Int)? {
        var i = index
        let negative = bytes[i] == .minus
        if negative { i &+= 1 }
        var (mantissa, digits) = digitRun(at: i, appendingTo: 0)
        // No digit, or a leading zero followed by more ("01"): not this grammar.
        guard digits == 1 || (digits > 1 && bytes[i] != .digit0) else { return nil }
        i &+= digits
        var exponent = 0
        if bytes[i] == .dot {
            let fraction = digitRun(at: i &+ 1, appendingTo: mantissa)
            guard fraction.count > 0 else { return nil }
            mantissa = fraction.value
            digits &+= fraction.count
            exponent = -fraction.count
            i &+= 1 &+ fraction.count
        }
        guard digits <= 19, bytes[i] != .e, bytes[i] != .capitalE else { return nil }
        let value: Double
        if mantissa <= 1 << 53 {
            // Exact, or one correctly rounded division of exact values (Clinger; the exponent is ≥ −18 with
            // 19 digits at most, within his bound of 22): what `exactValue` does.
            value = exponent == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[-exponent]
        } else {
            guard let exact = exactValue(mantissa: mantissa, exponent: exponent) else { return nil }
            value = exact
        }
        return (negative ? -value : value, i)
    }

    /// The run of ASCII digits at `index`: how many there are, and `value` with them appended as decimal
    /// digits (`value · 10ⁿ + digits`, wrapping past 2⁶⁴: a caller that allows at most 19 digits in all
    /// checks `count` first).
    ///
    /// - Precondition: `index` is inside the text, whose last byte is not a digit (a touch's `}`), so that
    ///   the run ends inside it: the loop reads without a bounds check, one test and two `lea` a digit
    ///   (docs/PERFORMANCE.md, "The touch decode").
    @inline(__always)
    func digitRun(at index: Int, appendingTo value: UInt64) -> (value: UInt64, count: Int) {
        assert(index >= 0 && index < count && !bytes[count - 1].isDigit, "a run of digits must end in the text")
        var value = value
        var i = index
        while case let digit = bytes[i] &- .digit0, digit < 10 {
            value = value &* 10 &+ UInt64(digit)
            i &+= 1
        }
        return (value, i &- index)
    }
}

/// `mantissa · 10^exponent` correctly rounded, without allocating, when that is cheap: Clinger's fast path
/// (mantissa ≤ 2⁵³, |exponent| ≤ 22), else 128-bit integer arithmetic for the 17–19-digit mantissas that
/// JavaScript's `JSON.stringify` writes for values such as `performance.now()` (`1108.3000000000002`).
/// nil when neither applies.
///
/// Out of line, as it was in `number(at:)` already: inlined in `PlainReader.number` (as `@inline(__always)`
/// had it once `plainDecimal` got smaller), it made that too large to be inlined in a touch's four reads.
@inline(never)
func exactValue(mantissa: UInt64, exponent: Int) -> Double? {
    guard exponent >= -22 && exponent <= 22 else { return nil }
    if mantissa <= 1 << 53 {
        let m = Double(mantissa)
        return exponent >= 0 ? m * powersOfTen[exponent] : m / powersOfTen[-exponent]
    }
    if exponent >= 0 {
        // m < 2⁶⁴ and 10¹⁹ < 2⁶⁴: the product is an exact 128-bit integer, rounded once by the conversion.
        guard exponent <= 19 else { return nil }
        return Double(UInt128(mantissa) * UInt128(UInt64(powersOfTen[exponent])))
    }
    let k = -exponent
    if k <= 19 {
        // Long division of m·2¹²⁸ by d = 10^k, one machine word at a time: a quotient of ≥ 117 bits whose
        // leading 64 go to the conversion, with every bit below them (and the remainder) folded into the
        // last one, far below the rounding position; so the one rounding of the conversion is the correct
        // one, and the scaling by a power of two is exact.
        let d = integerPowersOfTen[k]
        let (high, r2) = mantissa.quotientAndRemainder(dividingBy: d)
        let (middle, r1) = d.dividingFullWidth((r2, 0))
        let top: UInt64
        let next: UInt64
        let rest: UInt64
        if high != 0 {
            // Only whether the words below `middle` are zero counts then: they are exactly when r1 is (a third
            // division, a call to `__udivti3`, saved for every value ≥ 1).
            (top, next, rest) = (high, middle, r1)
        } else {
            let (low, r0) = d.dividingFullWidth((r1, 0))
            (top, next, rest) = (middle, low, r0)
        }
        let shift = top.leadingZeroBitCount
        let window = shift == 0 ? top : top << shift | next >> (64 - shift)
        let sticky: UInt64 = (shift == 0 ? next : next << shift) | rest == 0 ? 0 : 1
        return Double(window | sticky) * powerOfTwo((high != 0 ? 0 : -64) - shift)
    }
    // 10^20, 10^21 do not fit a word: the same idea on 128 bits, m·2^s (top bit 127) divided by 10^k,
    // leaving a quotient of ≥ 56 bits.
    guard k <= 21 else { return nil }
    var divisor: UInt128 = 1
    for _ in 0..<k { divisor &*= 10 }
    let shift = mantissa.leadingZeroBitCount + 64
    let (quotient, remainder) = (UInt128(mantissa) << shift).quotientAndRemainder(dividingBy: divisor)
    return Double(quotient | (remainder == 0 ? 0 : 1)) * powerOfTwo(-shift)
}

/// 2^`exponent`, for an exponent of a normal double (−1022…1023): what scales the quotients above, exactly
/// (their values are far from the subnormal range). Made from its bits: `Double(sign:exponent:significand:)`
/// is a call on a touch's path (docs/PERFORMANCE.md, "The touch decode").
@inline(__always)
func powerOfTwo(_ exponent: Int) -> Double {
    Double(bitPattern: UInt64(1023 + exponent) &<< 52)  // the biased exponent above a zero significand
}

/// 10⁰ … 10¹⁹, the divisors of the long division above (converted from `powersOfTen` there, each cost a
/// checked conversion).
private let integerPowersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
    100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
]

/// 10⁰ … 10²², all exact in a `Double`.
let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    1e19, 1e20, 1e21, 1e22,
]

// MARK: - Bytes

extension UInt8 {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let digit0: UInt8 = 0x30
    static let digit9: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let capitalE: UInt8 = 0x45
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let b: UInt8 = 0x62
    static let e: UInt8 = 0x65
    static let f: UInt8 = 0x66
    static let n: UInt8 = 0x6E
    static let r: UInt8 = 0x72
    static let t: UInt8 = 0x74
    static let u: UInt8 = 0x75
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D

    var isDigit: Bool { self &- .digit0 < 10 }
}
