import RefreshKit
import RefreshWire

/// One WebSocket connection as the session host sees it: where it is in its life, the session member it
/// is, what it has to send, and what the screens and the keepalive know of it. The transport knows it by
/// ``id``; the host never sees a socket.
///
/// Owned by the thread that drives the host (the only one that touches it). Its stored properties are
/// `@exclusivity(unchecked)`, like ``Session``'s: one thread uses them, never with overlapping accesses (no
/// call re-enters the code that holds one), and the runtime's access checks on these two classes were a
/// noticeable part of the server's own work (docs/PERFORMANCE.md, "Exclusivity checks").
public final class Connection {
    // What the host reads or writes of a connection on every input and every write comes first, together (the
    // rate limiter last among them, its own fields for an accepted message first); what is read only now and then
    // after it. With many sessions a connection is cold when its input comes, so what an input touches lies
    // together, and the box of ``heldFrameBase`` is not read after each write (``holdsFrameBase`` says whether it
    // holds one): docs/PERFORMANCE.md, "Cold lines".
    @exclusivity(unchecked) public internal(set) var lifecycle = ConnectionLifecycle.open
    /// How the page wants its frames (`hello.frames`): whole `frame` messages, or `delta`s after the first.
    @exclusivity(unchecked) var frameFormat = FrameFormat.full
    /// A ping is to be written at the next write.
    @exclusivity(unchecked) public internal(set) var pingDue = false
    /// Its `hello` waits for the store's answer (a take-over's read): the messages that come meanwhile wait
    /// here (``heldMessages``), and are handled in order once it is answered (``SessionHost/storeRead(_:at:)``).
    @exclusivity(unchecked) var awaitingStore = false
    /// Whether ``heldFrameBase`` holds a frame: read after every write, where the frame's own tag lies in a
    /// line of its own at the object's end.
    @exclusivity(unchecked) private(set) var holdsFrameBase = false
    /// What its session member may do (`MemberRole`), read by the host before every input it applies.
    @exclusivity(unchecked) public internal(set) var role = MemberRole.owner
    /// The session, once `hello` was admitted; and which of its members this connection is.
    @exclusivity(unchecked) public internal(set) var session: Session?
    @exclusivity(unchecked) public internal(set) var member = 0
    /// ``session``, not retained: for a caller that uses it only while nothing it calls can let it go.
    var unretainedSession: Unmanaged<Session>? { session.map { Unmanaged.passUnretained($0) } }
    /// The address of ``session``'s object (`unretainedSession`'s), for a transport that asks the CPU to fetch it
    /// ahead of an input (RefreshServer's `SessionPrefetch`). Read through this accessor, made in this module: read
    /// from the transport's module, the stored property paid the runtime's dynamic exclusivity check on every input
    /// (docs/PERFORMANCE.md, "Exclusivity checks"), as for ``transport``.
    public var sessionAddress: UnsafeRawPointer? { unretainedSession.map { UnsafeRawPointer($0.toOpaque()) } }
    /// For a delta connection: the sequence number of the frame the page holds (the last frame or delta written
    /// to it), the base of its next delta. Nil until it has been written a whole frame since it joined its
    /// session (``Session/attach(_:member:)``), so the first frame after a `welcome` is always whole. The session
    /// keeps that frame while the connection holds it: as its latest or previous frame, or, once it has made
    /// two frames since, in ``heldFrameBase``.
    @exclusivity(unchecked) var frameBase: UInt64?

    @exclusivity(unchecked) var assembler: MessageAssembler
    @exclusivity(unchecked) public internal(set) var outbox: Outbox

    // Screening: the page clock (and the message rate, below).
    @exclusivity(unchecked) var pageClock = TimestampGuard()

    // Liveness (Keepalive.swift).
    /// When the peer was last heard from: a message or a pong (µs).
    @exclusivity(unchecked) public internal(set) var lastHeard: Int64
    /// When the sweep asked for a ping since ``lastHeard`` (µs); the peer's time to answer runs from then,
    /// even if the ping itself waits behind a full socket.
    @exclusivity(unchecked) var pingedAt: Int64?

    /// When the oldest input of this connection that no frame written to it has included yet was received
    /// (µs), for the input-to-frame histogram.
    @exclusivity(unchecked) var unansweredInputAt: Int64?

    // Counters, logged when the connection closes.
    @exclusivity(unchecked) public internal(set) var messagesReceived: UInt64 = 0
    @exclusivity(unchecked) public internal(set) var messagesSent: UInt64 = 0
    @exclusivity(unchecked) public internal(set) var framesSent: UInt64 = 0

    /// The transport's own handle for this connection (lws's `wsi`), set and cleared by the transport; the host
    /// never reads it. Nil once the transport reported the connection gone. (Read through accessors made in
    /// this module: the transport's module, reaching the stored property itself, paid the runtime's dynamic
    /// exclusivity check on every action it carried out: docs/PERFORMANCE.md, "Exclusivity checks".)
    public var transport: OpaquePointer? {
        get { transportHandle }
        set { transportHandle = newValue }
    }
    @exclusivity(unchecked) var transportHandle: OpaquePointer?

    /// The message rate.
    @exclusivity(unchecked) var rateLimiter: RateLimiter
    /// The message budget of the connection's address, shared with its other connections; nil when exempt.
    var addressBucket: AddressRates.Bucket?

    // Read rarely, from here on.

    /// The transport's number for it.
    public let id: UInt64
    /// What it sent while its `hello` waits for the store: each message's bytes, and whether it was binary.
    @exclusivity(unchecked) var heldMessages: [(bytes: [UInt8], binary: Bool)] = []
    @exclusivity(unchecked) public internal(set) var decodeErrors: UInt64 = 0

    /// The frame ``frameBase`` names when the session has made two frames since (a member written less often
    /// than the frames are made): a copy of it, which the session gives the connection as it lets the frame go.
    var heldFrameBase: SharedFrame? {
        get { heldFrame?.frame }
        set {
            heldFrame = newValue.map(HeldFrame.init)
            holdsFrameBase = newValue != nil
        }
    }
    /// ``heldFrameBase``, boxed: a connection holds one only while it lags behind its session's frames, and a
    /// frame inline would be a large part of every connection that never does (docs/PERFORMANCE.md, "Memory per
    /// connected session").
    @exclusivity(unchecked) private var heldFrame: HeldFrame?

    /// The peer's address, for the log.
    public let peer: String

    /// The node whose backend the balancer routed this connection through (its `X-RefreshKit-Backend` header,
    /// scripts/cluster_config.py), nil without one. When it names another node than this process's, the
    /// balancer found that node down and sent the page here as its backup (`NodeLease`).
    @exclusivity(unchecked) public var balancerBackend: String?

    init(id: UInt64, peer: String, now: Int64, limits: SessionHost.Configuration) {
        self.id = id
        self.peer = peer
        lastHeard = now
        assembler = MessageAssembler(limit: limits.maxMessageBytes)
        outbox = Outbox(limit: limits.maxQueuedMessages, limitBytes: limits.maxQueuedBytes)
        rateLimiter = RateLimiter(
            ratePerSecond: limits.messagesPerSecond, burst: limits.messageBurst,
            closeAfterSeconds: limits.floodCloseSeconds)
    }

    /// Whether a write would send anything.
    public var hasPendingOutput: Bool { pingDue || !outbox.isEmpty || outbox.framePending }

    /// The peer spoke (a message or a pong): it is alive.
    func heard(at now: Int64) {
        lastHeard = now
        pingedAt = nil
    }
}

/// A frame a lagging connection holds (``Connection/heldFrameBase``), in an object of its own.
private final class HeldFrame: Sendable {
    let frame: SharedFrame

    init(_ frame: SharedFrame) {
        self.frame = frame
    }
}
