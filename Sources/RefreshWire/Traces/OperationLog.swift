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
@usableFromInline struct OperationLog: Sendable {
    /// The chunks filled so far, oldest first.
    private var full: [[UInt8]] = []
    /// The chunk being written: it never grows past the capacity it was made with.
    @usableFromInline private(set) var tail: [UInt8] = []
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
    @inlinable var byteCount: Int { fullBytes + tail.count }

    mutating func appendApply(_ text: UnsafeRawBufferPointer, member: Int, at time: Timestamp) {
        reserve(Self.applyBound(text.count))
        appendHead(Tag.apply, at: time, UInt64(truncatingIfNeeded: member), UInt64(text.count))
        tail.append(contentsOf: text)
    }

    mutating func appendAdvance(to time: Timestamp) {
        reserve(Self.headBound)
        appendHead(Tag.advance, at: time)
    }

    mutating func appendFrame() {
        reserve(1)
        tail.append(Tag.frame)
    }

    /// A record's head: `tag`, Δt, then up to two more numbers (an `apply`'s member and length), in one append.
    private mutating func appendHead(_ tag: UInt8, at time: Timestamp, _ first: UInt64? = nil, _ second: UInt64? = nil)
    {
        let delta = Self.zigzag(time.microseconds &- lastTime)
        lastTime = time.microseconds
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.headBound) { head in
            head[0] = tag
            var count = 1
            count += Self.putVarint(delta, into: head, at: count)
            if let first { count += Self.putVarint(first, into: head, at: count) }
            if let second { count += Self.putVarint(second, into: head, at: count) }
            tail.append(contentsOf: UnsafeBufferPointer(rebasing: head[..<count]))
        }
    }

    /// Makes sure `needed` more bytes fit in the tail chunk, starting a new one when they do not.
    private mutating func reserve(_ needed: Int) {
        guard tail.capacity - tail.count < needed else { return }
        let size = tail.capacity == 0 ? Self.firstChunk : min(2 * tail.capacity, Self.largestChunk)
        if !tail.isEmpty {
            fullBytes += tail.count
            full.append(tail)
        }
        tail = []
        tail.reserveCapacity(max(size, needed))
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
        Self.read(tail, time: &time, body)
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
            cursor.offset = Self.read(chunk, from: cursor.offset, time: &cursor.time, body)
            guard cursor.chunk < full.count else { break }
            cursor.chunk += 1
            cursor.offset = 0
        }
    }

    @discardableResult
    private static func read(_ chunk: [UInt8], from start: Int = 0, time: inout Int64, _ body: (Record) -> Void)
        -> Int
    {
        chunk.withUnsafeBytes { bytes in
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

    /// Writes `value` as a LEB128 varint at `offset`. - Returns: the bytes written (1…10).
    private static func putVarint(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int)
        -> Int
    {
        var value = value
        var count = 0
        while value >= 0x80 {
            buffer[offset + count] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            count += 1
        }
        buffer[offset + count] = UInt8(value)
        return count + 1
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
