import CLibWebSockets
import Logging
import RefreshKit
import RefreshWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The libwebsockets side of the server: the context, its callbacks, every connection and session, and
/// the tick. Confined to the service thread: it is created, run and destroyed there, and nothing else
/// touches it (the only cross-thread call is `lws_cancel_service`, made by ``Server``).
final class ServiceLoop {
    let configuration: ServerConfiguration
    let logger: Logger
    private let stopFlag: StopFlag

    /// The lws context, from ``create()`` until ``destroy()``.
    private(set) var context: OpaquePointer?
    /// The libuv loop lws runs on (`nil` on lws's poll loop), from ``create()`` until ``destroy()``.
    private var uvLoop: UnsafeMutablePointer<uv_loop_t>?
    /// The port actually bound.
    private(set) var port = 0

    private let resources = CResources()
    private let decoder = MessageDecoder()
    private let encoder = MessageEncoder()
    /// Origin, connection limits, static paths, rate limits, page clocks (Gatekeeper.swift).
    let gatekeeper: Gatekeeper
    /// The vital signs at `/metrics` (docs/OPERATIONS.md).
    let metrics = ServerMetrics()

    private var connections: [UInt64: Connection] = [:]
    private var nextConnectionID: UInt64 = 1
    /// Every session (room), by id.
    private let registry: SessionRegistry
    /// `http://HOST:PORT` as a device on the network can open it, for the share links in the log.
    private var shareBase = ""

    // The tick: one sul for the whole server, armed only while some session moves or waits.
    private let tick: UnsafeMutablePointer<rk_tick_t>
    /// The absolute time (µs, lws clock) the tick is armed for; `nil` = not armed.
    private var tickArmedAt: Int64?
    /// While ticking: the first tick's time and the index of the next one (deadline =
    /// origin + index · 1 s / rate, so the period carries no rounding drift).
    private var tickOrigin: Int64 = 0
    private var tickIndex: Int64 = 0
    private var ticking = false
    private var ticks: UInt64 = 0
    private var ticksSkipped: UInt64 = 0

    // Liveness: one sweep a second over every connection while there are any (Keepalive.swift).
    private let keepalive: Keepalive
    private let keepaliveSweep: UnsafeMutablePointer<rk_tick_t>
    private var keepaliveArmed = false
    private static let keepaliveSweepMicroseconds: Int64 = 1_000_000

    // Shutdown.
    private let shutdownWake: UnsafeMutablePointer<rk_tick_t>
    private var shuttingDown = false
    /// The room whose frame waits for the end of the read that brought its input (``hold(_:events:)``).
    private var heldRoom: Room?
    private var shutdownDeadline: Int64 = 0

    init(configuration: ServerConfiguration, logger: Logger, stopFlag: StopFlag) {
        self.configuration = configuration
        self.logger = logger
        self.stopFlag = stopFlag
        registry = SessionRegistry(configuration: configuration, logger: logger)
        gatekeeper = Gatekeeper(configuration: configuration.hardening, logger: logger)
        tick = .allocate(capacity: 1)
        tick.initialize(to: rk_tick_t())
        shutdownWake = .allocate(capacity: 1)
        shutdownWake.initialize(to: rk_tick_t())
        keepalive = Keepalive(
            pingIntervalSeconds: configuration.pingIntervalSeconds, hangupSeconds: configuration.hangupSeconds)
        keepaliveSweep = .allocate(capacity: 1)
        keepaliveSweep.initialize(to: rk_tick_t())
    }

    deinit {
        tick.deinitialize(count: 1)
        tick.deallocate()
        shutdownWake.deinitialize(count: 1)
        shutdownWake.deallocate()
        keepaliveSweep.deinitialize(count: 1)
        keepaliveSweep.deallocate()
    }

    private var owner: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: - Lifecycle

    /// Creates the context: binds the port, sets up the static mount and the `refreshkit.v1` protocol.
    func create() throws(ServerError) {
        guard let root = realpath(configuration.webRoot, nil) else {
            throw .webRootNotFound(configuration.webRoot)
        }
        let webRoot = String(cString: root)
        free(root)
        var status = stat()
        guard stat(webRoot, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw .webRootNotFound(configuration.webRoot)
        }

        var http = lws_protocols()
        http.name = resources.string("http")
        http.callback = httpGateCallback  // Origin, connection limits and static paths, then lws's dummy
        var refreshKit = lws_protocols()
        refreshKit.name = resources.string(Self.subprotocol)
        refreshKit.callback = refreshKitProtocolCallback
        refreshKit.per_session_data_size = MemoryLayout<UnsafeMutableRawPointer?>.size
        refreshKit.rx_buffer_size = 4096
        // One send() may carry a whole frame; larger messages are still sent, lws buffers the rest.
        refreshKit.tx_packet_size = 64 * 1024
        let echo = configuration.hardening.echoProtocol ? [EchoProtocol.entry(resources)] : []
        let protocols = resources.allocateArray([http, refreshKit] + echo + [lws_protocols()])

        // MIME types lws does not know (it answers 415 for them otherwise).
        var mimeTypes: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (suffix, type) in Self.extraMIMETypes.reversed() {
            var option = lws_protocol_vhost_options()
            option.next = UnsafePointer(mimeTypes)
            option.name = resources.string(suffix)
            option.value = resources.string(type)
            mimeTypes = resources.allocate(option)
        }

        var mount = lws_http_mount()
        mount.mountpoint = resources.string("/")
        mount.mountpoint_len = 1
        mount.origin = resources.string(webRoot)
        mount.def = resources.string("index.html")
        mount.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
        mount.extra_mimetypes = UnsafePointer(mimeTypes)
        let mounts = resources.allocate(mount)

        // Zero: lws's own ping/hang-up (its "validity" timers) stays off; see Keepalive.swift for why and
        // for what replaces it. lws would otherwise apply its default policy.
        let retryPolicy = resources.allocate(lws_retry_bo_t())

        var info = lws_context_creation_info()
        info.port = Int32(configuration.port)
        info.protocols = UnsafePointer(protocols)
        info.mounts = UnsafePointer(mounts)
        info.retry_and_idle_policy = UnsafePointer(retryPolicy)
        info.pt_serv_buf_size = 16 * 1024
        info.user = owner
        if !echo.isEmpty { info.pvo = UnsafePointer(EchoProtocol.defaultOption(resources)) }
        info.options =
            rk_opt_validate_utf8() | rk_opt_fail_upon_unable_to_bind() | rk_opt_security_headers()
        switch Self.classify(host: configuration.host) {
        case .anyIPv6:
            info.iface = nil  // every interface, dual-stack
        case .ipv4(let address):
            info.iface = resources.string(address)
            info.options |= rk_opt_disable_ipv6()  // an AF_INET listener, no v4-mapped detour
        case .other(let name):
            info.iface = resources.string(name)
        }

        var foreignLoop: UnsafeMutableRawPointer?
        if configuration.eventLoop == .libuv {
            // Our own loop, which lws joins: `run()` can then return after each turn (lws's own uv loop
            // would keep lws_service inside uv_run until the context dies).
            guard let loop = rk_uv_loop_create() else { throw .eventLoopFailed }
            uvLoop = loop
            foreignLoop = UnsafeMutableRawPointer(loop)
            info.options |= rk_opt_libuv()
        }
        let joinsForeignLoop = foreignLoop != nil
        let created = withUnsafeMutablePointer(to: &foreignLoop) { slot in
            if joinsForeignLoop { info.foreign_loops = slot }
            return lws_create_context(&info)
        }
        guard let context = created else {
            uvLoop = nil  // not run again, for the reason given below
            throw .listenFailed(host: configuration.host, port: configuration.port)
        }
        // On a foreign loop lws 4.1.6 returns a context even when the listener could not be bound
        // (FAIL_UPON_UNABLE_TO_BIND is only honoured on its own loop): no listening vhost = no server.
        guard let vhost = lws_get_vhost_by_name(context, "default"), lws_get_vhost_listen_port(vhost) > 0 else {
            // Destroying that half-made context unloads lws's uv plugin while handles it opened on our
            // loop still wait for their close callbacks (in the plugin): running the loop again would
            // jump into unmapped code. The loop (a few hundred bytes and an epoll descriptor) is left.
            lws_context_destroy(context)
            uvLoop = nil
            throw .listenFailed(host: configuration.host, port: configuration.port)
        }
        self.context = context
        port = Int(lws_get_vhost_listen_port(vhost))
        tick.pointee.owner = owner
        shutdownWake.pointee.owner = owner
        keepaliveSweep.pointee.owner = owner
        if let publicPort = configuration.hardening.publicPorts.first {
            // Pages come through a proxy on this machine (`refreshkit link`): share its address, as the
            // network sees it.
            shareBase = Self.shareBase(host: "0.0.0.0", port: publicPort)
        } else {
            shareBase = Self.shareBase(host: configuration.host, port: port)
        }
        gatekeeper.start(webRoot: webRoot, port: port, host: configuration.host)
        gatekeeper.metricsText = { [unowned self] in metricsPage() }
        logger.debug(
            "libwebsockets context created",
            metadata: ["webRoot": "\(webRoot)", "port": "\(port)", "host": "\(configuration.host)"])
    }

    /// The metrics page, its gauges set from what the server holds now.
    private func metricsPage() -> String {
        let members = registry.rooms.values.reduce(0) { $0 + $1.connectedCount }
        metrics.snapshot(
            ServerMetrics.Holdings(
                connections: connections.count, sessions: registry.rooms.count, members: members,
                traceBytes: registry.traceBytes))
        return metrics.text()
    }

    /// Services the context until a stop is requested and the connections are closed (or the grace
    /// period ran out). - Returns: `false` when lws reported a fatal error.
    func run() -> Bool {
        guard let context else { return false }
        while true {
            if stopFlag.isSet {
                if !shuttingDown { beginShutdown() }
                if connections.isEmpty || lws_now_usecs() >= shutdownDeadline { return true }
            }
            if let uvLoop {
                // One turn: whatever is ready (sockets, lws's timers, the wake-up pipe of
                // lws_cancel_service), then back here to look at the stop flag.
                uv_run(uvLoop, UV_RUN_ONCE)
            } else if lws_service(context, 0) < 0 {
                logger.error("lws_service failed; stopping")
                return false
            }
            releaseHeldFrame()
        }
    }

    /// Destroys the context (lws delivers `CLOSED` for every connection still open) and frees the C
    /// memory it used.
    func destroy() {
        shuttingDown = true  // `CLOSED` callbacks from here on only let go of their rooms
        lws_sul_cancel(&tick.pointee.sul)
        lws_sul_cancel(&shutdownWake.pointee.sul)
        lws_sul_cancel(&keepaliveSweep.pointee.sul)
        keepaliveArmed = false
        tickArmedAt = nil
        heldRoom = nil
        // On libuv this runs the loop until lws has closed everything (CLOSED callbacks arrive in it).
        rk_uv_destroy(context, uvLoop)
        context = nil
        uvLoop = nil
        connections.removeAll()
        registry.removeAll()
        resources.releaseAll()
        logger.debug("libwebsockets context destroyed", metadata: ["ticks": "\(ticks)", "skipped": "\(ticksSkipped)"])
    }

    private func beginShutdown() {
        shuttingDown = true
        let now = lws_now_usecs()
        shutdownDeadline = now + Int64(configuration.shutdownGraceMilliseconds) * 1000
        lws_sul_cancel(&tick.pointee.sul)
        tickArmedAt = nil
        ticking = false
        logger.info("shutting down", metadata: ["connections": "\(connections.count)"])
        for connection in connections.values {
            connection.closing = true
            connection.framePending = false
            lws_callback_on_writable(connection.wsi)
        }
        if !connections.isEmpty, let context {
            // Wakes lws_service at the deadline, in case no connection does.
            lws_sul_schedule(context, 0, &shutdownWake.pointee.sul, shutdownWakeCallback, shutdownDeadline - now)
        }
    }

    // MARK: - Callbacks

    /// The `refreshkit.v1` protocol callback, on the service thread.
    func handle(
        wsi: OpaquePointer,
        reason: lws_callback_reasons,
        user: UnsafeMutableRawPointer?,
        input: UnsafeMutableRawPointer?,
        length: Int
    ) -> Int32 {
        // lws moved on from the read that brought the held input: its frame goes first. (`CLOSED` releases
        // it itself, once the closing connection is marked: its socket is gone.)
        if heldRoom != nil && reason != LWS_CALLBACK_RECEIVE && reason != LWS_CALLBACK_CLOSED {
            releaseHeldFrame()
        }
        switch reason {
        case LWS_CALLBACK_ESTABLISHED:
            established(wsi: wsi, user: user)
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let connection = Self.connection(in: user), !connection.closeRequested else { return 0 }
            if let held = heldRoom, held !== connection.room { releaseHeldFrame() }
            return receive(connection, input: input, length: length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let connection = Self.connection(in: user), !connection.closeIssued else { return 0 }
            if connection.closeRequested { return issueClose(connection) }
            return writeable(connection)
        case LWS_CALLBACK_RECEIVE_PONG:
            Self.connection(in: user)?.heard(at: lws_now_usecs())
            return 0
        case LWS_CALLBACK_TIMER:
            // Only ever armed by issueClose: now lws sends the close frame with the reason given.
            guard let connection = Self.connection(in: user), connection.closeIssued else { return 0 }
            return -1
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let connection = Self.connection(in: user) {
                logger.debug("peer closed", metadata: ["connection": "\(connection.id)"])
            }
            return 0
        case LWS_CALLBACK_CLOSED:
            closed(user: user)
            return 0
        default:
            return 0
        }
    }

    private static func connection(in user: UnsafeMutableRawPointer?) -> Connection? {
        guard let raw = user?.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<Connection>.fromOpaque(raw).takeUnretainedValue()
    }

    private func established(wsi: OpaquePointer, user: UnsafeMutableRawPointer?) {
        guard let user else { return }
        var name = [CChar](repeating: 0, count: 64)
        let peer = name.withUnsafeMutableBufferPointer { buffer -> String in
            guard let text = lws_get_peer_simple(wsi, buffer.baseAddress, buffer.count) else { return "?" }
            return String(cString: text)
        }
        let connection = Connection(id: nextConnectionID, wsi: wsi, peer: peer, now: lws_now_usecs())
        nextConnectionID += 1
        connections[connection.id] = connection
        gatekeeper.opened(connection)
        armKeepaliveSweep()
        user.storeBytes(of: Unmanaged.passRetained(connection).toOpaque(), as: UnsafeMutableRawPointer?.self)
        logger.info("connection opened", metadata: ["connection": "\(connection.id)", "peer": "\(peer)"])
        if shuttingDown {
            connection.closing = true
            lws_callback_on_writable(wsi)
        }
    }

    private func closed(user: UnsafeMutableRawPointer?) {
        guard let user, let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return }
        user.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        let connection = Unmanaged<Connection>.fromOpaque(raw).takeRetainedValue()
        connection.isOpen = false
        releaseHeldFrame()
        connections[connection.id] = nil
        gatekeeper.closed(connection)
        leaveRoom(connection, reason: "connection closed")
        logger.info(
            "connection closed",
            metadata: [
                "connection": "\(connection.id)",
                "messagesIn": "\(connection.messagesReceived)",
                "framesOut": "\(connection.framesSent)",
                "framesCoalesced": "\(connection.framesCoalesced)",
                "messagesOut": "\(connection.messagesSent)",
                "dropped": "\(connection.messagesDropped)",
                "rejected": "\(connection.decodeErrors)",
            ])
    }

    // MARK: - Receiving

    private func receive(_ connection: Connection, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        let wsi = connection.wsi
        if !connection.inMessage {
            connection.inMessage = true
            connection.messageIsBinary = lws_frame_is_binary(wsi) != 0
            connection.receivedBytes = 0
            connection.receiveBuffer.removeAll(keepingCapacity: true)
        }
        connection.receivedBytes += length
        if connection.receivedBytes > configuration.maxMessageBytes {
            logger.notice(
                "message too large; closing with 1009",
                metadata: [
                    "connection": "\(connection.id)", "bytes": "\(connection.receivedBytes)+",
                    "limit": "\(configuration.maxMessageBytes)",
                ])
            closeWithReason(connection, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "message too large")
            lws_callback_on_writable(wsi)
            return 0
        }
        let complete = lws_remaining_packet_payload(wsi) == 0 && lws_is_final_fragment(wsi) != 0
        if connection.messageIsBinary {
            // Counted against the limit above, never stored.
            if complete {
                connection.inMessage = false
                connection.messagesReceived &+= 1
                metrics.messages.increment()
                guard screened(connection, at: lws_now_usecs()) else { return 0 }
                logger.notice(
                    "rejected a message", metadata: ["connection": "\(connection.id)", "code": "binary_unsupported"])
                reject(
                    connection,
                    WireError(
                        code: "binary_unsupported", message: "binary frames are not supported; send JSON text",
                        ref: nil))
            }
            return 0
        }
        if complete && connection.receiveBuffer.isEmpty {
            // The common case: the whole message in one callback, decoded in place.
            connection.inMessage = false
            process(UnsafeRawBufferPointer(start: input, count: length), on: connection)
        } else {
            if let input, length > 0 {
                connection.receiveBuffer.append(
                    contentsOf: UnsafeRawBufferPointer(start: input, count: length))
            }
            if complete {
                connection.inMessage = false
                let message = connection.receiveBuffer
                message.withUnsafeBytes { process($0, on: connection) }
            }
        }
        return 0
    }

    /// One complete text message.
    private func process(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        connection.messagesReceived &+= 1
        metrics.messages.increment()
        // One reading of the clock for everything the message does (each costs a clock_gettime).
        let now = lws_now_usecs()
        connection.heard(at: now)  // application traffic proves the peer is alive
        if connection.closing { return }
        guard screened(connection, at: now) else { return }
        let message: ClientMessage
        do {
            message = try decoder.decode(text)
        } catch {
            connection.decodeErrors &+= 1
            logger.notice(
                "rejected a message",
                metadata: [
                    "connection": "\(connection.id)", "code": "\(error.code)", "ref": "\(error.ref ?? "-")",
                    "reason": "\(error.message)",
                ])
            reject(connection, error)
            return
        }
        switch message {
        case .hello(let hello):
            connection.pageClock.reset()
            admit(connection, hello: hello)
        case .input(let input, let seq):
            guard screened(connection, input, seq: seq, at: now) else { return }
            apply(input, seq: seq, text: text, on: connection, at: Timestamp(microseconds: now))
        case .ping(let t):
            enqueue(.pong(t: t, serverTime: Timestamp(microseconds: now)), on: connection)
            lws_callback_on_writable(connection.wsi)
        case .trace:
            sendTrace(to: connection)
        }
    }

    /// Runs the gatekeeper's screen (the rate limit; with `input`, its page clock) and carries out a refusal
    /// (an `error` answering an input numbered `seq` carries it). - Returns: whether the message may be
    /// processed.
    private func screened(_ connection: Connection, _ input: Input? = nil, seq: UInt64? = nil, at now: Int64) -> Bool {
        switch input.map({ screen($0, on: connection, at: now) }) ?? screenMessage(connection, at: now) {
        case .proceed: return true
        case .drop: return false
        case .reply(let error): reject(connection, error.answering(seq: seq))
        case .close(let status, let reason):
            closeWithReason(connection, status, reason)
            lws_callback_on_writable(connection.wsi)
        }
        return false
    }

    private func reject(_ connection: Connection, _ error: WireError) {
        enqueue(.error(error), on: connection)
        lws_callback_on_writable(connection.wsi)
    }

    private func enqueue(_ message: OutgoingMessage, on connection: Connection) {
        if connection.enqueue(message, limit: configuration.maxQueuedMessages) {
            logger.warning(
                "outbox full; dropping the oldest messages until it drains",
                metadata: ["connection": "\(connection.id)", "dropped": "\(connection.messagesDropped)"])
        }
    }

    // MARK: - Sessions

    /// `hello`: a new session, a new member of a shared one, or a member coming back (SessionRegistry). A
    /// second `hello` on a connection leaves its room first (its token stays valid), once the new one is
    /// admitted; a refused `hello` changes nothing.
    private func admit(_ connection: Connection, hello: Hello) {
        let now = Self.now()
        let admission = registry.admit(hello, at: now)
        let room: Room
        let member: Room.Member
        var notice: String?
        var resumed = false
        switch admission {
        case .refused(let error):
            logger.notice(
                "hello refused",
                metadata: ["connection": "\(connection.id)", "code": "\(error.code)", "reason": "\(error.message)"])
            reject(connection, error)
            return
        case .created(let created, let first, let createdNotice):
            (room, member, notice) = (created, first, createdNotice)
            logger.info(
                "session started",
                metadata: [
                    "connection": "\(connection.id)", "session": "\(room.id)", "preset": "\(room.session.presetName)",
                    "viewport": "\(hello.viewport)", "share": "\(shareBase)/?s=\(room.id)",
                    "notice": "\(notice ?? "-")",
                ])
        case .joined(let joined, let new):
            (room, member) = (joined, new)
            logger.info(
                "session joined",
                metadata: ["connection": "\(connection.id)", "session": "\(room.id)", "member": "\(member.number)"])
        case .resumed(let found, let returning):
            (room, member, resumed) = (found, returning, true)
            logger.info(
                "session resumed",
                metadata: ["connection": "\(connection.id)", "session": "\(room.id)", "member": "\(member.number)"])
        }
        if let current = connection.room {
            if current === room {
                connection.room = nil
                room.detach(member: connection.member, at: now, decoder: decoder)
            } else {
                leaveRoom(connection, reason: "hello again")
            }
        }
        if let previous = room.member(member.number)?.connection, previous !== connection {
            // The same member on a new connection (the old one is half-open, or a copy of the page): the
            // newer wins; the older is told why, so it does not take the member back.
            previous.room = nil
            room.detach(member: member.number, at: now, decoder: decoder)
            closeWithReason(previous, Self.closeSessionTaken, "session resumed on another connection")
            lws_callback_on_writable(previous.wsi)
        }
        _ = room.attach(connection, member: member.number)
        connection.frameFormat = hello.frames
        connection.room = room
        connection.member = member.number
        room.advance(to: now)  // a room nobody was connected to did not tick
        registry.account(room)
        let welcome = Welcome(
            session: room.id, token: member.token, preset: room.session.presetName, presets: Preset.names,
            configuration: room.session.configuration, serverTime: now, member: member.number, resumed: resumed,
            notice: notice, ack: resumed ? room.acknowledged(member: member.number) : nil, share: shareBase)
        enqueue(.welcome(welcome), on: connection)
        broadcast(room.takeEvents(), in: room)
        announceMembers(of: room)
        armTick(for: room, now: now.microseconds)
    }

    /// Takes `connection` out of its room: its pointers are lifted, the others are told, and a room left
    /// with nobody connected waits out the grace period (or is freed at once when it is 0).
    private func leaveRoom(_ connection: Connection, reason: String) {
        guard let room = connection.room else { return }
        connection.room = nil
        // While shutting down (and inside lws_context_destroy) nothing is scheduled or sent any more.
        guard !shuttingDown, room.member(connection.member)?.connection === connection else { return }
        let now = Self.now()
        room.detach(member: connection.member, at: now, decoder: decoder)
        registry.account(room)
        logger.info(
            "session left",
            metadata: [
                "connection": "\(connection.id)", "session": "\(room.id)", "member": "\(connection.member)",
                "reason": "\(reason)",
            ])
        if room.connectedCount > 0 {
            broadcast(room.takeEvents(), in: room)
            announceMembers(of: room)
            armTick(for: room, now: now.microseconds)
            return
        }
        _ = room.takeEvents()  // nobody to tell; the frames will show where things are
        let grace = Int64((configuration.sessionGraceSeconds * 1_000_000).rounded())
        if grace <= 0 {
            expire(room)
            return
        }
        room.expiresAt = now.microseconds + grace
        logger.debug(
            "session idle", metadata: ["session": "\(room.id)", "expiresIn": "\(configuration.sessionGraceSeconds) s"])
        armTimer(at: now.microseconds + grace, now: now.microseconds)
    }

    private func expire(_ room: Room) {
        registry.remove(room)
        logger.info(
            "session freed",
            metadata: [
                "session": "\(room.id)", "idle": "\(configuration.sessionGraceSeconds) s",
                "traceOps": "\(room.traced.recorder.operationCount)", "frames": "\(room.traced.recorder.frames.count)",
            ])
    }

    /// Applies `input` (numbered `seq` by the page, when it says) from `connection`'s member; a refusal's
    /// `error` carries the `seq`.
    private func apply(
        _ input: Input, seq: UInt64?, text: UnsafeRawBufferPointer, on connection: Connection, at now: Timestamp
    ) {
        guard let room = connection.room else {
            reject(
                connection,
                WireError(
                    code: "not_ready", message: "send hello before any input", ref: Self.type(of: input), seq: seq))
            return
        }
        do {
            try room.apply(input, seq: seq, text: text, member: connection.member, at: now)
        } catch {
            reject(
                connection,
                WireError(code: error.code, message: error.message, ref: Self.type(of: input), seq: seq))
            registry.account(room)
            return
        }
        registry.account(room)
        metrics.inputs.increment()
        if connection.unansweredInputAt == nil { connection.unansweredInputAt = now.microseconds }
        if case .configure = input { announceConfiguration(of: room) }
        hold(room, events: room.takeEvents())
        armTick(for: room, now: now.microseconds)
    }

    /// After an accepted `configure`: every member gets the whole new configuration (`config`).
    private func announceConfiguration(of room: Room) {
        var message: [UInt8] = []
        encoder.encodeConfig(preset: room.session.presetName, configuration: room.session.configuration, into: &message)
        for connection in room.connections where !connection.closing {
            enqueue(.encoded(message), on: connection)
        }
    }

    /// `trace`: the room's recording so far, as one `trace` message.
    private func sendTrace(to connection: Connection) {
        guard let room = connection.room else {
            reject(
                connection,
                WireError(code: "not_ready", message: "send hello before asking for a trace", ref: "trace"))
            return
        }
        let message = room.traceMessage()
        logger.debug(
            "trace sent",
            metadata: [
                "connection": "\(connection.id)", "session": "\(room.id)", "bytes": "\(message.count)",
                "ops": "\(room.traced.recorder.operationCount)", "truncated": "\(room.traced.recorder.truncated)",
            ])
        enqueue(.encoded(message), on: connection)
        lws_callback_on_writable(connection.wsi)
    }

    /// Queues `events` for every connected member, and the room's next frame.
    private func broadcast(_ events: [Event], in room: Room) {
        queue(events, in: room)
        writeFrames(of: room)
    }

    /// Queues `events` and marks the room's frame pending for every connected member.
    private func queue(_ events: [Event], in room: Room) {
        for connection in room.connections where !connection.closing {
            for event in events { enqueue(.event(event), on: connection) }
            connection.markFramePending()
        }
    }

    /// Writes the room's pending frame to its members now, or asks for WRITEABLE where it cannot go yet.
    private func writeFrames(of room: Room) {
        for connection in room.connections where connection.isOpen && !connection.closing {
            if !writeFrameNow(connection) { lws_callback_on_writable(connection.wsi) }
        }
    }

    // MARK: - One frame per read
    //
    // When the server falls behind, one read brings several queued inputs from the same page, and lws
    // delivers them one after the other. A frame for each would cost an encoding and a send() (most of a
    // frame's cost) for states the page replaces before it draws them. So the frame an input makes is held
    // until lws moves on, to another socket, a timer or the end of the loop's turn, and the inputs behind it
    // in the same read only update it: one frame per read, the latest state, and the server sheds work
    // exactly when it has too much. A page that keeps up sends one input per read and sees no difference
    // but the microseconds of the next socket's read. Frames saved are counted in `framesCoalesced` (logged
    // when the connection closes).

    /// Queues `events` for every connected member of `room` and holds its frame (see above). An input of
    /// another room comes from another socket's read, and `handle` released the held frame before it.
    private func hold(_ room: Room, events: [Event]) {
        assert(heldRoom == nil || heldRoom === room, "a held frame outlived its read")
        queue(events, in: room)
        heldRoom = room
    }

    /// Writes the held room's frame.
    private func releaseHeldFrame() {
        guard let room = heldRoom else { return }
        heldRoom = nil
        writeFrames(of: room)
    }

    /// Writes the pending frame at once when it is the only thing to send and the socket takes it: the
    /// frame leaves in the same turn of the loop as the input that made it, instead of after a round of
    /// "tell me when writable" (two `epoll_ctl`s and one more wake-up per frame). When lws still holds part
    /// of an earlier message (the kernel took only some of it: a slow reader), the frame waits for WRITEABLE
    /// as before, so lws never holds more than one partial message and a slow reader gets the latest frame.
    /// - Returns: whether the frame was written (or the connection is being closed).
    private func writeFrameNow(_ connection: Connection) -> Bool {
        guard connection.framePending, connection.outbox.isEmpty, !connection.pingDue, !connection.closeRequested,
            lws_partial_buffered(connection.wsi) == 0
        else { return false }
        if writeable(connection) < 0 { drop(connection) }
        return true
    }

    /// Tells every connected member how many devices share the session.
    private func announceMembers(of room: Room) {
        let count = room.connectedCount
        for connection in room.connections where !connection.closing {
            enqueue(.room(members: count), on: connection)
            lws_callback_on_writable(connection.wsi)
        }
    }

    // MARK: - Sending

    /// Writes exactly one message: queued control messages and events first, then the frame.
    private func writeable(_ connection: Connection) -> Int32 {
        let pre = Int(RK_LWS_PRE)
        if connection.sendBuffer.count > pre {
            connection.sendBuffer.removeSubrange(pre...)
        }
        if connection.pingDue {
            // A control frame of its own, before anything queued (lws interleaves it correctly only
            // between messages, which is where every write here is).
            connection.pingDue = false
            // A payload, because lws 4.1.6 does not report an empty pong (RECEIVE_PONG) to the protocol.
            connection.sendBuffer.append(contentsOf: Array("alive?".utf8))
            let written = connection.sendBuffer.withUnsafeMutableBufferPointer {
                lws_write(connection.wsi, $0.baseAddress! + pre, $0.count - pre, LWS_WRITE_PING)
            }
            if written < 0 { return -1 }
            if connection.hasPendingOutput || connection.closing { lws_callback_on_writable(connection.wsi) }
            return 0
        }
        if let message = connection.outbox.removeFirst() {
            switch message {
            case .welcome(let welcome): encoder.encode(welcome, into: &connection.sendBuffer)
            case .error(let error):
                encoder.encode(error, into: &connection.sendBuffer)
                metrics.error(code: error.code)
            case .pong(let t, let serverTime):
                encoder.encodePong(t: t, serverTime: serverTime, into: &connection.sendBuffer)
            case .event(let event): encoder.encode(event, into: &connection.sendBuffer)
            case .room(let members):
                encoder.encodeRoom(members: members, member: connection.member, into: &connection.sendBuffer)
            case .encoded(let bytes): connection.sendBuffer.append(contentsOf: bytes)
            }
            if connection.outbox.isEmpty { connection.lagReported = false }
            connection.messagesSent &+= 1
        } else if connection.framePending, let room = connection.room {
            // The room's frame, encoded once for every member (a delta once per base), written from the room's
            // own buffers.
            connection.framePending = false
            room.prepareFrame()
            registry.account(room)
            connection.framesSent &+= 1
            metrics.frames.increment()
            if let heard = connection.unansweredInputAt {
                // the first frame made after this connection's oldest unanswered input includes it
                metrics.inputToFrame.recordMicroseconds(lws_now_usecs() - heard)
                connection.unansweredInputAt = nil
            }
            return room.withFrameMessage(for: connection) { write($0, on: connection) }
        } else if connection.closing {
            closeWithReason(connection, LWS_CLOSE_STATUS_GOINGAWAY, "server shutting down")
            return issueClose(connection)
        } else {
            return 0  // a spurious WRITEABLE: nothing to say
        }
        let result = connection.sendBuffer.withUnsafeMutableBytes { write($0, on: connection) }
        if connection.sendBuffer.capacity > 1 << 20 {
            // A trace passed through: give the memory back rather than keep it for small messages.
            connection.sendBuffer = [UInt8](repeating: 0, count: pre)
            connection.sendBuffer.reserveCapacity(pre + 4096)
        }
        return result
    }

    /// Starts lws's close handshake with the reason set by ``closeWithReason(_:_:_:)``, from a WRITEABLE.
    ///
    /// Not by returning -1 here: lws handles that as "close and handled", and Debian's lws 4.1.6 is built
    /// with `_DEBUG`, where on libuv that path at once closes a second time ("uv repeat test"), which finds
    /// the close frame still waiting to be sent, drops it and kills the socket (the peer sees 1006). A
    /// timeout would not do either (lws marks a timed-out socket unusable). The connection's hrtimer does:
    /// its callback returning -1 closes through the polite path on every event loop.
    private func issueClose(_ connection: Connection) -> Int32 {
        connection.closeIssued = true
        lws_set_timer_usecs(connection.wsi, 0)
        return 0
    }

    /// Closes the socket without a close handshake (the peer is not listening, or a write failed), at lws's
    /// next timeout check: safe from any callback, including another connection's.
    private func drop(_ connection: Connection) {
        connection.closeIssued = true
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// `lws_write`s the message in `buffer` after its `LWS_PRE` bytes of headroom (lws copies what the
    /// socket does not take at once, so the buffer may be reused as soon as this returns).
    private func write(_ buffer: UnsafeMutableRawBufferPointer, on connection: Connection) -> Int32 {
        let pre = Int(RK_LWS_PRE)
        let written = lws_write(
            connection.wsi, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + pre, buffer.count - pre,
            LWS_WRITE_TEXT)
        if written < 0 {
            logger.info("write failed; closing", metadata: ["connection": "\(connection.id)"])
            return -1
        }
        metrics.sentBytes.increment(by: buffer.count - pre)
        if connection.hasPendingOutput || connection.closing {
            lws_callback_on_writable(connection.wsi)
        }
        return 0
    }

    /// Sets the close frame's code and reason; the next WRITEABLE issues the close (``issueClose(_:)``).
    private func closeWithReason(_ connection: Connection, _ status: lws_close_status, _ text: String) {
        connection.closeRequested = true
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(connection.wsi, status, buffer.baseAddress, buffer.count)
        }
    }

    // MARK: - Liveness

    private func armKeepaliveSweep() {
        guard !keepaliveArmed, !shuttingDown, let context else { return }
        keepaliveArmed = true
        lws_sul_schedule(context, 0, &keepaliveSweep.pointee.sul, keepaliveCallback, Self.keepaliveSweepMicroseconds)
    }

    /// Pings the connections that went quiet and hangs up those whose ping went unanswered; re-arms while
    /// any connection is open. O(connections) once a second: 5 000 connections cost well under 0.1 ms.
    fileprivate func sweepKeepalive() {
        releaseHeldFrame()
        keepaliveArmed = false
        let now = lws_now_usecs()
        for connection in connections.values where !connection.closeIssued {
            switch keepalive.verdict(lastHeard: connection.lastHeard, pingedAt: connection.pingedAt, now: now) {
            case .fine:
                break
            case .ping:
                connection.pingedAt = now
                connection.pingDue = true
                lws_callback_on_writable(connection.wsi)
            case .hangUp:
                logger.info(
                    "no answer to ping; hanging up",
                    metadata: [
                        "connection": "\(connection.id)", "quietSeconds": "\((now - connection.lastHeard) / 1_000_000)",
                    ])
                drop(connection)
            }
        }
        if !connections.isEmpty { armKeepaliveSweep() }
    }

    // MARK: - The tick

    private var tickPeriodMicroseconds: Int64 { 1_000_000 / Int64(configuration.tickRate) }

    private func tickDeadline(_ index: Int64) -> Int64 {
        tickOrigin + index * 1_000_000 / Int64(configuration.tickRate)
    }

    /// After an input or a hello: make sure the timer fires soon enough for `session`. Moves the timer
    /// only earlier; the tick itself recomputes the full schedule.
    private func armTick(for room: Room, now: Int64) {
        guard !shuttingDown else { return }
        var due: Int64?
        if room.isMoving {
            if !ticking {
                ticking = true
                tickOrigin = now
                tickIndex = 1
            }
            due = tickDeadline(tickIndex)
        }
        if let deadline = room.nextDeadline?.microseconds {
            due = min(due ?? deadline, max(deadline, now))
        }
        guard let due else { return }
        armTimer(at: due, now: now)
    }

    /// Makes sure the timer fires by `deadline` (e.g. a room's expiry). Moves the timer only earlier.
    private func armTimer(at deadline: Int64, now: Int64) {
        guard !shuttingDown else { return }
        if let armed = tickArmedAt, armed <= deadline { return }
        schedule(at: deadline, now: now)
    }

    private func schedule(at deadline: Int64, now: Int64) {
        guard let context else { return }
        tickArmedAt = deadline
        lws_sul_schedule(context, 0, &tick.pointee.sul, tickCallback, max(0, deadline - now))
    }

    /// The timer fired: move every moving (or due) session with someone connected to now, queue its events
    /// and frame for its members; free the rooms whose grace period ran out. (A room nobody is connected to
    /// does not tick: it catches up, exactly, when someone comes back.)
    fileprivate func onTick() {
        releaseHeldFrame()
        tickArmedAt = nil
        guard !shuttingDown else { return }
        ticks &+= 1
        let nowMicroseconds = lws_now_usecs()
        let now = Timestamp(microseconds: nowMicroseconds)
        var anyActive = false
        var earliestDeadline: Int64?
        var expired: [Room] = []
        for room in registry.rooms.values {
            if let expiry = room.expiresAt {
                if expiry <= nowMicroseconds {
                    expired.append(room)
                } else {
                    earliestDeadline = min(earliestDeadline ?? expiry, expiry)
                }
                continue
            }
            let due = room.isMoving || (room.nextDeadline.map { $0.microseconds <= nowMicroseconds } ?? false)
            if due {
                room.advance(to: now)
                registry.account(room)
                broadcast(room.takeEvents(), in: room)
            }
            if room.isMoving { anyActive = true }
            if let deadline = room.nextDeadline?.microseconds {
                // A deadline the session left in the past would spin the timer: wait one period.
                let effective = deadline > nowMicroseconds ? deadline : nowMicroseconds + tickPeriodMicroseconds
                earliestDeadline = min(earliestDeadline ?? effective, effective)
            }
        }
        for room in expired { expire(room) }
        var next: Int64?
        if anyActive {
            if !ticking {
                ticking = true
                tickOrigin = nowMicroseconds
                tickIndex = 0
            }
            tickIndex += 1
            if tickDeadline(tickIndex) <= nowMicroseconds {
                // Late: skip the missed ticks instead of bursting to catch up.
                let behind = nowMicroseconds - tickOrigin
                let index = behind * Int64(configuration.tickRate) / 1_000_000 + 1
                ticksSkipped &+= UInt64(max(0, index - tickIndex))
                tickIndex = index
            }
            next = tickDeadline(tickIndex)
        } else {
            ticking = false
        }
        if let deadline = earliestDeadline { next = min(next ?? deadline, deadline) }
        if let next { schedule(at: next, now: nowMicroseconds) }
    }

    // MARK: - Helpers

    static let subprotocol = "refreshkit.v1"

    /// The close code of a connection whose member resumed on another connection (PROTOCOL.md).
    static let closeSessionTaken = lws_close_status(rawValue: 4001)

    /// `http://HOST:PORT` for share links: a wildcard address is shown as the first LAN address (the one a
    /// phone can open), else loopback.
    static func shareBase(host: String, port: Int) -> String {
        let shown: String
        switch host {
        case "0.0.0.0", "::", "[::]":
            shown = NetworkInterfaces.lanIPv4Addresses().first ?? (host == "0.0.0.0" ? "127.0.0.1" : "[::1]")
        default:
            shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
        return "http://\(shown):\(port)"
    }

    static let extraMIMETypes: [(String, String)] = [
        (".mjs", "text/javascript"),
        (".wasm", "application/wasm"),
        (".webmanifest", "application/manifest+json"),
        (".map", "application/json"),
    ]

    /// The server clock: lws's monotonic microseconds, the same clock the timer uses.
    static func now() -> Timestamp { Timestamp(microseconds: lws_now_usecs()) }

    /// The wire `type` of an input, for `error.ref`.
    static func type(of input: Input) -> String {
        switch input {
        case .touch: "touch"
        case .wheel: "wheel"
        case .resize: "resize"
        case .command: "command"
        case .configure: "configure"
        }
    }

    enum HostKind: Equatable {
        case anyIPv6
        case ipv4(String)
        case other(String)
    }

    static func classify(host: String) -> HostKind {
        if host == "::" || host == "[::]" { return .anyIPv6 }
        var address = in_addr()
        if inet_pton(AF_INET, host, &address) == 1 { return .ipv4(host) }
        return .other(host)
    }
}

/// Set by any thread to ask the service thread to stop.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}

// MARK: - C entry points (they run on the service thread, inside lws_service)

private func loop(of wsi: OpaquePointer) -> ServiceLoop? {
    guard let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return nil }
    return Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue()
}

private func refreshKitProtocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let loop = loop(of: wsi) else { return 0 }
    return loop.handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
}

private func tickCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let owner = rk_tick_owner(sul) else { return }
    Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().onTick()
}

private func keepaliveCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let raw = rk_tick_owner(sul) else { return }
    Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue().sweepKeepalive()
}

/// Only wakes the loop (`uv_run` or `lws_service`) so ``ServiceLoop/run()`` can see the shutdown deadline has
/// passed.
private func shutdownWakeCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {}
