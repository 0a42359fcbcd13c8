import CLibWebSockets
import Logging
import RefreshKit
import RefreshSessions
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
    /// Origin, connection limits, static paths (Gatekeeper.swift).
    let gatekeeper: Gatekeeper
    /// The vital signs at `/metrics` (docs/OPERATIONS.md).
    let metrics = ServerMetrics()
    /// The server's rules: every connection and session, and what each event makes of them.
    private let host: SessionHost
    /// Each open connection's socket, by the host's connection id.
    private var sockets: [UInt64: OpaquePointer] = [:]
    private var nextConnectionID: UInt64 = 1

    // Timers: the host's tick, its liveness sweep, and the shutdown's deadline.
    private let tick: UnsafeMutablePointer<rk_tick_t>
    private let keepaliveSweep: UnsafeMutablePointer<rk_tick_t>
    private let shutdownWake: UnsafeMutablePointer<rk_tick_t>
    private var shutdownDeadline: Int64?

    init(configuration: ServerConfiguration, logger: Logger, stopFlag: StopFlag) {
        self.configuration = configuration
        self.logger = logger
        self.stopFlag = stopFlag
        gatekeeper = Gatekeeper(configuration: configuration.hardening, logger: logger)
        host = SessionHost(
            configuration: configuration.hostConfiguration, logger: logger,
            metrics: metrics.hostMetrics, headroom: Int(RK_LWS_PRE))
        tick = .allocate(capacity: 1)
        tick.initialize(to: rk_tick_t())
        shutdownWake = .allocate(capacity: 1)
        shutdownWake.initialize(to: rk_tick_t())
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
            host.shareBase = Self.shareBase(host: "0.0.0.0", port: publicPort)
        } else {
            host.shareBase = Self.shareBase(host: configuration.host, port: port)
        }
        gatekeeper.start(webRoot: webRoot, port: port, host: configuration.host)
        gatekeeper.metricsText = { [unowned self] in metricsPage() }
        logger.debug(
            "libwebsockets context created",
            metadata: ["webRoot": "\(webRoot)", "port": "\(port)", "host": "\(configuration.host)"])
    }

    /// The metrics page, its gauges set from what the server holds now.
    private func metricsPage() -> String {
        let members = host.sessions.values.reduce(0) { $0 + $1.connectedCount }
        metrics.snapshot(
            ServerMetrics.Holdings(
                connections: host.connections.count, sessions: host.sessions.count, members: members,
                traceBytes: host.traceBytes))
        return metrics.text()
    }

    /// Services the context until a stop is requested and the connections are closed (or the grace
    /// period ran out). - Returns: `false` when lws reported a fatal error.
    func run() -> Bool {
        guard let context else { return false }
        while true {
            if stopFlag.isSet {
                let deadline = shutdownDeadline ?? beginShutdown()
                if host.connections.isEmpty || lws_now_usecs() >= deadline { return true }
            }
            if let uvLoop {
                // One turn: whatever is ready (sockets, lws's timers, the wake-up pipe of
                // lws_cancel_service), then back here to look at the stop flag.
                uv_run(uvLoop, UV_RUN_ONCE)
            } else if lws_service(context, 0) < 0 {
                logger.error("lws_service failed; stopping")
                return false
            }
            host.flushHeldFrame()
            carryOutActions()
        }
    }

    /// Destroys the context (lws delivers `CLOSED` for every connection still open) and frees the C
    /// memory it used.
    func destroy() {
        host.tearDown()  // `CLOSED` callbacks from here on only let go of their sessions
        lws_sul_cancel(&tick.pointee.sul)
        lws_sul_cancel(&shutdownWake.pointee.sul)
        lws_sul_cancel(&keepaliveSweep.pointee.sul)
        // On libuv this runs the loop until lws has closed everything (CLOSED callbacks arrive in it).
        rk_uv_destroy(context, uvLoop)
        context = nil
        uvLoop = nil
        host.clearActions()
        sockets.removeAll()
        resources.releaseAll()
        logger.debug(
            "libwebsockets context destroyed",
            metadata: ["ticks": "\(host.ticks.run)", "skipped": "\(host.ticks.skipped)"])
    }

    /// - Returns: the time the shutdown gives up waiting for connections to close.
    private func beginShutdown() -> Int64 {
        let now = lws_now_usecs()
        let deadline = now + Int64(configuration.shutdownGraceMilliseconds) * 1000
        shutdownDeadline = deadline
        lws_sul_cancel(&tick.pointee.sul)
        host.beginShutdown()
        carryOutActions()
        if !host.connections.isEmpty, let context {
            // Wakes lws_service at the deadline, in case no connection does.
            lws_sul_schedule(context, 0, &shutdownWake.pointee.sul, shutdownWakeCallback, deadline - now)
        }
        return deadline
    }

    // MARK: - Callbacks: lws's events, told to the host

    /// The `refreshkit.v1` protocol callback, on the service thread.
    func handle(
        wsi: OpaquePointer,
        reason: lws_callback_reasons,
        user: UnsafeMutableRawPointer?,
        input: UnsafeMutableRawPointer?,
        length: Int
    ) -> Int32 {
        // lws moved on from the read that brought the held input: its frame goes first. (`CLOSED` flushes it
        // itself, once the closing connection is marked: its socket is gone.)
        if reason != LWS_CALLBACK_RECEIVE && reason != LWS_CALLBACK_CLOSED { host.flushHeldFrame() }
        defer { carryOutActions() }
        switch reason {
        case LWS_CALLBACK_ESTABLISHED:
            guard let user else { return 0 }
            let id = nextConnectionID
            nextConnectionID += 1
            let peer = Gatekeeper.peer(of: wsi)
            sockets[id] = wsi
            gatekeeper.opened(peer: peer)
            let connection = host.opened(id: id, peer: peer, at: lws_now_usecs())
            user.storeBytes(of: Unmanaged.passRetained(connection).toOpaque(), as: UnsafeMutableRawPointer?.self)
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let connection = Self.connection(in: user) else { return 0 }
            host.received(
                UnsafeRawBufferPointer(start: input, count: length), binary: lws_frame_is_binary(wsi) != 0,
                isLast: lws_remaining_packet_payload(wsi) == 0 && lws_is_final_fragment(wsi) != 0, on: connection,
                at: lws_now_usecs())
            return 0
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let connection = Self.connection(in: user) else { return 0 }
            return write(connection, wsi: wsi)
        case LWS_CALLBACK_RECEIVE_PONG:
            if let connection = Self.connection(in: user) { host.pong(on: connection, at: lws_now_usecs()) }
            return 0
        case LWS_CALLBACK_TIMER:
            // Only ever armed by a close: now lws sends the close frame with the reason given.
            guard let connection = Self.connection(in: user), connection.lifecycle == .closeIssued else { return 0 }
            return -1
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let connection = Self.connection(in: user) {
                logger.debug("peer closed", metadata: ["connection": "\(connection.id)"])
            }
            return 0
        case LWS_CALLBACK_CLOSED:
            guard let user, let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return 0 }
            user.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
            let connection = Unmanaged<Connection>.fromOpaque(raw).takeRetainedValue()
            sockets[connection.id] = nil
            gatekeeper.closed(peer: connection.peer)
            host.closed(connection, at: lws_now_usecs())
            return 0
        default:
            return 0
        }
    }

    private static func connection(in user: UnsafeMutableRawPointer?) -> Connection? {
        guard let raw = user?.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<Connection>.fromOpaque(raw).takeUnretainedValue()
    }

    // MARK: - The host's actions, carried out

    /// Carries out what the host asked for, in order (carrying one out may add more).
    private func carryOutActions() {
        var index = 0
        while index < host.actions.count {
            let action = host.actions[index]
            index += 1
            switch action {
            case .wantWrite(let connection):
                if let wsi = sockets[connection.id] { lws_callback_on_writable(wsi) }
            case .writeSoon(let connection):
                // Written at once when lws holds nothing of an earlier message (the kernel took it all), so lws
                // never holds more than one partial message and a slow reader gets the latest frame.
                guard let wsi = sockets[connection.id] else { continue }
                if lws_partial_buffered(wsi) == 0 {
                    if write(connection, wsi: wsi) < 0 { kill(connection, wsi: wsi) }
                } else {
                    lws_callback_on_writable(wsi)
                }
            case .kill(let connection):
                if let wsi = sockets[connection.id] { kill(connection, wsi: wsi) }
            case .armTick(let deadline):
                guard let context else { continue }
                lws_sul_schedule(context, 0, &tick.pointee.sul, tickCallback, max(0, deadline - lws_now_usecs()))
            case .armSweep(let after):
                guard let context else { continue }
                lws_sul_schedule(context, 0, &keepaliveSweep.pointee.sul, keepaliveCallback, after)
            }
        }
        host.clearActions()
    }

    /// One write on `wsi`: whatever the host has to send, or the close it decided.
    private func write(_ connection: Connection, wsi: OpaquePointer) -> Int32 {
        let pre = Int(RK_LWS_PRE)
        let outcome = host.writeable(connection, at: lws_now_usecs()) { kind, buffer in
            let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + pre
            let protocolKind = kind == .ping ? LWS_WRITE_PING : LWS_WRITE_TEXT
            return lws_write(wsi, start, buffer.count - pre, protocolKind) >= 0
        }
        switch outcome {
        case .written:
            return 0
        case .failed:
            return -1
        case .close(let code):
            var bytes = Array((code.reason ?? "").utf8)
            bytes.withUnsafeMutableBufferPointer { buffer in
                lws_close_reason(
                    wsi, lws_close_status(rawValue: UInt32(code.rawValue)), buffer.baseAddress, buffer.count)
            }
            // Not by returning -1 here: lws handles that as "close and handled", and Debian's lws 4.1.6 is
            // built with `_DEBUG`, where on libuv that path at once closes a second time ("uv repeat test"),
            // which finds the close frame still waiting to be sent, drops it and kills the socket (the peer
            // sees 1006). A timeout would not do either (lws marks a timed-out socket unusable). The
            // connection's hrtimer does: its callback returning -1 closes through the polite path on every
            // event loop.
            lws_set_timer_usecs(wsi, 0)
            return 0
        }
    }

    /// Closes the socket without a close handshake, at lws's next timeout check: safe from any callback,
    /// including another connection's.
    private func kill(_ connection: Connection, wsi: OpaquePointer) {
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    fileprivate func onTick() {
        host.tick(at: lws_now_usecs())
        carryOutActions()
    }

    fileprivate func sweepKeepalive() {
        host.sweep(at: lws_now_usecs())
        carryOutActions()
    }

    // MARK: - Helpers

    static let subprotocol = "refreshkit.v1"

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
