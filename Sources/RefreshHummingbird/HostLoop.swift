import Dispatch
import Logging
import NIOCore
import NIOWebSocket
import RefreshFeeds
import RefreshKit
import RefreshSessions
import RefreshStore
import RefreshWire
import ServerClock

/// The session host on one of the app's event loops (docs/EMBEDDING.md, "In a Hummingbird app"): an actor whose
/// executor is that loop, so the host stays on one thread as its rules require, and its timers are the loop's
/// own scheduled tasks. Each WebSocket's two tasks (its reader and its writer, ``RefreshService``) hop here to
/// tell the host what happened and to take what it has to send; the actions the host returns are carried out
/// here, at once.
actor HostLoop {
    nonisolated let eventLoop: any EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

    private let host: SessionHost
    private let feed: FeedService?
    /// The session store's writer and reader (docs/SCALING.md), off the loop: `nil` without a store.
    private let storeThread: StoreThread?
    private let storeReads: StoreReads?
    /// The reads run here one at a time (the reader has one connection), and their answers hop onto the loop.
    private let readQueue = DispatchQueue(label: "rk-store-reads")
    private let clock = ServerClock()
    private let logger: Logger
    private var links: [UInt64: Link] = [:]
    private var nextID: UInt64 = 1
    private var tick: Scheduled<Void>?
    private var sweep: Scheduled<Void>?
    /// Who waits for every WebSocket to close (``shutDown(graceMilliseconds:)``).
    private var drained: [CheckedContinuation<Void, Never>] = []

    /// One WebSocket as the host loop knows it: the host's connection, and the signal that wakes its writer.
    private struct Link {
        let connection: Connection
        let wake: AsyncStream<Void>.Continuation
        /// The host dropped it: its writer ends it without another write.
        var killed = false
    }

    /// What a WebSocket's writer is to do next.
    enum Write: Sendable {
        case nothing
        case frame(WebSocketFrame)
        case close(WebSocketErrorCode, reason: String?)
        case kill
    }

    init(
        configuration: SessionHost.Configuration, source: (any FeedSource)?, store: StoreAddress?,
        eventLoop: any EventLoop, logger: Logger
    ) {
        self.eventLoop = eventLoop
        self.logger = logger
        host = SessionHost(configuration: configuration, logger: logger)
        host.hasStore = store != nil
        storeThread = store.map { StoreThread(address: $0, logger: logger) }
        storeReads = store.map { StoreReads(address: $0, logger: logger) }
        feed = source.map { FeedService(source: $0, limits: FeedLimits(), pollMilliseconds: 5000) }
    }

    /// Lets the feed's workers wake the loop from now on: each answer hops onto it. What they answered before (a
    /// page that connected before the app's services started) is taken at once.
    func start() {
        feed?.start { [eventLoop] in
            eventLoop.execute { self.assumeIsolated { $0.deliverFeedReports() } }
        }
        deliverFeedReports()
    }

    // MARK: - A WebSocket's events

    /// A WebSocket from `peer` is open; `wake` wakes its writer. - Returns: its id.
    func opened(peer: String, credentials: String? = nil, wake: AsyncStream<Void>.Continuation) -> UInt64 {
        let id = nextID
        nextID += 1
        links[id] = Link(
            connection: host.opened(id: id, peer: peer, credentials: credentials, at: clock.now()), wake: wake)
        carryOutActions()
        return id
    }

    /// A frame arrived on WebSocket `id` (`binary`: as its message's first frame said).
    func received(_ data: ByteBuffer, binary: Bool, isLast: Bool, on id: UInt64) {
        guard let connection = links[id]?.connection else { return }
        data.withUnsafeReadableBytes {
            host.received($0, binary: binary, isLast: isLast, on: connection, at: clock.now())
        }
        // Frames are not held for the inputs behind this one (the lws server holds them to the end of its loop's
        // turn): a reader's frames arrive here one hop at a time.
        host.flushHeldFrame()
        carryOutActions()
    }

    /// WebSocket `id` may be written: the one message the host has for it, or its close.
    func nextWrite(on id: UInt64) -> Write {
        guard let link = links[id] else { return .kill }
        if link.killed { return .kill }
        var frame: WebSocketFrame?
        let outcome = host.writeable(link.connection, at: clock.now()) { kind, bytes in
            var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
            buffer.writeBytes(UnsafeRawBufferPointer(bytes))
            frame = WebSocketFrame(fin: true, opcode: kind == .ping ? .ping : .text, data: buffer)
            return true
        }
        carryOutActions()
        switch outcome {
        case .written: return frame.map(Write.frame) ?? .nothing
        case .failed: return .kill
        case .close(let code): return .close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: code.reason)
        }
    }

    /// WebSocket `id` is gone.
    func closed(_ id: UInt64) {
        guard let link = links.removeValue(forKey: id) else { return }
        link.wake.finish()
        host.closed(link.connection, at: clock.now())
        carryOutActions()
        if links.isEmpty { resumeDrained() }
    }

    // MARK: - Shutdown

    /// Closes every WebSocket with 1001 and waits until they are closed, or `graceMilliseconds` passed; then
    /// stops the timers and the feed.
    func shutDown(graceMilliseconds: Int) async {
        if storeThread != nil {
            // Every session is handed to the store before the pages are closed, so they come back to what it holds
            // (as `refreshkit serve` does): the batch being written, then the last one.
            await waitForTheStore()
            host.beginShutdown(at: clock.now())
            carryOutActions()
            await waitForTheStore()
            if !host.storeIsIdle {
                logger.error("the session store did not answer in time; sessions may not have been handed over")
            }
        } else {
            host.beginShutdown(at: clock.now())
        }
        carryOutActions()
        if !links.isEmpty {
            let deadline = eventLoop.scheduleTask(in: .milliseconds(Int64(graceMilliseconds))) {
                self.assumeIsolated { $0.resumeDrained() }
            }
            await withCheckedContinuation { drained.append($0) }
            deadline.cancel()
        }
        tick?.cancel()
        sweep?.cancel()
        feed?.stop()
        storeThread?.stop()
        host.tearDown()
        logger.info("sessions closed", metadata: ["ticks": "\(host.ticks.run)"])
    }

    /// Waits (off the loop) until the store has answered every batch handed to it, 1 s at most, and takes its answers.
    private func waitForTheStore() async {
        guard let storeThread else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            readQueue.async {
                _ = storeThread.waitUntilAnswered(seconds: 1)
                done.resume()
            }
        }
        deliverStoreReports()
    }

    private func deliverStoreReports() {
        guard let storeThread else { return }
        for report in storeThread.takeReports() { host.storeAnswered(report, at: clock.now()) }
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

    // MARK: - The host's actions

    private func carryOutActions() {
        host.carryOutActions { action in
            switch consume action {
            case .wantWrite(let connection), .writeSoon(let connection):
                links[connection.id]?.wake.yield()
            case .kill(let connection):
                links[connection.id]?.killed = true
                links[connection.id]?.wake.yield()
            case .armTick(let deadline):
                tick?.cancel()
                tick = eventLoop.scheduleTask(in: .microseconds(max(0, deadline - clock.now()))) {
                    self.assumeIsolated { $0.onTick() }
                }
            case .armSweep(let after):
                sweep?.cancel()
                sweep = eventLoop.scheduleTask(in: .microseconds(after)) {
                    self.assumeIsolated { $0.onSweep() }
                }
            case .writeStore(let batch):
                storeThread?.submit(batch)
            case .readStore(let read):
                guard let storeReads else {
                    host.storeRead(StoreReadAnswer(read: read, load: .unavailable), at: clock.now())
                    return
                }
                readQueue.async { [eventLoop] in
                    let answer = storeReads.answer(read)
                    eventLoop.execute { self.assumeIsolated { $0.storeReadAnswered(answer) } }
                }
            case .requestFeed(let session, let id, let request):
                if let feed {
                    feed.submit(request, session: session, request: id)
                } else {
                    let failure = FeedFailure(.unavailable("the server has no feed source"))
                    host.feedAnswered(
                        session: session, answer: FeedAnswerInput(request: id, outcome: .failure(failure)),
                        at: clock.now())
                }
            }
        }
    }

    private func onTick() {
        host.tick(at: clock.now())
        carryOutActions()
    }

    private func storeReadAnswered(_ answer: StoreReadAnswer) {
        host.storeRead(answer, at: clock.now())
        carryOutActions()
    }

    private func onSweep() {
        deliverStoreReports()  // before the sweep, which writes the next batch once the last is answered
        host.sweep(at: clock.now())
        carryOutActions()
    }

    /// Takes what the feed's threads left: answers to the sessions' requests, and the poll's newest page.
    private func deliverFeedReports() {
        guard let feed else { return }
        for report in feed.takeReports() {
            switch report {
            case .answered(let session, let request, let answer):
                host.feedAnswered(session: session, answer: answer.input(answering: request), at: clock.now())
            case .polled(let outcome):
                host.feedPolled(try? outcome.get(), at: clock.now())
            case .posted:
                break  // posts go through the app's own routes
            }
            carryOutActions()
        }
    }
}
