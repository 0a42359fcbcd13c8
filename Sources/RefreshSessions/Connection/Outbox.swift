import DequeModule
import RefreshKit
import RefreshWire

/// What a connection has to send: control replies and events in order, bounded (each encoded only when it is
/// written), and at most one frame, always the session's latest.
///
/// Frames are never queued: a connection marked ``framePending`` is written the session's frame as of the
/// moment it is written, so a slow reader gets fewer, fresher frames and never holds back the other members.
/// The messages are bounded by count and by bytes (docs/HARDENING.md, "Budgets in bytes"): when ``limit`` are
/// waiting, or they hold more than ``limitBytes`` (`ServerMessage/queuedByteEstimate`), the oldest are dropped and
/// the client is told, once per episode, that it is `lagging`. A trace is the one large message a client can ask
/// for at will: at most one waits at a time, and a request while it waits is answered by it (the newer recording
/// is the one it would have got a moment later), so a client that asks and never reads holds one.
public struct Outbox: Sendable {
    // 32-bit counts and the flags side by side: every connection holds one (docs/PERFORMANCE.md, "Memory per
    // connected session")
    private let countLimit: Int32
    private let bytesLimit: Int32
    private var messages = Deque<ServerMessage>()
    /// What the waiting messages hold, by their estimates.
    private var bytesQueued: Int32 = 0
    /// A trace waits to be written.
    public private(set) var traceQueued = false
    /// The session's frame is due.
    public private(set) var framePending = false
    /// The client was told it is `lagging`; cleared when the outbox drains.
    private var lagReported = false
    /// Messages dropped to keep the bound, and frames that replaced one not yet written.
    public private(set) var dropped: UInt64 = 0
    public private(set) var framesCoalesced: UInt64 = 0

    public init(limit: Int, limitBytes: Int = 1 << 20) {
        countLimit = Int32(clamping: limit)
        bytesLimit = Int32(clamping: limitBytes)
    }

    public var limit: Int { Int(countLimit) }
    public var limitBytes: Int { Int(bytesLimit) }
    public var queuedBytes: Int { Int(bytesQueued) }

    public var isEmpty: Bool { messages.isEmpty }
    public var count: Int { messages.count }

    /// Queues `message`, dropping the oldest when the outbox is full (and then queueing the `lagging`
    /// notice, once per episode). - Returns: `true` when this call started a lagging episode.
    @discardableResult
    public mutating func enqueue(_ message: ServerMessage) -> Bool {
        let isTrace: Bool
        if case .trace = message { isTrace = true } else { isTrace = false }
        if isTrace {
            if traceQueued { return false }  // the waiting one answers this request too
            traceQueued = true
        }
        // A trace is bounded by its own limits (TraceLimits) and counted apart: the bytes bound the rest.
        let bytes = isTrace ? 0 : message.queuedByteEstimate
        var startedLagging = false
        while !messages.isEmpty && (messages.count >= limit || queuedBytes + bytes > limitBytes) {
            guard drop() else { break }
            if !lagReported {
                lagReported = true
                startedLagging = true
                // Room for the notice too, so the bounds hold.
                if !messages.isEmpty { drop() }
                append(
                    .error(
                        WireError(
                            code: .lagging,
                            message: "the connection fell behind; the oldest queued messages were dropped")))
            }
        }
        append(message, bytes: bytes)
        return startedLagging
    }

    private mutating func append(_ message: ServerMessage, bytes: Int? = nil) {
        bytesQueued &+= Int32(clamping: bytes ?? message.queuedByteEstimate)
        messages.append(message)
    }

    /// Drops the oldest message; never the `lagging` notice of this episode, which stays first in line.
    /// - Returns: whether a message was dropped (not when the notice is all there is).
    @discardableResult
    private mutating func drop() -> Bool {
        guard var oldest = messages.popFirst() else { return false }
        if lagReported, case .error(let error) = oldest, error.code == .lagging {
            guard let next = messages.popFirst() else {
                messages.prepend(oldest)
                return false
            }
            messages.prepend(oldest)
            oldest = next
        }
        forget(oldest)
        dropped &+= 1
        return true
    }

    /// Takes what `message` held off the counts.
    private mutating func forget(_ message: ServerMessage) {
        if case .trace = message {
            traceQueued = false
        } else {
            bytesQueued &-= Int32(clamping: message.queuedByteEstimate)
        }
    }

    /// The oldest message, taken out.
    public mutating func next() -> ServerMessage? {
        guard let message = messages.popFirst() else { return nil }
        forget(message)
        if messages.isEmpty {
            bytesQueued = 0
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
