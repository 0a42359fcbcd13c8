import DequeModule
import Logging
import RefreshKit
import RefreshWire

/// The server's rules, without a socket: which connection is which session's member, what each message
/// does, what every member is sent and when, when the timer must fire, and when a connection is closed.
///
/// The transport tells the host what happened — a connection opened, a piece of a message arrived, a
/// connection can be written, a pong came, the timer fired, a connection closed, the store answered — always
/// with the time it happened (µs on the transport's clock, which never steps back), and carries out the
/// ``HostAction``s the host leaves in `actions` (``carryOutActions(_:)``). Nothing here reads a clock, touches a
/// socket or reads the store (a read is an action out and an event back, as a write is), or sleeps, so Swift tests
/// drive every rule (admission, resume, the newer connection wins, expiry, coalescing, the tick) event by event
/// (`SessionHostTests`). In the style of swift-nio's `HTTPServerPipelineHandler` and Hummingbird's
/// `WebSocketStateMachine`: state in, actions out.
///
/// One frame per read: when the server falls behind, one read brings several queued inputs of a page, and
/// the transport delivers them one after the other. A frame for each would cost an encoding and a write
/// (most of a frame's cost) for states the page replaces before it draws them. So the frame an input makes
/// is held until the transport moves on — to another socket, a timer, the end of the loop's turn — and
/// calls ``flushHeldFrame()``; the inputs behind it in the same read only update it. A page that keeps up
/// sends one input per read and sees no difference. Frames saved are counted (``Outbox/framesCoalesced``).
///
/// Confined to one thread (the transport's), like everything it owns. Its stored properties that every input
/// touches skip the runtime's exclusivity checks, as ``Connection``'s and ``Session``'s do, for the same reason
/// (one thread, no overlapping access; docs/PERFORMANCE.md, "Exclusivity checks").
public final class SessionHost {
    public let configuration: Configuration
    let logger: Logger
    let metrics: HostMetrics
    /// Messages, inputs, frames, bytes and input-to-frame times so far, in plain integers (the transport reads
    /// them for its metrics page).
    @exclusivity(unchecked) public internal(set) var counters = HostCounters()
    /// `http://HOST:PORT` as a device on the network opens it: the `welcome`'s share base and the log's links
    /// (known once the transport has bound its port).
    public var shareBase = ""
    /// Bytes the transport needs free before each message it writes (lws's `LWS_PRE`).
    let headroom: Int

    let decoder: MessageDecoder
    let encoder = MessageEncoder()
    /// The transport's headroom, then the control message or event being written: one buffer for every
    /// connection (the transport copies what the socket does not take at once), so a quiet connection holds
    /// none (docs/PERFORMANCE.md, "Memory per connected session").
    @exclusivity(unchecked) var sendBuffer: [UInt8]
    let keepalive: Keepalive

    /// Every open connection, by the transport's id.
    @exclusivity(unchecked) public internal(set) var connections: [UInt64: Connection] = [:]
    /// What the transport knew of each client that it gave (``opened(id:peer:credentials:at:)``), by connection.
    var credentials: [UInt64: String] = [:]
    /// The message budgets of the client addresses (``AddressRates``).
    var addressRates: AddressRates
    /// Every session this process holds, by id.
    let registry: SessionRegistry
    @exclusivity(unchecked) var tickScheduler: TickScheduler
    @exclusivity(unchecked) var sweepArmed = false
    /// One sweep a second while any connection is open.
    static let sweepPeriod: Int64 = 1_000_000
    /// Set by ``beginShutdown(at:)``: nothing is scheduled any more and every connection drains.
    @exclusivity(unchecked) public internal(set) var shuttingDown = false
    /// The session whose frame waits for the end of the read that brought its input.
    @exclusivity(unchecked) var heldSession: Session?

    /// Whether sessions are kept in a store for other processes to take over (docs/SCALING.md): the host then
    /// asks for writes (``HostAction/writeStore(_:)``) and reads (``HostAction/readStore(_:)``); `false`: in
    /// memory only.
    @exclusivity(unchecked) public var hasStore = false
    @exclusivity(unchecked) var storeLedger = StoreLedger()
    @exclusivity(unchecked) var nodeLease = NodeLease()
    /// When this process may send a session's frames (``ServingLease``, SessionHost+Serving.swift).
    @exclusivity(unchecked) var servingLease = ServingLease()
    /// The sessions this process took over from the store, and how (the `welcome`'s `takeover`).
    var takeOvers: [String: TakeOver] = [:]
    /// Sessions let go because the store said another process holds them at a newer epoch (``SessionFence``).
    public internal(set) var fencedSessions: UInt64 = 0
    /// The take-overs waiting for the store's answer, by session id (SessionHost+TakeOver.swift).
    var storeReads: [String: PendingStoreRead] = [:]
    /// Counts the host's reads from 1.
    var storeReadsAsked: UInt64 = 0
    /// The external feed's newest page as last polled (SessionHost+Feed.swift), for the sessions' "N new".
    var polledFeed: FeedPage?

    /// What the transport is to do, in order; after each call it carries them out with
    /// ``carryOutActions(_:)``, which clears them. Carrying one out may call the host again, which appends more.
    /// A deque: they are taken from the front as they are carried out (``carryOutActions(_:)``).
    @exclusivity(unchecked) var actions = Deque<HostAction>()

    public init(configuration: Configuration, logger: Logger, metrics: HostMetrics = .none, headroom: Int = 0) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        self.headroom = headroom
        decoder = MessageDecoder(presets: configuration.presets)
        addressRates = AddressRates(
            ratePerSecond: configuration.messagesPerSecondPerAddress, limitLoopback: configuration.limitLoopback)
        registry = SessionRegistry(configuration: configuration, logger: logger, headroom: headroom)
        sendBuffer = Self.emptySendBuffer(headroom: headroom)
        tickScheduler = TickScheduler(rate: configuration.tickRate)
        keepalive = Keepalive(
            pingIntervalSeconds: configuration.pingIntervalSeconds, hangupSeconds: configuration.hangupSeconds)
        actions.reserveCapacity(16)
    }

    public func clearActions() { actions.removeAll(keepingCapacity: true) }

    /// Hands each action to `carryOut`, in order, then clears them. Carrying one out may call the host again,
    /// and what that appends is handed over in the same pass. (The loop runs here, in the host's module, where
    /// its state skips the runtime's exclusivity checks; reading `actions` from the transport's module paid
    /// for a check on every access.) `carryOut` owns each action it is handed: a transport's `switch` on it
    /// binds its connection without a retain, and nothing is left here to free after the call (handed a borrowed
    /// action, the transport's closure retained the connection it bound, and both were released afterwards:
    /// docs/PERFORMANCE.md, "No copies per input").
    public func carryOutActions(_ carryOut: (consuming HostAction) -> Void) {
        // Each moved out of the front as it is carried out: no copy of it (and its connection) to free, and
        // nothing left to remove afterwards (an array's actions, moved out and then removed one by one from
        // its end, cost more on every input: docs/PERFORMANCE.md, "No copies per input").
        while let action = actions.popFirst() { carryOut(action) }
    }

    /// Every session held now, by id.
    public var sessions: [String: Session] { registry.sessions }
    /// Trace bytes held by all sessions together.
    public var traceBytes: Int { registry.traceBytes }
    /// The tick's counters.
    public var ticks: (run: UInt64, skipped: UInt64) { (tickScheduler.ticks, tickScheduler.skipped) }

    // MARK: - Connection events

    /// A WebSocket connection `id` from `peer` is open; `credentials`: what the transport knew of the client, for
    /// the embedder's `hello` hook (``HostConfiguration/authorize``).
    public func opened(id: UInt64, peer: String, credentials: String? = nil, at now: Int64) -> Connection {
        flushHeldFrame()
        let connection = Connection(id: id, peer: peer, now: now, limits: configuration)
        if let credentials { self.credentials[id] = credentials }
        connection.addressBucket = addressRates.join(peer)
        connections[id] = connection
        armSweep()
        logger.info("connection opened", metadata: ["connection": "\(id)", "peer": "\(peer)"])
        if shuttingDown {
            connection.lifecycle.drain()
            actions.append(.wantWrite(connection))
        }
        return connection
    }

    /// A piece of a message arrived on `connection` (`binary` as the message's first frame said; `isLast`:
    /// the message ends with it).
    public func received(
        _ piece: UnsafeRawBufferPointer, binary: Bool, isLast: Bool, on connection: Connection, at now: Int64
    ) {
        switch connection.lifecycle {
        case .open, .draining: break
        case .closeRequested, .closeIssued, .closed: return  // read and dropped
        }
        // An input of another session comes from another socket's read: the held frame goes first.
        if let held = heldSession, held !== connection.session { flushHeldFrame() }
        switch connection.assembler.take(piece, binary: binary, isLast: isLast) {
        case .partial:
            break
        case .tooLarge(let bytes):
            logger.notice(
                "message too large; closing with 1009",
                metadata: [
                    "connection": "\(connection.id)", "bytes": "\(bytes)+", "limit": "\(configuration.maxMessageBytes)",
                ])
            requestClose(connection, .messageTooBig)
        case .inPiece:
            process(piece, binary: binary, on: connection, at: now)
        case .assembled(let bytes, let binary):
            bytes.withUnsafeBytes { process($0, binary: binary, on: connection, at: now) }
        }
    }

    /// A pong arrived on `connection`: the peer is alive.
    public func pong(on connection: Connection, at now: Int64) {
        flushHeldFrame()
        connection.heard(at: now)
    }

    /// The transport reports `connection` gone: it leaves its session, and the counters are logged.
    public func closed(_ connection: Connection, at now: Int64) {
        connection.lifecycle.close()
        flushHeldFrame()
        connections[connection.id] = nil
        credentials[connection.id] = nil
        if connection.addressBucket != nil { addressRates.leave(connection.peer) }
        if connection.rateLimiter.refused > 0 {
            logger.notice(
                "connection was rate limited",
                metadata: ["connection": "\(connection.id)", "refusedMessages": "\(connection.rateLimiter.refused)"])
        }
        leaveSession(connection, reason: "connection closed", at: now)
        logger.info(
            "connection closed",
            metadata: [
                "connection": "\(connection.id)",
                "messagesIn": "\(connection.messagesReceived)",
                "framesOut": "\(connection.framesSent)",
                "framesCoalesced": "\(connection.outbox.framesCoalesced)",
                "messagesOut": "\(connection.messagesSent)",
                "dropped": "\(connection.outbox.dropped)",
                "rejected": "\(connection.decodeErrors)",
            ])
    }

    /// The transport moved on from the read that brought the held input (another socket, a timer, the end
    /// of the loop's turn): its frame is written now.
    public func flushHeldFrame() {
        guard let session = heldSession.take() else { return }
        writeFrames(of: session)
    }

    // MARK: - Shutdown

    /// Every connection is to flush what it has queued and close with 1001; nothing is scheduled any more.
    /// With a store, every session is handed to it first (the first action): the transport waits for the
    /// store's answer before it carries out the closes, so the pages reconnect to what the store has.
    public func beginShutdown(at now: Int64) {
        flushHeldFrame()
        if hasStore, !storeIsIdle {
            logger.error(
                "the session store has not answered the last write; the sessions are not handed over",
                metadata: ["sessions": "\(registry.sessions.count)"])
        }
        // hand every session over with nothing lost, and let the others take them at once (the lease ends)
        writeToStore(at: now, force: true, endingLease: true)
        servingLease.end()  // the lease ends in the store with that batch: no frame after it
        shuttingDown = true
        tickScheduler.stop()
        logger.info("shutting down", metadata: ["connections": "\(connections.count)"])
        for connection in connections.values {
            connection.lifecycle.drain()
            _ = connection.outbox.takeFrame()
            actions.append(.wantWrite(connection))
        }
    }

    /// The transport is being destroyed: the connections it still reports closed only let go of their sessions.
    public func tearDown() {
        shuttingDown = true
        heldSession = nil
        tickScheduler.stop()
        sweepArmed = false
        // A connection and its session hold each other: let go of both sides, so neither outlives the host.
        for connection in connections.values { connection.session = nil }
        connections.removeAll()
        storeReads.removeAll()
        registry.removeAll()
        clearActions()
    }

    // MARK: - Closing

    /// Decides `connection`'s close: the next write sends the close frame with `code`.
    func requestClose(_ connection: Connection, _ code: CloseCode) {
        guard connection.lifecycle.requestClose(code) else { return }
        actions.append(.wantWrite(connection))
    }

    /// Drops `connection` without a close handshake.
    func kill(_ connection: Connection) {
        guard connection.lifecycle.kill() else { return }
        actions.append(.kill(connection))
    }
}
