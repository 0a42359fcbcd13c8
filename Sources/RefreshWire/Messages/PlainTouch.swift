import RefreshKit

/// The page's own spelling of a touch, read in one pass.
///
/// A page sends a touch message for every pointer sample, up to 120 a second, and always spells it the same
/// way (`JSON.stringify` of an object literal): `{"type":"touch","phase":P,"dx":N,"dy":N,"t":N,"id":N,"seq":N}`,
/// no whitespace, no escapes, members in that order, `id` and `seq` optional. Such a message is validated and read here
/// in one pass, without the general decoder's outline and member walks (docs/PERFORMANCE.md, "The touch
/// decode"). Anything else — another spelling, an extra member, a value the general path would refuse —
/// returns nil, and the general decoder reads the message: it alone reports errors, so the two paths
/// cannot disagree on what a client is told. `PlainTouchTests` checks that they agree on every input.
extension MessageDecoder {
    /// The touch in `text`, and its `seq`, when it is spelled exactly as the page spells it and its values are
    /// in range; nil otherwise (not an error: the general path then decides). Inlined in ``plainTouchInput(_:)``,
    /// the host's call (docs/PERFORMANCE.md, "Inlining on an input's path").
    @inline(__always)
    func plainTouch(_ text: UnsafeRawBufferPointer) -> (TouchInput, seq: UInt64?)? {
        guard limits.maxDepth >= 1 else { return nil }  // the general path refuses any object then
        let json = JSONText(text)
        // First, the last byte: every number is then followed by a byte of the text (what `PlainReader`'s
        // reading of digits without bounds checks relies on).
        guard json.count > 0, json.bytes[json.count - 1] == .closeBrace else { return nil }
        var reader = PlainReader(json: json)
        guard reader.expect(#"{"type":"touch","phase":""#) else { return nil }
        let phase: TouchPhase
        if reader.expect(#"move","dx":"#) {
            phase = .move
        } else if reader.expect(#"start","dx":"#) {
            phase = .start
        } else if reader.expect(#"end","dx":"#) {
            phase = .end
        } else if reader.expect(#"cancel","dx":"#) {
            phase = .cancel
        } else {
            return nil
        }
        guard let dx = reader.number(), reader.expect(#","dy":"#), let dy = reader.number(),
            reader.expect(#","t":"#), let t = reader.number()
        else { return nil }
        var pointer = 0
        if reader.expect(#","id":"#) {
            // An integral number up to 2⁵³ in magnitude, as the general path's `integer` accepts: as the page
            // writes its ids, plain digits (read as an integer, cheaper than as a number), else any number whose
            // value is one. (Integral: the same after a round trip through `Int`, which truncates;
            // `rounded(.towardZero)` is a call to libm's `trunc` on baseline x86-64. docs/PERFORMANCE.md, "The
            // touch decode".)
            if let id = reader.digits() {
                guard id <= 9_007_199_254_740_992 else { return nil }  // the general path decides (it rounds)
                pointer = Int(id)
            } else {
                guard let id = reader.number(), abs(id) <= 9_007_199_254_740_992, case let integer = Int(id),
                    Double(integer) == id
                else { return nil }
                pointer = integer
            }
        }
        var seq: UInt64?
        if reader.expect(#","seq":"#) {
            // Digits in 0…2⁵³, as `JSON.stringify` writes the page's counter; any other spelling of an integer
            // the general path's `sequenceNumber` accepts (`5.0`, `4e1`) falls back to it.
            guard let value = reader.digits(), value <= 9_007_199_254_740_992 else { return nil }
            seq = value
        }
        // The closing brace: the text's last byte, checked first.
        guard reader.index == json.count - 1 else { return nil }
        guard abs(dx) <= limits.maxDelta, abs(dy) <= limits.maxDelta, abs(t) <= limits.maxTime else { return nil }
        return (TouchInput(phase: phase, delta: Point(x: dx, y: dy), pageTime: t, pointer: pointer), seq)
    }
}

/// A cursor over text that must match exactly, and that ends with `}` (checked before one is made).
private struct PlainReader {
    let json: JSONText
    var index = 0

    /// Consumes `literal` when the text continues with it. (Inlined, so that each literal's length and bytes
    /// are constants where it is compared, not loaded and looped over: docs/PERFORMANCE.md, "The touch
    /// decode".)
    @inline(__always)
    mutating func expect(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard json.memoryEquals(index, literal.utf8Start, n) else { return false }
        index &+= n
        return true
    }

    /// Consumes an integer written as plain digits (RFC 8259's grammar: no leading zero), of at most 16
    /// digits; nil, consuming nothing, for anything else (a sign, a fraction, an exponent, more digits).
    @inline(__always)
    mutating func digits() -> UInt64? {
        let (value, count) = json.digitRun(at: index, appendingTo: 0)
        // (Read inside the text, which ends with `}`: no bounds tests.)
        guard count >= 1, count <= 16, count == 1 || json.bytes[index] != .digit0 else { return nil }
        let end = index &+ count
        switch json.bytes[end] {
        case .dot, .e, .capitalE: return nil
        default: break
        }
        index = end
        return value
    }

    /// Consumes a number token (RFC 8259's grammar, checked like the validator does) and returns its finite
    /// value, read exactly like the general path reads it.
    ///
    /// Inlined in each of a touch's four reads (docs/PERFORMANCE.md, "Inlining on an input's path").
    /// The compiler inlines an `@inline(__always)` function into a large one only while it has at most 64
    /// SIL blocks: so what is rare stays out of line, any other spelling (``otherNumber()``) and the 17–19
    /// digit mantissas (``exactValue(mantissa:exponent:)``), and `plainDecimal` reads without bounds tests.
    @inline(__always)
    mutating func number() -> Double? {
        if let (value, end) = json.plainDecimal(at: index) {
            index = end
            return value
        }
        return otherNumber()
    }

    /// ``number()`` for a token ``JSONText/plainDecimal(at:)`` leaves to the general path's reading.
    @inline(never)
    mutating func otherNumber() -> Double? {
        guard let end = try? json.scanNumber(at: index), let value = json.number(at: index), value.isFinite else {
            return nil
        }
        index = end
        return value
    }
}
