import DequeModule

/// One direction's bytes in flight: chunks in arrival order, each with the time it may be written, and
/// the end of the stream once the sender closed its side. Bounded: the proxy stops reading from a side
/// while its queue holds more than `limitBytes` (TCP's flow control then slows the sender).
public struct ChunkQueue: Sendable {
    /// A chunk, the end of the stream (the sender's FIN), or the sender's connection failing (a reset),
    /// each with its release time: like the segments on a real link, a FIN or RST arrives after the
    /// bytes sent before it.
    public enum Item: Sendable, Equatable {
        case bytes([UInt8])
        case end
        case reset
    }

    /// Oldest first: appended at the back, written and dropped at the front.
    private var items = Deque<(item: Item, release: Double)>()
    /// Bytes of the head chunk already written.
    public private(set) var written = 0
    /// Bytes queued and not yet written.
    public private(set) var queuedBytes = 0
    /// Whether the end of the stream or a reset has been queued (nothing may follow it).
    public private(set) var ended = false
    public let limitBytes: Int

    public init(limitBytes: Int = 4 << 20) { self.limitBytes = limitBytes }

    public var isEmpty: Bool { items.isEmpty }
    /// Whether the reader should stop reading this direction's source.
    public var isFull: Bool { queuedBytes > limitBytes }
    /// The head's release time (nil: empty).
    public var nextRelease: Double? { items.first?.release }

    /// Appends a chunk (bytes must not be empty) or the end of the stream.
    public mutating func append(_ item: Item, release: Double) {
        precondition(!ended, "nothing follows the end of a stream")
        switch item {
        case .bytes(let bytes):
            precondition(!bytes.isEmpty, "an empty chunk is an end of stream")
            queuedBytes += bytes.count
        case .end, .reset:
            ended = true
        }
        items.append((item, release))
    }

    /// The head if it is released at `now`, with the part of it not yet written.
    public func released(at now: Double) -> Item? {
        guard let head = items.first, head.release <= now else { return nil }
        return head.item
    }

    /// Records that `count` more bytes of the head chunk were written; drops the chunk once all are.
    public mutating func consume(_ count: Int) {
        guard case .bytes(let bytes) = items.first?.item else { return }
        written += count
        queuedBytes -= count
        if written >= bytes.count { dropHead() }
    }

    /// Drops the head item (the end of stream, once it was acted on).
    public mutating func dropHead() {
        precondition(!isEmpty)
        if case .bytes(let bytes) = items.removeFirst().item { queuedBytes -= bytes.count - written }
        written = 0
    }
}
