import RefreshKit

/// The page's binary spelling of a `touch` (docs/PROTOCOL.md, "Binary touch"): one binary WebSocket message of
/// 40 bytes, or 48 with a `seq`, every field at a fixed offset, little-endian.
///
/// | offset | bytes | field |
/// |---|---|---|
/// | 0 | 1 | ``kindTouch`` (1) |
/// | 1 | 1 | phase: 0 start, 1 move, 2 end, 3 cancel |
/// | 2 | 6 | zero |
/// | 8 | 8 | `dx`, a binary64 |
/// | 16 | 8 | `dy` |
/// | 24 | 8 | `t` |
/// | 32 | 8 | `id`, an integral binary64 |
/// | 40 | 8 | `seq`, an integral binary64 (the 48-byte form only) |
///
/// It says exactly what the JSON spelling says, field for field, and is judged by the same rules: a binary touch
/// that is not accepted is written as JSON (``jsonText(_:)``) and the general decoder tells the page why. A
/// server reads it at fixed offsets, without parsing text (docs/PERFORMANCE.md, "The touch decode"), and a
/// trace exports it as that JSON text, so a trace stays one JSON document.
public enum BinaryTouch {
    /// The first byte of a binary touch.
    public static let kindTouch: UInt8 = 1
    /// The length without a `seq`.
    public static let length = 40
    /// The length with one.
    public static let lengthWithSeq = 48

    /// The phase of `code` (below 4).
    @inline(__always)
    static func phase(_ code: Int) -> TouchPhase {
        switch code {
        case 0: .start
        case 1: .move
        case 2: .end
        default: .cancel
        }
    }

    /// The code of `phase`, the message's second byte.
    public static func code(_ phase: TouchPhase) -> UInt8 {
        switch phase {
        case .start: 0
        case .move: 1
        case .end: 2
        case .cancel: 3
        }
    }

    /// The binary spelling of `touch` and `seq`: what the page sends (for tests and the load generator).
    public static func bytes(_ touch: TouchInput, seq: UInt64?) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: seq == nil ? length : lengthWithSeq)
        bytes[0] = kindTouch
        bytes[1] = code(touch.phase)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: touch.delta.x.bitPattern.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: touch.delta.y.bitPattern.littleEndian, toByteOffset: 16, as: UInt64.self)
            raw.storeBytes(of: touch.pageTime.bitPattern.littleEndian, toByteOffset: 24, as: UInt64.self)
            raw.storeBytes(of: Double(touch.pointer).bitPattern.littleEndian, toByteOffset: 32, as: UInt64.self)
            if let seq {
                raw.storeBytes(of: Double(seq).bitPattern.littleEndian, toByteOffset: 40, as: UInt64.self)
            }
        }
        return bytes
    }

    /// `value` as a `seq` when it is one: an integer in 0…2⁵³, as the general decoder's `sequenceNumber` takes.
    @inline(__always)
    static func seq(_ value: Double) -> UInt64? {
        guard value >= 0, value <= 9_007_199_254_740_992, case let integer = UInt64(value), Double(integer) == value
        else { return nil }
        return integer
    }

    /// The `seq` of the 48-byte `bytes` when it is valid, for an error that answers it.
    static func validSeq(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        bytes.count == lengthWithSeq ? seq(double(bytes, 40)) : nil
    }

    /// The binary64 at `offset` of `bytes` (at least `offset + 8` long).
    @inline(__always)
    static func double(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    /// The JSON text of the touch `bytes` spell (the page's JSON spelling, members in the same order), when
    /// they are a binary touch's length, kind and phase; nil otherwise. A number that is not finite, which JSON
    /// cannot spell, is written as a string (`"NaN"`, `"Infinity"`): the general decoder refuses it as it
    /// refuses any such field. Zero bytes 2–7 are not looked at (``MessageDecoder/decodeBinary(_:)`` checks them).
    public static func jsonText(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count == length || bytes.count == lengthWithSeq, bytes[0] == kindTouch, bytes[1] < 4 else {
            return nil
        }
        var text: [UInt8] = []
        appendJSON(to: &text, bound: 256) { w in
            func number(_ value: Double) {
                if value.isFinite {
                    w.exact(value)
                } else {
                    w.plainString(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity")
                }
            }
            w.literal(#"{"type":"touch","phase":"#)
            w.plainString(phase(Int(bytes[1])).rawValue)
            w.literal(#","dx":"#)
            number(double(bytes, 8))
            w.literal(#","dy":"#)
            number(double(bytes, 16))
            w.literal(#","t":"#)
            number(double(bytes, 24))
            w.literal(#","id":"#)
            number(double(bytes, 32))
            if bytes.count == lengthWithSeq {
                w.literal(#","seq":"#)
                number(double(bytes, 40))
            }
            w.byte(.closeBrace)
        }
        return text
    }
}

extension MessageDecoder {
    /// `bytes` as a touch when they are a binary touch the general decoder would accept as JSON (``BinaryTouch``),
    /// read at fixed offsets; nil otherwise, and then ``decodeBinary(_:)`` says why.
    ///
    /// A value reads as the JSON text of it reads (``BinaryTouch/jsonText(_:)``, which a trace exports): a
    /// negative zero as 0, which is what `exact` writes for it.
    @inline(__always)
    public func binaryTouchInput(_ bytes: UnsafeRawBufferPointer) -> PlainTouchInput? {
        let count = bytes.count
        guard count == BinaryTouch.length || count == BinaryTouch.lengthWithSeq else { return nil }
        // Kind, phase and the six zero bytes in one word: kind 1, phase below 4, the rest 0.
        let head = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        guard head & 0xFFFF_FFFF_FFFF_00FF == UInt64(BinaryTouch.kindTouch), case let code = Int(head >> 8), code < 4
        else { return nil }
        // `+ 0` turns −0 into +0 (and nothing else), as the JSON text of it reads.
        let dx = BinaryTouch.double(bytes, 8) + 0
        let dy = BinaryTouch.double(bytes, 16) + 0
        let t = BinaryTouch.double(bytes, 24) + 0
        let id = BinaryTouch.double(bytes, 32)
        // Finite and within the limits (a NaN fails every comparison).
        guard abs(dx) <= limits.maxDelta, abs(dy) <= limits.maxDelta, abs(t) <= limits.maxTime,
            abs(id) <= 9_007_199_254_740_992, case let pointer = Int(id), Double(pointer) == id
        else { return nil }
        var seq: UInt64?
        if count == BinaryTouch.lengthWithSeq {
            let value = BinaryTouch.double(bytes, 40)
            guard let valid = BinaryTouch.seq(value) else { return nil }
            seq = valid
        }
        return PlainTouchInput(
            touch: TouchInput(
                phase: BinaryTouch.phase(code), delta: Point(x: dx, y: dy), pageTime: t, pointer: pointer), seq: seq)
    }

    /// Decodes a binary message as an input. What ``binaryTouchInput(_:)`` does not accept is refused with the
    /// error its JSON text gets from the general decoder (``BinaryTouch/jsonText(_:)``), so that both spellings
    /// get the same answers; a message that is not a binary touch at all is `binary_unsupported`.
    /// - Throws: the ``WireError`` the page would be sent.
    public func decodeBinary(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> PlainTouchInput {
        if let touch = binaryTouchInput(bytes) { return touch }
        guard let text = BinaryTouch.jsonText(bytes) else {
            throw .notABinaryTouch(count: bytes.count, first: bytes.first)
        }
        guard bytes[2..<8].allSatisfy({ $0 == 0 }) else {
            throw WireError(
                code: .badField, message: "bytes 2-7 of a binary touch must be zero", ref: "touch",
                seq: BinaryTouch.validSeq(bytes))
        }
        let decoded = text.withUnsafeBytes { json in Result { () throws(WireError) in try decodeInput(json) } }
        // The general decoder refuses whatever the one-pass read refused (BinaryTouchTests), so `get()` throws
        // here; were it ever to accept the text, the touch it read would be the one applied.
        guard case .touch(let touch)? = try decoded.get()?.input else {
            throw WireError(code: .badMessage, message: "a binary touch that is not a touch", ref: "touch")
        }
        return PlainTouchInput(touch: touch, seq: try decoded.get()?.seq)
    }
}
