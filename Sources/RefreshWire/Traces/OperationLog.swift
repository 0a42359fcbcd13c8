import RefreshKit

/// A trace's operations as a live server records them: compact binary records in chunks, turned into the
/// trace's JSON only when someone asks for it.
///
/// Recording happens on every input and every frame of every session, exporting almost never. Kept as the
/// exported JSON (as they once were), the operations cost a loaded server more than the engine: JSON to
/// write into each session's growing buffer, cold by the time its next input comes, and a growing `Array`
/// that now and then copies itself whole (with fresh pages to fault in, inside one input's latency;
/// docs/PERFORMANCE.md, "The trace's records"). Here an input takes its text plus a few bytes, less the
/// beginning the page's inputs share (``TextPrefixes``), and a full chunk is never copied: the next one is
/// started beside it.
///
/// Records (never split across chunks):
/// - `a` Δt member length text: an `apply` of the page message `text` (`length` bytes) from `member`;
/// - `p` Δt member prefix length rest: the same, for a text that is ``TextPrefixes`` number `prefix` (a byte),
///   then `rest` (`length` bytes);
/// - `b` Δt member head values: an `apply` of a binary touch (``BinaryTouch``): `head` its phase, bit 7 set when
///   `values` (its binary64s, as they came) include a `seq`: 32 or 40 bytes. Read back as its JSON text;
/// - `v` Δt: an `advance`;
/// - `f`: a `frame`;
///
/// where Δt is the time since the previous timed record (µs, zigzag) and the numbers are LEB128 varints.
///
/// A chunk is raw memory allocated at its full size and never zeroed (``Chunk``), written through a
/// pointer, `tailCount` of the tail's bytes used: a record is written in place, its text copied once, not by
/// appends that each check an array's capacity, and no bounds checks (`reserve` made room). An `[UInt8]`
/// chunk had to be zeroed when made, byte by byte, and appending to one instead cost more (docs/PERFORMANCE.md,
/// "The trace's records").
@usableFromInline struct OperationLog: Sendable {
    /// A chunk's bytes: allocated at its full size, never zeroed, never moved. A log writes into its tail
    /// chunk only while it holds it alone (`reserve`), and never into a filled one, so a chunk that copies
    /// of a log share is only read; that is why it is `@unchecked Sendable`. Only the bytes written are read.
    final class Chunk: @unchecked Sendable {
        let bytes: UnsafeMutableRawPointer
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            bytes = .allocate(byteCount: capacity, alignment: 1)
        }

        deinit { bytes.deallocate() }

        /// A chunk of `capacity` bytes (this one's size unless given) holding this one's first `count` bytes.
        func copy(_ count: Int, capacity: Int? = nil) -> Chunk {
            let copy = Chunk(capacity: max(count, capacity ?? self.capacity))
            copy.bytes.copyMemory(from: bytes, byteCount: count)
            return copy
        }
    }

    /// A filled chunk and the bytes of it used.
    private struct Filled: Sendable {
        let chunk: Chunk
        let count: Int
    }

    /// The chunks filled so far, oldest first: changed only when the tail fills, so kept before (apart from)
    /// the fields below, which every record reads and writes.
    private var full: [Filled] = []
    /// The chunk being written: its first `tailCount` bytes are records.
    private var tail = Chunk(capacity: Self.firstChunk)
    /// Bytes of `tail` used.
    @usableFromInline private(set) var tailCount = 0
    /// Bytes the records take as `a` records, with every text whole, and a binary touch's `b` record as it is:
    /// what the recorder's limits and the snapshots' interval count (docs/TRACE.md), whichever beginnings are kept
    /// as one byte (the chunks hold fewer). Kept beside `tailCount`, since the recorder reads it before each record.
    @usableFromInline private(set) var byteCount = 0
    private var lastTime: Int64 = 0
    /// How many of the records are binary touches (their JSON is longer than the others': the recorder's
    /// estimate of the export's size).
    private(set) var binaryApplyCount = 0

    /// The tail chunk's object (its bytes' address and capacity, which a record reads first) and where the next
    /// record's bytes go: what a host fetches ahead of a session's next input (``TraceRecorder/nextRecord()``).
    var nextRecord: (chunk: UnsafeRawPointer, bytes: UnsafeRawPointer) {
        (UnsafeRawPointer(Unmanaged.passUnretained(tail).toOpaque()), UnsafeRawPointer(tail.bytes + tailCount))
    }

    /// A first chunk of 256 bytes (a session that says `hello` and goes quiet records little; one that drags
    /// fills chunks quickly: docs/PERFORMANCE.md, "The trace's records"), each next one twice the last, up to 64 KiB.
    static let firstChunk = 256
    static let largestChunk = 64 << 10
    /// The most a record's head (tag, Δt, member, length) takes.
    static let headBound = 1 + 3 * 10

    private enum Tag {
        static let apply: UInt8 = 0x61  // a
        static let prefixedApply: UInt8 = 0x70  // p
        static let binaryApply: UInt8 = 0x62  // b
        static let advance: UInt8 = 0x76  // v
        static let frame: UInt8 = 0x66  // f
    }

    /// The bytes an `apply` of `textCount` bytes takes at most.
    static func applyBound(_ textCount: Int) -> Int { headBound + textCount }

    mutating func appendApply(_ text: UnsafeRawBufferPointer, member: Int, at time: Timestamp) {
        let start = reserve(Self.applyBound(text.count))
        var at = Self.putVarint(nextDelta(at: time), at: start + 1)
        at = Self.putVarint(UInt64(truncatingIfNeeded: member), at: at)
        // What the `a` record of the whole text takes, which `byteCount` counts.
        let whole = (at - start) &+ Self.varintCount(UInt64(text.count)) &+ text.count
        var kept = text
        if let prefix = TextPrefixes.match(text) {
            start.storeBytes(of: Tag.prefixedApply, as: UInt8.self)
            at.storeBytes(of: prefix.index, as: UInt8.self)
            at += 1
            kept = UnsafeRawBufferPointer(rebasing: text[prefix.count...])
        } else {
            start.storeBytes(of: Tag.apply, as: UInt8.self)
        }
        at = Self.putVarint(UInt64(kept.count), at: at)
        // Counted before the copy, the last call: nothing is kept across it.
        took((at - start) &+ kept.count, counting: whole)
        if let source = kept.baseAddress { at.copyMemory(from: source, byteCount: kept.count) }
    }

    /// An `apply` of the binary touch `bytes` (``BinaryTouch``, which the decoder accepted: the kind 1, the phase
    /// below 4, six zero bytes, then four or five binary64s). Kept as the one byte of its head that varies, the
    /// phase with bit 7 set when a `seq` follows, and the values' bytes as they came; a reader gets its JSON text.
    /// Counted in `byteCount` as the bytes the record takes. (The values, 32 or 40 bytes, copied a word at a time,
    /// not by a call of `memcpy`: docs/PERFORMANCE.md, "The trace's records".)
    mutating func appendBinaryApply(_ bytes: UnsafeRawBufferPointer, member: Int, at time: Timestamp) {
        let withSeq = bytes.count == BinaryTouch.lengthWithSeq
        let start = reserve(Self.headBound &+ 1 &+ 40)
        start.storeBytes(of: Tag.binaryApply, as: UInt8.self)
        var at = Self.putVarint(nextDelta(at: time), at: start + 1)
        at = Self.putVarint(UInt64(truncatingIfNeeded: member), at: at)
        let source = bytes.baseAddress.unsafelyUnwrapped
        at.storeBytes(of: source.load(fromByteOffset: 1, as: UInt8.self) | (withSeq ? 0x80 : 0), as: UInt8.self)
        at += 1
        for offset in stride(from: 0, to: 32, by: 8) {  // dx, dy, t, id
            at.storeBytes(
                of: source.loadUnaligned(fromByteOffset: 8 &+ offset, as: UInt64.self), toByteOffset: offset,
                as: UInt64.self)
        }
        if withSeq {
            at.storeBytes(
                of: source.loadUnaligned(fromByteOffset: 40, as: UInt64.self), toByteOffset: 32, as: UInt64.self)
        }
        took((at - start) &+ (withSeq ? 40 : 32))
        binaryApplyCount &+= 1
    }

    mutating func appendAdvance(to time: Timestamp) {
        let start = reserve(Self.headBound)
        start.storeBytes(of: Tag.advance, as: UInt8.self)
        took(Self.putVarint(nextDelta(at: time), at: start + 1) - start)
    }

    mutating func appendFrame() {
        reserve(1).storeBytes(of: Tag.frame, as: UInt8.self)
        took(1)
    }

    /// Counts the `count` bytes the record just written at the tail's end takes, as `counting` in `byteCount`
    /// (what it takes as an `a` record, for an `apply`).
    @inline(__always)
    private mutating func took(_ count: Int, counting: Int? = nil) {
        tailCount &+= count
        byteCount &+= counting ?? count
    }

    /// The zigzagged time since the previous timed record, which `time` now is.
    private mutating func nextDelta(at time: Timestamp) -> UInt64 {
        let delta = Self.zigzag(time.microseconds &- lastTime)
        lastTime = time.microseconds
        return delta
    }

    /// Where the next record goes, with room for `needed` bytes after it: the tail chunk's first unused byte,
    /// in a new tail when they do not fit, in a copy of the tail when a copy of this log holds it too.
    @inline(__always)
    private mutating func reserve(_ needed: Int) -> UnsafeMutableRawPointer {
        if needed > tail.capacity &- tailCount || !isKnownUniquelyReferenced(&tail) { replaceTail(needed) }
        return tail.bytes + tailCount
    }

    /// Replaces the tail with a copy when `needed` bytes fit in it (a copy of this log holds it too); else
    /// files it with the filled chunks (when it holds records) and starts a new one, with room for them.
    /// (One call out of `reserve` for both, not a call for each: docs/PERFORMANCE.md, "Inlining on an input's
    /// path".)
    private mutating func replaceTail(_ needed: Int) {
        guard needed > tail.capacity &- tailCount else {
            tail = tail.copy(tailCount)
            return
        }
        if tailCount > 0 { full.append(Filled(chunk: tail, count: tailCount)) }
        tail = Chunk(capacity: max(min(2 * tail.capacity, Self.largestChunk), needed))
        tailCount = 0
    }

    /// A copy to hand out (a trace export), whose tail chunk holds just its records: the log goes on writing into its
    /// own tail, and a copy that shared it would keep the whole chunk (up to ``largestChunk``) for as long as it is
    /// held, for a few bytes of records (docs/HARDENING.md, "Budgets in bytes"). The filled chunks are shared: they
    /// are never written again.
    func exported() -> OperationLog {
        var copy = self
        copy.tail = tail.copy(tailCount, capacity: tailCount)
        return copy
    }

    // MARK: - Reading

    /// One recorded operation, as ``forEach(_:)`` hands it out: an `apply`'s text is lent, not copied (the text
    /// of a `p` record is rebuilt, in a buffer the reader reuses).
    enum Record {
        case apply(time: Timestamp, member: Int, text: UnsafeRawBufferPointer)
        case advance(Timestamp)
        case frame
    }

    /// Calls `body` with each record, oldest first.
    func forEach(_ body: (Record) -> Void) {
        var time: Int64 = 0
        for filled in full { Self.read(filled.chunk, count: filled.count, time: &time, body) }
        Self.read(tail, count: tailCount, time: &time, body)
    }

    /// Where a reader stopped: the next record is at byte `offset` of chunk `chunk` (the tail is chunk
    /// `full.count`, and keeps its index when it fills), after a timed record at `time`.
    struct Cursor: Sendable, Hashable {
        var chunk = 0
        var offset = 0
        var time: Int64 = 0
    }

    /// Calls `body` with each record after `cursor`, oldest first, and moves `cursor` past the last: what a
    /// store appends since its previous write, without reading the records before it again.
    func forEach(after cursor: inout Cursor, _ body: (Record) -> Void) {
        while cursor.chunk <= full.count {
            let filled = cursor.chunk < full.count ? full[cursor.chunk] : Filled(chunk: tail, count: tailCount)
            cursor.offset = Self.read(filled.chunk, count: filled.count, from: cursor.offset, time: &cursor.time, body)
            guard cursor.chunk < full.count else { break }
            cursor.chunk += 1
            cursor.offset = 0
        }
    }

    @discardableResult
    private static func read(
        _ chunk: Chunk, count: Int, from start: Int = 0, time: inout Int64, _ body: (Record) -> Void
    ) -> Int {
        withExtendedLifetime(chunk) {
            let bytes = UnsafeRawBufferPointer(start: chunk.bytes, count: count)
            var at = start
            var whole: [UInt8] = []  // a `p` record's text, rebuilt
            while at < bytes.count {
                let tag = bytes[at]
                at += 1
                switch tag {
                case Tag.apply, Tag.prefixedApply:
                    time &+= unzigzag(varint(bytes, &at))
                    let member = Int(truncatingIfNeeded: varint(bytes, &at))
                    let prefix = tag == Tag.prefixedApply ? TextPrefixes.prefix(Int(bytes[at])) : nil
                    if prefix != nil { at += 1 }
                    let count = Int(varint(bytes, &at))
                    let kept = UnsafeRawBufferPointer(rebasing: bytes[at..<at + count])
                    let time = Timestamp(microseconds: time)
                    if let prefix {
                        whole.removeAll(keepingCapacity: true)
                        whole.append(
                            contentsOf: UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                        )
                        whole.append(contentsOf: kept)
                        whole.withUnsafeBytes { body(.apply(time: time, member: member, text: $0)) }
                    } else {
                        body(.apply(time: time, member: member, text: kept))
                    }
                    at += count
                case Tag.binaryApply:
                    time &+= unzigzag(varint(bytes, &at))
                    let member = Int(truncatingIfNeeded: varint(bytes, &at))
                    let head = bytes[at]
                    let count = head & 0x80 != 0 ? BinaryTouch.lengthWithSeq : BinaryTouch.length
                    // The message as it came: the kind, the phase and six zero bytes, then the values.
                    var message = [UInt8](repeating: 0, count: count)
                    message[0] = BinaryTouch.kindTouch
                    message[1] = head & 0x7F
                    message.withUnsafeMutableBytes { target in
                        target.baseAddress!.advanced(by: 8).copyMemory(
                            from: bytes.baseAddress! + at + 1, byteCount: count - 8)
                    }
                    // Only accepted touches are recorded: they always have a JSON text.
                    let text = message.withUnsafeBytes { BinaryTouch.jsonText($0) } ?? []
                    text.withUnsafeBytes { body(.apply(time: Timestamp(microseconds: time), member: member, text: $0)) }
                    at += 1 + count - 8
                case Tag.advance:
                    time &+= unzigzag(varint(bytes, &at))
                    body(.advance(Timestamp(microseconds: time)))
                default:
                    assert(tag == Tag.frame, "a record's tag")
                    body(.frame)
                }
            }
            return at
        }
    }

    // MARK: - Numbers

    /// The bytes `putVarint` writes for `value` (one below 128, as for a page message's length: tested first).
    @inline(__always)
    static func varintCount(_ value: UInt64) -> Int {
        value < 0x80 ? 1 : (64 &- value.leadingZeroBitCount &+ 6) / 7
    }

    private static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    private static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// Writes `value` as a LEB128 varint at `target`. - Returns: the byte after it (1…10 bytes on).
    @inline(__always)
    private static func putVarint(_ value: UInt64, at target: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var value = value
        var at = target
        while value >= 0x80 {
            at.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, as: UInt8.self)
            value >>= 7
            at += 1
        }
        at.storeBytes(of: UInt8(value), as: UInt8.self)
        return at + 1
    }

    private static func varint(_ bytes: UnsafeRawBufferPointer, _ at: inout Int) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[at]
            at += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
