import RefreshKit

/// A trace's operations as a live server records them: compact binary records in chunks, turned into the
/// trace's JSON only when someone asks for it.
///
/// Recording happens on every input and every frame of every session, exporting almost never. Kept as the
/// exported JSON (as they once were), the operations cost a loaded server more than the engine: about 120
/// bytes per input to write into each session's growing buffer, cold in the cache by the time its next
/// input comes, and a growing `Array` that now and then copies itself whole (a megabyte, with fresh pages
/// to fault in, inside one input's latency). Here an input takes its text plus about 5 bytes, and a full
/// chunk is never copied: the next one is started beside it.
///
/// Records (never split across chunks):
/// - `a` Δt member length text: an `apply` of the page message `text` (`length` bytes) from `member`;
/// - `v` Δt: an `advance`;
/// - `f`: a `frame`;
///
/// where Δt is the time since the previous timed record (µs, zigzag) and the numbers are LEB128 varints.
///
/// The tail chunk is made at its full size and written through its bytes, `tailCount` of them used: a
/// record is a few stores and one copy of its text, not appends that each check the array's capacity.
@usableFromInline struct OperationLog: Sendable {
    /// The chunks filled so far, oldest first (each cut to its used bytes).
    private var full: [[UInt8]] = []
    /// The chunk being written, made at its full size: its first `tailCount` bytes are records.
    private var tail: [UInt8] = []
    /// Bytes of `tail` used.
    @usableFromInline private(set) var tailCount = 0
    /// Bytes in the filled chunks.
    @usableFromInline private(set) var fullBytes = 0
    private var lastTime: Int64 = 0

    /// A first chunk of 256 bytes (a session that says `hello` and goes quiet records a few bytes; one that
    /// drags records ~90 bytes per input), each next one twice the last, up to 64 KiB.
    static let firstChunk = 256
    static let largestChunk = 64 << 10
    /// The most a record's head (tag, Δt, member, length) takes.
    static let headBound = 1 + 3 * 10

    private enum Tag {
        static let apply: UInt8 = 0x61  // a
        static let advance: UInt8 = 0x76  // v
        static let frame: UInt8 = 0x66  // f
    }

    /// The bytes an `apply` of `textCount` bytes takes at most.
    static func applyBound(_ textCount: Int) -> Int { headBound + textCount }

    /// Bytes held by all records.
    @inlinable var byteCount: Int { fullBytes + tailCount }

    mutating func appendApply(_ text: UnsafeRawBufferPointer, member: Int, at time: Timestamp) {
        reserve(Self.applyBound(text.count))
        let delta = nextDelta(at: time)
        write { chunk, start in
            chunk[start] = Tag.apply
            var at = Self.putVarint(delta, into: chunk, at: start + 1)
            at = Self.putVarint(UInt64(truncatingIfNeeded: member), into: chunk, at: at)
            at = Self.putVarint(UInt64(text.count), into: chunk, at: at)
            if let source = text.baseAddress, let target = chunk.baseAddress {
                (target + at).copyMemory(from: source, byteCount: text.count)
            }
            return at + text.count
        }
    }

    mutating func appendAdvance(to time: Timestamp) {
        reserve(Self.headBound)
        let delta = nextDelta(at: time)
        write { chunk, start in
            chunk[start] = Tag.advance
            return Self.putVarint(delta, into: chunk, at: start + 1)
        }
    }

    mutating func appendFrame() {
        reserve(1)
        write { chunk, start in
            chunk[start] = Tag.frame
            return start + 1
        }
    }

    /// The zigzagged time since the previous timed record, which `time` now is.
    private mutating func nextDelta(at time: Timestamp) -> UInt64 {
        let delta = Self.zigzag(time.microseconds &- lastTime)
        lastTime = time.microseconds
        return delta
    }

    /// Writes one record into the tail chunk (`reserve` made room): `body` gets the chunk's bytes and where
    /// the record starts, and returns where it ends.
    @inline(__always)
    private mutating func write(_ body: (UnsafeMutableRawBufferPointer, Int) -> Int) {
        let start = tailCount
        tailCount = tail.withUnsafeMutableBytes { body($0, start) }
    }

    /// Makes sure `needed` more bytes fit in the tail chunk, starting a new one when they do not.
    private mutating func reserve(_ needed: Int) {
        guard tail.count - tailCount < needed else { return }
        let size = tail.isEmpty ? Self.firstChunk : min(2 * tail.count, Self.largestChunk)
        if tailCount > 0 {
            tail.removeLast(tail.count - tailCount)
            fullBytes += tailCount
            full.append(tail)
        }
        // Zeroed in one `memset` (`Array(repeating:count:)` stores the bytes one by one: ~130 per record).
        let length = max(size, needed)
        tail = [UInt8](unsafeUninitializedCapacity: length) { bytes, initialized in
            bytes.initialize(repeating: 0)
            initialized = length
        }
        tailCount = 0
    }

    // MARK: - Reading

    /// One recorded operation, as ``forEach(_:)`` hands it out: an `apply`'s text is lent, not copied.
    enum Record {
        case apply(time: Timestamp, member: Int, text: UnsafeRawBufferPointer)
        case advance(Timestamp)
        case frame
    }

    /// Calls `body` with each record, oldest first.
    func forEach(_ body: (Record) -> Void) {
        var time: Int64 = 0
        for chunk in full { Self.read(chunk, time: &time, body) }
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
            let chunk = cursor.chunk < full.count ? full[cursor.chunk] : tail
            let count = cursor.chunk < full.count ? chunk.count : tailCount
            cursor.offset = Self.read(chunk, count: count, from: cursor.offset, time: &cursor.time, body)
            guard cursor.chunk < full.count else { break }
            cursor.chunk += 1
            cursor.offset = 0
        }
    }

    @discardableResult
    private static func read(
        _ chunk: [UInt8], count: Int? = nil, from start: Int = 0, time: inout Int64, _ body: (Record) -> Void
    ) -> Int {
        chunk.withUnsafeBytes { whole in
            let bytes = UnsafeRawBufferPointer(rebasing: whole[..<(count ?? whole.count)])
            var at = start
            while at < bytes.count {
                let tag = bytes[at]
                at += 1
                switch tag {
                case Tag.apply:
                    time &+= unzigzag(varint(bytes, &at))
                    let member = Int(truncatingIfNeeded: varint(bytes, &at))
                    let count = Int(varint(bytes, &at))
                    body(
                        .apply(
                            time: Timestamp(microseconds: time), member: member,
                            text: .init(rebasing: bytes[at..<at + count])))
                    at += count
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

    private static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    private static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// Writes `value` as a LEB128 varint at `offset`. - Returns: the offset after it (1…10 bytes on).
    @inline(__always)
    private static func putVarint(_ value: UInt64, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
        -> Int
    {
        var value = value
        var at = offset
        while value >= 0x80 {
            buffer[at] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            at += 1
        }
        buffer[at] = UInt8(value)
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
