/// Reusable memory for outgoing messages, written in place.
///
/// A host that sends a message per input (the server, for every frame) empties and refills the same
/// buffer thousands of times a second. `[UInt8]` does both through general-purpose paths: a message is
/// written elsewhere and appended in a copy, and emptying goes through `replaceSubrange`; together they
/// cost more than encoding a delta's numbers. Here the encoders write straight into memory that stays
/// initialized, and emptying is an assignment.
///
/// `headroom` bytes lie in front of every message and are never written by an encoder: a transport's
/// header goes there (libwebsockets wants `LWS_PRE` bytes before what `lws_write` sends).
public struct MessageBuffer: Sendable {
    /// Initialized bytes, never fewer than `end`; only `headroom..<end` are the message. (Visible to the
    /// inlinable lenders below: a generic closure-taking method of another module is otherwise called
    /// unspecialized, through `Array`'s unspecialized lender, on every frame written.)
    @usableFromInline var storage: [UInt8]
    @usableFromInline var end: Int
    /// The bytes kept in front of the message.
    public let headroom: Int

    /// An empty buffer with `headroom` bytes in front, room for `capacity` bytes of messages to begin with.
    public init(headroom: Int = 0, capacity: Int = 1024) {
        precondition(headroom >= 0 && capacity >= 0, "a buffer's headroom and capacity are not negative")
        self.headroom = headroom
        storage = [UInt8](repeating: 0, count: headroom + capacity)
        end = headroom
    }

    /// The bytes of messages written since the buffer was last emptied.
    public var count: Int { end - headroom }

    public var isEmpty: Bool { end == headroom }

    /// A copy of the messages' bytes.
    public var bytes: [UInt8] { Array(storage[headroom..<end]) }

    /// Forgets the messages, keeping the memory.
    public mutating func removeAll() {
        end = headroom
    }

    /// Lends the messages' bytes (without the headroom) to `body`.
    @inlinable
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let (start, end) = (headroom, end)
        return try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Lends the headroom followed by the messages to `body`, writable: what a transport that puts its
    /// header in front needs.
    @inlinable
    public mutating func withUnsafeMutableBytesIncludingHeadroom<Result>(
        _ body: (UnsafeMutableRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let end = end
        return try storage.withUnsafeMutableBytes { try body(UnsafeMutableRawBufferPointer(rebasing: $0[..<end])) }
    }

    /// Appends what `body` writes, at most `bound` bytes; when it needed more after all, the attempt is
    /// discarded and made again with more room (a low estimate costs time, never correctness).
    @inline(__always)
    mutating func appendJSON(bound: Int, _ body: (inout JSONWriter) -> Void) {
        var room = Swift.max(bound, 64)
        while true {
            if storage.count - end < room {
                // Doubling, so that a stream of growing messages does not grow the memory message by message.
                appendZeros(Swift.max(room, storage.count), to: &storage)
            }
            if let written = writeJSON(into: &storage, at: end, room: room, body) {
                end += written
                return
            }
            room *= 2
        }
    }
}
