import DequeModule

/// One echo connection's state: the message being received and the messages waiting to go back, oldest first.
/// No libwebsockets here: ``echoCallback`` feeds it what lws delivers and does what it answers.
final class EchoConnection {
    /// A whole message waiting to be echoed, stored behind `headroom` spare bytes so that `lws_write` can use
    /// the array in place (lws writes its frame header into the LWS_PRE bytes in front of the payload).
    struct Message {
        var binary: Bool
        var framed: [UInt8]
    }

    /// What a received chunk leads to.
    enum Received: Equatable {
        /// More of the message is to come.
        case partial
        /// The message is complete and queued; `queued` messages are now waiting (1: only this one).
        case complete(queued: Int)
        /// The connection must close: the message is over ``WebSocketEcho/maxMessageBytes``, or
        /// ``WebSocketEcho/maxQueuedMessages`` echoes are waiting (the peer sends and does not read).
        case close(Refusal)
        /// Already refused: nothing more is read.
        case ignored
    }

    enum Refusal: Equatable {
        case tooLarge
        case notReading
    }

    let headroom: Int
    let maxMessageBytes: Int
    let maxQueued: Int
    private(set) var outbox = Deque<Message>()
    private var message: Message?
    /// Set once a limit was passed; the next write closes.
    private(set) var refusal: Refusal?

    init(headroom: Int, maxMessageBytes: Int, maxQueued: Int) {
        self.headroom = headroom
        self.maxMessageBytes = maxMessageBytes
        self.maxQueued = maxQueued
    }

    /// A chunk of a message as lws delivers it: part of a frame, or of one fragment of a fragmented message.
    /// - Parameters:
    ///   - binary: the message's opcode (read on its first chunk; continuation frames inherit it).
    ///   - remaining: bytes of the current frame still to come (`lws_remaining_packet_payload`).
    ///   - final: the current frame is the message's last fragment (`lws_is_final_fragment`).
    func receive(_ chunk: UnsafeRawBufferPointer, binary: Bool, remaining: Int, final: Bool) -> Received {
        if refusal != nil { return .ignored }
        // Taken out of `message` so that appending does not copy the bytes (one owner).
        var current = message ?? Message(binary: binary, framed: [UInt8](repeating: 0, count: headroom))
        message = nil
        guard current.framed.count - headroom + chunk.count <= maxMessageBytes else {
            refusal = .tooLarge
            return .close(.tooLarge)
        }
        // Room for the rest of this frame at once, growing geometrically (a message of many small fragments
        // must not reallocate on each one).
        let needed = current.framed.count + chunk.count + remaining
        if needed > current.framed.capacity {
            current.framed.reserveCapacity(max(needed, 2 * current.framed.capacity))
        }
        current.framed.append(contentsOf: chunk)
        guard remaining == 0, final else {
            message = current
            return .partial
        }
        guard outbox.count < maxQueued else {
            refusal = .notReading
            return .close(.notReading)
        }
        outbox.append(current)
        return .complete(queued: outbox.count)
    }

    /// The oldest waiting message, removed from the queue.
    func next() -> Message? { outbox.popFirst() }
}
