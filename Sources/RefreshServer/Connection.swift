import CLibWebSockets
import RefreshKit
import RefreshWire

/// A message waiting in a connection's outbox. Encoded only when it is written.
enum OutgoingMessage {
    case welcome(Welcome)
    case error(WireError)
    case pong(t: Double, serverTime: Timestamp)
    case event(Event)
    /// `room`: how many devices share the session now (the receiver's member number is added when written).
    case room(members: Int)
    /// A message encoded when it was queued (a `trace`: a snapshot of the recording at the request).
    case encoded([UInt8])
}

/// One WebSocket connection and the room (session) it is a member of. Owned by the service thread (the
/// only thread that ever touches it); lws's per-session data holds a retained pointer to it from
/// `ESTABLISHED` to `CLOSED`.
///
/// Its stored properties are `@exclusivity(unchecked)`, like ``Room``'s: one thread uses them, never with
/// overlapping accesses (no callback re-enters the code that holds one), and the runtime's access checks
/// on these two classes cost about 1 700 instructions per frame, 8 % of the server's own work (callgrind,
/// docs/PERFORMANCE.md).
final class Connection {
    let id: UInt64
    let wsi: OpaquePointer
    let peer: String

    /// The room, once `hello` was admitted; and which of its members this connection is.
    @exclusivity(unchecked) var room: Room?
    @exclusivity(unchecked) var member = 0

    // Receiving.
    /// The bytes of a message that arrived in several `RECEIVE` callbacks.
    @exclusivity(unchecked) var receiveBuffer: [UInt8] = []
    /// Bytes of the current message so far (counted even when not stored, e.g. binary).
    @exclusivity(unchecked) var receivedBytes = 0
    @exclusivity(unchecked) var inMessage = false
    @exclusivity(unchecked) var messageIsBinary = false

    // Sending.
    /// Control replies and events, oldest first; bounded by `maxQueuedMessages`.
    @exclusivity(unchecked) var outbox = RingBuffer<OutgoingMessage>()
    /// The single pending frame: when set, the next write with an empty outbox sends the room's frame as
    /// of that moment (latest state wins; a slow client just receives fewer, fresher frames, and never
    /// holds back the other members).
    @exclusivity(unchecked) var framePending = false
    /// How the page wants its frames (`hello.frames`): whole `frame` messages, or `delta`s after the first.
    @exclusivity(unchecked) var frameFormat = FrameFormat.full
    /// For a delta connection: the frame the page holds (the last frame or delta written to it), the base of
    /// its next delta. Nil until it has been written a whole frame since it joined its room
    /// (``Room/attach(_:member:)``), so the first frame after a `welcome` is always whole.
    @exclusivity(unchecked) var frameBase: SharedFrame?
    /// Set once the client was told it is `lagging`, cleared when the outbox drains.
    @exclusivity(unchecked) var lagReported = false
    /// `LWS_PRE` bytes of headroom, then the message being written; reused for every write.
    @exclusivity(unchecked) var sendBuffer: [UInt8]
    /// Shutting down: flush the outbox, then close with 1001.
    @exclusivity(unchecked) var closing = false
    /// A close code and reason are set: the next `SERVER_WRITEABLE` issues the close (`issueClose`), and
    /// lws sends the close frame. Everything that arrives meanwhile is read and dropped. (Returning -1 from `RECEIVE`
    /// instead can leave lws 4.1.6's parser mid-frame, and it then drops the socket without the close.)
    @exclusivity(unchecked) var closeRequested = false
    /// The close was issued (or the connection is being killed); lws owns the close from here.
    @exclusivity(unchecked) var closeIssued = false
    /// Until lws delivers `CLOSED`: after it the `wsi` is gone and nothing may be written.
    @exclusivity(unchecked) var isOpen = true

    // Screening (Gatekeeper.swift): the message rate and the page clock of this connection.
    @exclusivity(unchecked) var rateLimiter = RateLimiter(ratePerSecond: 300, burst: 600, closeAfterSeconds: 3)
    @exclusivity(unchecked) var pageClock = TimestampGuard()

    // Liveness (Keepalive.swift).
    /// When the peer was last heard from: a message or a pong (µs, lws's clock).
    @exclusivity(unchecked) var lastHeard: Int64
    /// A ping is to be written at the next `SERVER_WRITEABLE`.
    @exclusivity(unchecked) var pingDue = false
    /// When the sweep asked for a ping since ``lastHeard`` (µs, lws's clock); the peer's time to answer runs
    /// from then, even if the ping itself waits behind a full socket.
    @exclusivity(unchecked) var pingedAt: Int64?

    // Counters, logged when the connection closes.
    @exclusivity(unchecked) var messagesReceived: UInt64 = 0
    @exclusivity(unchecked) var framesSent: UInt64 = 0
    /// When the oldest input of this connection that no frame written to it has included yet was received
    /// (server µs), for the input-to-frame histogram (``ServerMetrics/inputToFrame``).
    @exclusivity(unchecked) var unansweredInputAt: Int64?
    @exclusivity(unchecked) var messagesSent: UInt64 = 0
    @exclusivity(unchecked) var framesCoalesced: UInt64 = 0
    @exclusivity(unchecked) var messagesDropped: UInt64 = 0
    @exclusivity(unchecked) var decodeErrors: UInt64 = 0

    init(id: UInt64, wsi: OpaquePointer, peer: String, now: Int64) {
        self.id = id
        self.wsi = wsi
        self.peer = peer
        lastHeard = now
        sendBuffer = [UInt8](repeating: 0, count: Int(RK_LWS_PRE))
        sendBuffer.reserveCapacity(Int(RK_LWS_PRE) + 4096)
    }

    /// Whether a `SERVER_WRITEABLE` would write anything.
    var hasPendingOutput: Bool { pingDue || !outbox.isEmpty || framePending }

    /// The peer spoke (a message or a pong): it is alive.
    func heard(at now: Int64) {
        lastHeard = now
        pingedAt = nil
    }

    /// Marks the session's frame as due; counts a frame that replaces one not yet sent.
    func markFramePending() {
        if framePending { framesCoalesced &+= 1 }
        framePending = true
    }

    /// Queues a control message or an event, dropping the oldest when the outbox is full (and then
    /// telling the client, once per episode, that it is `lagging`).
    /// - Returns: `true` when this call started a lagging episode (the caller logs it, once).
    @discardableResult
    func enqueue(_ message: OutgoingMessage, limit: Int) -> Bool {
        var startedLagging = false
        if outbox.count >= limit {
            outbox.removeFirst()
            messagesDropped &+= 1
            if !lagReported {
                lagReported = true
                startedLagging = true
                // Make room for the notice too, so the bound holds.
                outbox.removeFirst()
                messagesDropped &+= 1
                outbox.append(
                    .error(
                        WireError(
                            code: "lagging",
                            message: "the connection fell behind; the oldest queued messages were dropped",
                            ref: nil)))
            }
        }
        outbox.append(message)
        return startedLagging
    }
}
