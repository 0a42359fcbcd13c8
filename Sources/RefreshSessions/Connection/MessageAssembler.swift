/// Puts a WebSocket message back together from the pieces the transport delivers (a message larger than
/// the receive buffer, or sent in fragments, arrives in several), and counts it against the size limit
/// while it arrives. Text and binary messages alike (a binary one is the page's touch, docs/PROTOCOL.md).
public struct MessageAssembler: Sendable {
    /// What one piece completed.
    public enum Piece: Equatable, Sendable {
        /// The message goes on in a later piece.
        case partial
        /// The message passed the limit (`bytes` so far); the caller closes with 1009 and reads no more.
        case tooLarge(bytes: Int)
        /// A whole message that arrived in this one piece (`binary` as its frame said): use the piece itself
        /// (no copy).
        case inPiece
        /// A whole message assembled from several pieces, binary when its first frame was.
        case assembled([UInt8], binary: Bool)
    }

    /// The largest message taken, in bytes.
    public let limit: Int
    private var inMessage = false
    private var isBinary = false
    private var received = 0
    private var buffer: [UInt8] = []

    public init(limit: Int) {
        self.limit = limit
    }

    /// Takes the next piece of the current message (`binary` as its first frame said; `isLast`: the
    /// message ends with it).
    ///
    /// Inlined where the host takes a piece, the rest out of line in `assemble`: nearly
    /// every message is a whole message in one piece, within the limit, and then there is nothing to
    /// note (the next piece starts a message again, and the buffer is empty between messages). (Neither the
    /// general path's writes nor a call for it: docs/PERFORMANCE.md, "Inlining on an input's path".)
    @inline(__always)
    public mutating func take(_ piece: UnsafeRawBufferPointer, binary: Bool, isLast: Bool) -> Piece {
        if !inMessage && isLast && piece.count <= limit { return .inPiece }
        return assemble(piece, binary: binary, isLast: isLast)
    }

    /// ``take(_:binary:isLast:)`` for any other piece.
    @inline(never)
    private mutating func assemble(_ piece: UnsafeRawBufferPointer, binary: Bool, isLast: Bool) -> Piece {
        if !inMessage {
            inMessage = true
            isBinary = binary
            received = 0
        }
        received += piece.count
        if received > limit {
            inMessage = false
            buffer = []
            return .tooLarge(bytes: received)
        }
        if isLast && buffer.isEmpty {
            inMessage = false
            return .inPiece
        }
        buffer.append(contentsOf: piece)
        guard isLast else { return .partial }
        inMessage = false
        // Handed over whole; the connection keeps no memory of it (a quiet connection that once received a
        // large message holds nothing for it).
        let message = buffer
        buffer = []
        return .assembled(message, binary: isBinary)
    }

    /// Bytes held for a message being put together (0 between messages).
    public var reservedCapacity: Int { buffer.capacity }
}
