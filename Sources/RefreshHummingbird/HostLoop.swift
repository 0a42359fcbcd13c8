import Dispatch
import Logging
import NIOCore
import NIOWebSocket
import RefreshHosting
import RefreshSessions

/// The session host on one of the app's event loops (docs/EMBEDDING.md, "In a Hummingbird app"): an actor whose
/// executor is that loop, so the host driver stays on one thread as its rules require. Each WebSocket's two tasks
/// (its reader and its writer, ``WebSocketLinkTasks``) hop here to tell the host what happened and to take what it
/// has to send. The driver carries out the host's actions; its transport here is ``LoopSockets``.
actor HostLoop {
    nonisolated let eventLoop: any EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

    private let driver: HostDriver
    private let sockets: LoopSockets
    private let logger: Logger
    private var nextID: UInt64 = 1
    /// Who waits for every WebSocket to close (``shutDown(graceMilliseconds:)``).
    private var drained: [CheckedContinuation<Void, Never>] = []
    private var host: SessionHost { driver.host }

    /// What a WebSocket's writer is to do next.
    enum Write: Sendable {
        case nothing
        case frame(WebSocketFrame)
        case close(WebSocketErrorCode, reason: String?)
        case kill
    }

    init(driver: HostDriver, eventLoop: any EventLoop, logger: Logger) {
        self.eventLoop = eventLoop
        self.logger = logger
        self.driver = driver
        sockets = LoopSockets(eventLoop: eventLoop)
    }

    /// The driver's transport, knowing this actor (its timers call back here): from the first event on, which may
    /// come before ``start()`` (a page connecting in the app's first moments).
    private var transport: LoopSockets {
        if sockets.loop == nil { sockets.loop = self }
        return sockets
    }

    /// Lets the feed's workers and the store's reads reach the loop from now on: each hops onto it.
    func start() {
        driver.start { [eventLoop] arrival in
            eventLoop.execute { self.assumeIsolated { $0.take(arrival) } }
        }
    }

    private func take(_ arrival: HostArrival) { driver.take(arrival, on: transport) }

    /// One of the host's timers, due.
    func fire(_ timer: HostTimer) { driver.fire(timer, on: transport) }

    // MARK: - A WebSocket's events

    /// A WebSocket from `peer` is open; `wake` wakes its writer. - Returns: its id.
    func opened(peer: String, credentials: String? = nil, wake: AsyncStream<Void>.Continuation) -> UInt64 {
        let id = nextID
        nextID += 1
        let connection = host.opened(id: id, peer: peer, credentials: credentials, at: driver.clock.now())
        sockets.links[id] = LoopSockets.Link(connection: connection, wake: wake)
        driver.carryOutActions(on: transport)
        return id
    }

    /// A frame arrived on WebSocket `id` (`binary`: as its message's first frame said).
    func received(_ data: ByteBuffer, binary: Bool, isLast: Bool, on id: UInt64) {
        guard let connection = sockets.links[id]?.connection else { return }
        data.withUnsafeReadableBytes {
            host.received($0, binary: binary, isLast: isLast, on: connection, at: driver.clock.now())
        }
        // Frames are not held for the inputs behind this one (the lws server holds them to the end of its loop's
        // turn): a reader's frames arrive here one hop at a time.
        host.flushHeldFrame()
        driver.carryOutActions(on: transport)
    }

    /// WebSocket `id` may be written: the one message the host has for it, or its close.
    func nextWrite(on id: UInt64) -> Write {
        guard let link = sockets.links[id] else { return .kill }
        if link.killed { return .kill }
        var frame: WebSocketFrame?
        let outcome = host.writeable(link.connection, at: driver.clock.now()) { kind, bytes in
            var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
            buffer.writeBytes(UnsafeRawBufferPointer(bytes))
            frame = WebSocketFrame(fin: true, opcode: kind == .ping ? .ping : .text, data: buffer)
            return true
        }
        driver.carryOutActions(on: transport)
        switch outcome {
        case .written: return frame.map(Write.frame) ?? .nothing
        case .failed: return .kill
        case .close(let code): return .close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: code.reason)
        }
    }

    /// WebSocket `id` is gone.
    func closed(_ id: UInt64) {
        guard let link = sockets.links.removeValue(forKey: id) else { return }
        link.wake.finish()
        host.closed(link.connection, at: driver.clock.now())
        driver.carryOutActions(on: transport)
        if sockets.links.isEmpty { resumeDrained() }
    }

    // MARK: - Shutdown

    /// Hands every session to the store (waiting off the loop), closes every WebSocket with 1001 and waits until
    /// they are closed, or `graceMilliseconds` passed; then stops the timers, the feed and the store's writer.
    func shutDown(graceMilliseconds: Int) async {
        while case .waitForTheStore(let store) = driver.nextShutdownStep(on: transport) {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    _ = store.waitUntilAnswered(seconds: HostDriver.storeHandOverSeconds)
                    done.resume()
                }
            }
        }
        if !sockets.links.isEmpty {
            let deadline = eventLoop.scheduleTask(in: .milliseconds(Int64(graceMilliseconds))) {
                self.assumeIsolated { $0.resumeDrained() }
            }
            await withCheckedContinuation { drained.append($0) }
            deadline.cancel()
        }
        sockets.stopTimers()
        driver.stop()
        logger.info("sessions closed", metadata: ["ticks": "\(host.ticks.run)"])
    }

    private func resumeDrained() {
        for waiter in drained { waiter.resume() }
        drained.removeAll()
    }

    // MARK: - What the app reads

    /// The host's figures in Prometheus' text format (docs/OPERATIONS.md names the lws server's fuller set).
    func metricsText() -> String {
        let counters = host.counters
        let members = host.sessions.values.reduce(0) { $0 + $1.connectedCount }
        return [
            ("refreshkit_connections", "gauge", "Open WebSocket connections.", UInt64(host.connections.count)),
            (
                "refreshkit_sessions", "gauge", "Sessions held (connected or in their grace period).",
                UInt64(host.sessions.count)
            ),
            ("refreshkit_session_members", "gauge", "Connected members of all sessions.", UInt64(members)),
            ("refreshkit_messages_received_total", "counter", "Messages received.", counters.messages),
            ("refreshkit_inputs_total", "counter", "Inputs applied.", counters.inputs),
            ("refreshkit_frames_sent_total", "counter", "Frames written.", counters.frames),
            ("refreshkit_sent_bytes_total", "counter", "Bytes of messages written.", counters.sentBytes),
        ].map { "# HELP \($0.0) \($0.2)\n# TYPE \($0.0) \($0.1)\n\($0.0) \($0.3)\n" }.joined()
    }
}
