import DequeModule
import RefreshKit
import RefreshWire

/// What a connection has to send: control replies and events in order, bounded (each encoded only when it is
/// written), and at most one frame, always the session's latest.
///
/// Frames are never queued: a connection marked ``framePending`` is written the session's frame as of the
/// moment it is written, so a slow reader gets fewer, fresher frames and never holds back the other members.
/// The messages are bounded: when ``limit`` are waiting, the oldest are dropped and the client is told, once
/// per episode, that it is `lagging`.
public struct Outbox: Sendable {
    public let limit: Int
    private var messages = Deque<ServerMessage>()
    /// The session's frame is due.
    public private(set) var framePending = false
    /// The client was told it is `lagging`; cleared when the outbox drains.
    private var lagReported = false
    /// Messages dropped to keep the bound, and frames that replaced one not yet written.
    public private(set) var dropped: UInt64 = 0
    public private(set) var framesCoalesced: UInt64 = 0

    public init(limit: Int) {
        self.limit = limit
    }

    public var isEmpty: Bool { messages.isEmpty }
    public var count: Int { messages.count }

    /// Queues `message`, dropping the oldest when the outbox is full (and then queueing the `lagging`
    /// notice, once per episode). - Returns: `true` when this call started a lagging episode.
    @discardableResult
    public mutating func enqueue(_ message: ServerMessage) -> Bool {
        var startedLagging = false
        if messages.count >= limit {
            _ = messages.popFirst()
            dropped &+= 1
            if !lagReported {
                lagReported = true
                startedLagging = true
                // Session for the notice too, so the bound holds.
                _ = messages.popFirst()
                dropped &+= 1
                messages.append(
                    .error(
                        WireError(
                            code: .lagging,
                            message: "the connection fell behind; the oldest queued messages were dropped")))
            }
        }
        messages.append(message)
        return startedLagging
    }

    /// The oldest message, taken out.
    public mutating func next() -> ServerMessage? {
        guard let message = messages.popFirst() else { return nil }
        if messages.isEmpty {
            lagReported = false
            // Drained: give the queue's memory back (an empty `Deque` holds none), so a quiet connection
            // keeps nothing of the welcome or a burst of events.
            messages = Deque()
        }
        return message
    }

    /// Marks the session's frame as due; counts a frame that replaces one not yet written.
    public mutating func markFramePending() {
        if framePending { framesCoalesced &+= 1 }
        framePending = true
    }

    /// The frame is being written (or will never be: the connection closes).
    public mutating func takeFrame() -> Bool {
        defer { framePending = false }
        return framePending
    }
}
