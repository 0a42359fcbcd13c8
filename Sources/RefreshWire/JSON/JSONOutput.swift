// Over 400 lines on purpose: the raw-pointer reservation and every token written through it (strings, the
// shortest round-trip numbers) share one unchecked discipline, kept in one file so it can be read whole.
import RefreshKit

/// Appends up to `bound` bytes written by `body` to `buffer`: the bytes are written through a raw pointer
/// (no uniqueness or capacity check per token), and the unused part of the reservation is dropped. If
/// `body` needed more than `bound` after all, the attempt is discarded and made again with more room, so a
/// low estimate costs time, never correctness.
///
/// Up to ``smallJSONBound`` bytes are written on the stack and appended in one copy: growing the buffer
/// by the bound in zeros and cutting it back cost more than writing a small message.
@inline(__always)
func appendJSON(to buffer: inout [UInt8], bound: Int, _ body: (inout JSONWriter) -> Void) {
    if bound <= smallJSONBound {
        let appended = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: smallJSONBound) { scratch in
            var writer = JSONWriter(start: scratch.baseAddress!, capacity: smallJSONBound)
            body(&writer)
            guard !writer.overflowed else { return false }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<writer.count]))
            return true
        }
        if appended { return }
    }
    let start = buffer.count
    var room = Swift.max(bound, 64)
    while true {
        appendZeros(room, to: &buffer)
        if let written = writeJSON(into: &buffer, at: start, room: room, body) {
            buffer.removeSubrange((start + written)...)
            return
        }
        buffer.removeSubrange(start...)
        room *= 2
    }
}

/// Writes with `body` into the `room` bytes of `storage` at `start` (they must exist). - Returns: how many
/// bytes it wrote, or nil when they did not fit (then what is there is garbage).
@inline(__always)
func writeJSON(into storage: inout [UInt8], at start: Int, room: Int, _ body: (inout JSONWriter) -> Void) -> Int? {
    storage.withUnsafeMutableBufferPointer { all in
        precondition(start >= 0 && room >= 0 && start + room <= all.count, "the room lies inside the storage")
        var writer = JSONWriter(start: all.baseAddress! + start, capacity: room)
        body(&writer)
        return writer.overflowed ? nil : writer.count
    }
}

/// The largest message ``appendJSON(to:bound:_:)`` writes on the stack first (a delta, an event).
let smallJSONBound = 1024

/// Zeros to grow a buffer by, copied in one go: appending `repeatElement(0, count:)` goes element by
/// element, which cost more than writing a whole frame's numbers.
private let zeros = [UInt8](repeating: 0, count: 4096)

@inline(__always)
func appendZeros(_ count: Int, to buffer: inout [UInt8]) {
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

    /// Writes bytes that lie outside the memory written (a literal, a string's UTF-8).
    @inline(__always)
    mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress, let target = claim(source.count) else { return }
        // `initialize`, not `update`: `update` allows the two to overlap, and checked which way to copy on every
        // literal, some ten of them per delta (docs/PERFORMANCE.md, "The delta encoder").
        target.initialize(from: base, count: source.count)
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

    // Optional members: `key` is the literal before the value (`,"ref":`); nothing is written without a value.

    /// Writes `key` and `value` as a JSON string (``string(_:)``), when there is a value.
    @inline(__always)
    mutating func member(_ key: StaticString, string value: String?) {
        guard let value else { return }
        literal(key)
        string(value)
    }

    /// Writes `key` and `value`'s raw value, which needs no escaping (``plainString(_:)``), when there is a value.
    @inline(__always)
    mutating func member<Value: RawRepresentable<String>>(_ key: StaticString, plain value: Value?) {
        guard let value else { return }
        literal(key)
        plainString(value.rawValue)
    }

    /// Writes `key` and `value` in milliseconds (``milliseconds(_:)``), when there is a value.
    @inline(__always)
    mutating func member(_ key: StaticString, milliseconds value: Timestamp?) {
        guard let value else { return }
        literal(key)
        milliseconds(value)
    }

    /// Writes `key` and `value` as a JSON integer (``integer(_:)``), when there is a value.
    @inline(__always)
    mutating func member(_ key: StaticString, integer value: Int?) {
        guard let value else { return }
        literal(key)
        integer(Int64(value))
    }

    /// Writes `key` and the digits of `value`, when there is a value.
    @inline(__always)
    mutating func member(_ key: StaticString, digits value: UInt64?) {
        guard let value else { return }
        literal(key)
        digits(value)
    }

    /// Writes the decimal digits of `value`, zero-padded on the left to `width` (at most 20).
    @inline(__always)
    mutating func digits(_ value: UInt64, width: Int = 1) {
        // Below a million (a frame's `seq`, a member, its `seq`: a session reaches a million after hours), with
        // room for eight bytes: one or two groups of three digits, as a number's integer part is written,
        // instead of counting the digits and then writing them two at a time.
        if width == 1, value < 1_000_000, end - next >= 8 {
            Self.putBelowMillion(value, at: &next)
            return
        }
        let count = Swift.max(Self.decimalLength(value), width)
        guard let target = claim(count) else { return }
        Self.write(value, digits: count, to: target)
    }

    /// Writes `"key":value` for two unsigned integers (an `ack` entry: a member number, its `seq`) with one
    /// check for room, where a token apiece made four.
    @inline(__always)
    mutating func digitsMember(_ key: UInt64, _ value: UInt64) {
        if key < 1_000_000, value < 1_000_000, end - next >= 24 {  // as ``digits(_:width:)``
            next.pointee = .quote
            next += 1
            Self.putBelowMillion(key, at: &next)
            next[0] = .quote
            next[1] = .colon
            next += 2
            Self.putBelowMillion(value, at: &next)
            return
        }
        let keyCount = Self.decimalLength(key)
        let valueCount = Self.decimalLength(value)
        guard let target = claim(keyCount + valueCount + 3) else { return }
        target[0] = .quote
        Self.write(key, digits: keyCount, to: target + 1)
        target[keyCount + 1] = .quote
        target[keyCount + 2] = .colon
        Self.write(value, digits: valueCount, to: target + keyCount + 3)
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
        // Three or six decimals (every number of a frame, every time) with room for the longest result: by
        // groups of three digits from tables, with no check per byte.
        if decimals == 3 || decimals == 6, end - next >= 32 {
            next = Self.writeGrouped(scaled, sixDecimals: decimals == 6, to: next)
            return
        }
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

    /// `scaled / 10^3` (or `10^6`) written at `target` (which has room for 32 bytes) as ``scaled(_:decimals:)``
    /// writes it; returns the end. Groups of three digits are stored four bytes at a time from
    /// ``DigitGroups`` (the fourth byte lands in the room checked for, and is overwritten by what follows
    /// or dropped).
    @inline(__always)
    private static func writeGrouped(
        _ scaled: Int64, sixDecimals: Bool, to target: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        var end = target
        end.pointee = .minus
        if scaled < 0 { end += 1 }
        let unit: UInt64 = sixDecimals ? 1_000_000 : 1000
        let integer = scaled.magnitude / unit
        let fraction = scaled.magnitude % unit
        @inline(__always)
        func put(_ group: UInt64, skip: Int, count: Int) { putGroup(group, skip: skip, count: count, at: &end) }
        /// How many of `group`'s three digits remain once its trailing zeros are dropped (group > 0).
        @inline(__always)
        func trimmed(_ group: UInt64) -> Int { 3 - (group % 10 == 0 ? 1 : 0) - (group % 100 == 0 ? 1 : 0) }

        if integer < 1_000_000 {
            putBelowMillion(integer, at: &end)
        } else {
            putMillionOrMore(integer, at: &end)
        }
        guard fraction != 0 else { return end }
        end.pointee = .dot
        end += 1
        if sixDecimals {
            let high = fraction / 1000
            let low = fraction % 1000
            if low == 0 {
                put(high, skip: 0, count: trimmed(high))
            } else {
                put(high, skip: 0, count: 3)
                put(low, skip: 0, count: trimmed(low))
            }
        } else {
            put(fraction, skip: 0, count: trimmed(fraction))
        }
        return end
    }

    /// Stores the digits of `group` (< 1000) from its `skip`th on at `end`, four bytes at once from
    /// ``DigitGroups`` (`end` must have room for four), and moves `end` past `count` of them.
    @inline(__always)
    private static func putGroup(_ group: UInt64, skip: Int, count: Int, at end: inout UnsafeMutablePointer<UInt8>) {
        let digits = UnsafeRawPointer(DigitGroups.base + 3 * Int(group) + skip).loadUnaligned(as: UInt32.self)
        UnsafeMutableRawPointer(end).storeBytes(of: digits, as: UInt32.self)
        end += count
    }

    /// Stores the digits of `integer` (< 1 000 000) without leading zeros at `end`, which has room for eight
    /// bytes, as one or two groups of three (``putGroup(_:skip:count:at:)``), and moves `end` past them.
    @inline(__always)
    private static func putBelowMillion(_ integer: UInt64, at end: inout UnsafeMutablePointer<UInt8>) {
        /// How many digits `group` (< 1000) has without leading zeros (1 for 0).
        @inline(__always)
        func length(_ group: UInt64) -> Int { 1 + (group >= 10 ? 1 : 0) + (group >= 100 ? 1 : 0) }
        if integer < 1000 {
            let count = length(integer)
            putGroup(integer, skip: 3 - count, count: count, at: &end)
        } else {
            let high = integer / 1000
            let count = length(high)
            putGroup(high, skip: 3 - count, count: count, at: &end)
            putGroup(integer % 1000, skip: 0, count: 3, at: &end)
        }
    }

    /// Stores the digits of `integer` (≥ 1 000 000, below 10¹⁸) at `end`, which has room for twenty bytes, as
    /// ``putBelowMillion(_:at:)`` then groups of three, and moves `end` past them. A time on the server's clock
    /// (ms since 1970: 13 digits) comes this way, in every frame: counting its digits and writing them two at a
    /// time cost more (docs/PERFORMANCE.md, "The delta encoder").
    @inline(__always)
    private static func putMillionOrMore(_ integer: UInt64, at end: inout UnsafeMutablePointer<UInt8>) {
        @inline(__always)
        func putSix(_ digits: UInt64) {
            putGroup(digits / 1000, skip: 0, count: 3, at: &end)
            putGroup(digits % 1000, skip: 0, count: 3, at: &end)
        }
        let millions = integer / 1_000_000
        if millions < 1_000_000 {
            putBelowMillion(millions, at: &end)
        } else {
            putBelowMillion(millions / 1_000_000, at: &end)
            putSix(millions % 1_000_000)
        }
        putSix(integer % 1_000_000)
    }

    /// Writes `value` at `precision`, the kind of number it is (``fixed(_:decimals:)``).
    @inline(__always)
    mutating func fixed(_ value: Double, _ precision: WirePrecision) {
        fixed(value, decimals: precision.decimals)
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

    /// Writes `value` at 3 decimals (a length, a velocity) as ``fixed(_:decimals:)`` does, given its scaled
    /// integer `scaled` (``WrittenNumber/scaledOrNot(_:_:)``), which a delta worked out when it compared it:
    /// the same text, without scaling it again.
    mutating func fixed(_ value: Double, scaled: Int64) {
        guard scaled != WrittenNumber.notScaled else {
            exact(value)
            return
        }
        self.scaled(scaled, decimals: 3)
    }

    /// ``fixed(_:decimals:)``'s body: the integer ``WrittenNumber`` compares, so a delta's comparisons and
    /// the text agree by construction.
    @inline(__always)
    private mutating func fixed(_ value: Double, constantDecimals decimals: Int) {
        guard let scaled = WrittenNumber.scaled(value, decimals) else {
            exact(value)
            return
        }
        self.scaled(scaled, decimals: decimals)
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
        scaled(time.microseconds, decimals: WirePrecision.time.decimals)
    }

    @inline(__always)
    mutating func bool(_ value: Bool) {
        if value { literal("true") } else { literal("false") }
    }
}

/// The three digits of every number below 1000, zero-padded ("000001002…999"), read four bytes at a
/// time (the last entry has a byte of padding after it). A literal: its bytes are a constant of the
/// binary, with nothing to set up or look up at run time.
enum DigitGroups {
    static var base: UnsafePointer<UInt8> { digits.utf8Start }

    private static var digits: StaticString {
        """
        000001002003004005006007008009010011012013014015016017018019020021022023024025026027028029030031032\
        033034035036037038039040041042043044045046047048049050051052053054055056057058059060061062063064065\
        066067068069070071072073074075076077078079080081082083084085086087088089090091092093094095096097098\
        099100101102103104105106107108109110111112113114115116117118119120121122123124125126127128129130131\
        132133134135136137138139140141142143144145146147148149150151152153154155156157158159160161162163164\
        165166167168169170171172173174175176177178179180181182183184185186187188189190191192193194195196197\
        198199200201202203204205206207208209210211212213214215216217218219220221222223224225226227228229230\
        231232233234235236237238239240241242243244245246247248249250251252253254255256257258259260261262263\
        264265266267268269270271272273274275276277278279280281282283284285286287288289290291292293294295296\
        297298299300301302303304305306307308309310311312313314315316317318319320321322323324325326327328329\
        330331332333334335336337338339340341342343344345346347348349350351352353354355356357358359360361362\
        363364365366367368369370371372373374375376377378379380381382383384385386387388389390391392393394395\
        396397398399400401402403404405406407408409410411412413414415416417418419420421422423424425426427428\
        429430431432433434435436437438439440441442443444445446447448449450451452453454455456457458459460461\
        462463464465466467468469470471472473474475476477478479480481482483484485486487488489490491492493494\
        495496497498499500501502503504505506507508509510511512513514515516517518519520521522523524525526527\
        528529530531532533534535536537538539540541542543544545546547548549550551552553554555556557558559560\
        561562563564565566567568569570571572573574575576577578579580581582583584585586587588589590591592593\
        594595596597598599600601602603604605606607608609610611612613614615616617618619620621622623624625626\
        627628629630631632633634635636637638639640641642643644645646647648649650651652653654655656657658659\
        660661662663664665666667668669670671672673674675676677678679680681682683684685686687688689690691692\
        693694695696697698699700701702703704705706707708709710711712713714715716717718719720721722723724725\
        726727728729730731732733734735736737738739740741742743744745746747748749750751752753754755756757758\
        759760761762763764765766767768769770771772773774775776777778779780781782783784785786787788789790791\
        792793794795796797798799800801802803804805806807808809810811812813814815816817818819820821822823824\
        825826827828829830831832833834835836837838839840841842843844845846847848849850851852853854855856857\
        858859860861862863864865866867868869870871872873874875876877878879880881882883884885886887888889890\
        891892893894895896897898899900901902903904905906907908909910911912913914915916917918919920921922923\
        924925926927928929930931932933934935936937938939940941942943944945946947948949950951952953954955956\
        957958959960961962963964965966967968969970971972973974975976977978979980981982983984985986987988989\
        9909919929939949959969979989990
        """
    }
}

@inline(__always)
private func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? .digit0 &+ nibble : 0x61 &+ nibble &- 10
}
