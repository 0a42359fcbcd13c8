import CLibWebSockets
import Logging
import RefreshFeeds
import RefreshHosting
import RefreshKit
import RefreshSessions
import RefreshStore
import RefreshWire
import ServerClock
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The libwebsockets adapter: it runs the context (made in ServiceLoop+Context.swift), tells the session host
/// what lws reports (a connection opened, a piece of a message, a socket writable, a pong, a timer, a close) and
/// is the ``HostDriver``'s transport: it wakes a connection's writer, closes it, arms the host's timers and brings
/// what other threads produced to the driver (``LoopMailbox``). The rules are the host's (``SessionHost``); the
/// feed, the store and the rest of the host's actions are the driver's; this file only translates. Confined to the
/// service thread: it is created, run and destroyed there, and nothing else touches it (the only cross-thread call
/// is `lws_cancel_service`, made by ``Server`` and the mailbox). Every event's time is read here, from the
/// driver's clock: the host reads no clock. The pieces of messages a turn of the loop reads are held and handed to
/// the host at the turn's end, or before any other event (``TurnInputs``), their sessions fetched meanwhile.
final class ServiceLoop {
    let configuration: ServerConfiguration
    let logger: Logger
    private let stopFlag: StopFlag

    /// The lws context, from ``create()`` until ``destroy()``.
    var context: OpaquePointer?
    /// The libuv loop lws runs on (`nil` on lws's poll loop), from ``create()`` until ``destroy()``.
    var uvLoop: UnsafeMutablePointer<uv_loop_t>?
    /// The port actually bound.
    var port = 0

    let resources = CResources()
    /// Origin, connection limits, static paths (Gatekeeper.swift).
    let gatekeeper: Gatekeeper
    /// The vital signs at `/metrics` (docs/OPERATIONS.md).
    let metrics = ServerMetrics()
    /// The host, the feed's workers, the store, and every action of the host's that is not I/O.
    let driver: HostDriver
    /// The server's rules (the driver's host, held here too: every input reads it).
    let host: SessionHost
    /// The time of every event told to the host, and so of the engine, the traces and the wire: µs since the
    /// Unix epoch, comparable across processes and machines (the driver's ``ServerClock``). `lws_now_usecs` (the
    /// monotonic clock) is left to what times only itself: the log throttle, the store's reconnection.
    let clock: ServerClock
    var nextConnectionID: UInt64 = 1
    /// `POST /feed/items` (ServiceLoop+Feed.swift), with a source that takes posts.
    var feedPosts: FeedPosts?
    /// `GET /feed/image` (Images/), with a feed: its fetchers' answers are taken at every turn's end.
    let images: ImageRequests?
    /// What the feed's workers and the store's reads bring from their threads (opened by ``create()``).
    let mailbox = LoopMailbox()

    // Timers: the host's tick, its liveness sweep, and the shutdown's deadline.
    let tick: UnsafeMutablePointer<rk_tick_t>
    let keepaliveSweep: UnsafeMutablePointer<rk_tick_t>
    let shutdownWake: UnsafeMutablePointer<rk_tick_t>
    private var shutdownDeadline: Int64?
    /// On libuv: the check handle that ends each of the loop's turns (``endTurn()``), started by ``create()``
    /// and closed by ``destroy()``.
    let turnEnd: UnsafeMutablePointer<uv_check_t>
    var turnEndStarted = false
    /// The pieces of messages this turn has read so far, handed to the host at its end (``TurnInputs``).
    let turnInputs = TurnInputs()
    @exclusivity(unchecked) var sessionPrefetch = SessionPrefetch()

    /// The loop serving `source` (the app's own; nil: the one `configuration.feed` names, opened now: a clear
    /// ``ServerError/feedFailed(address:reason:)`` when it cannot work).
    init(
        configuration: ServerConfiguration, source: (any FeedSource)?, logger: Logger, stopFlag: StopFlag
    ) throws(ServerError) {
        self.configuration = configuration
        self.logger = logger
        self.stopFlag = stopFlag
        gatekeeper = Gatekeeper(configuration: configuration.hardening, logger: logger)
        // where the server's fetches may connect (docs/FEEDS.md, "What is fetched, and what is refused")
        let policy = FetchPolicy(allowsPrivate: configuration.feedAllowPrivate)
        let hosted = try FeedStart.hosted(configuration, appSource: source, policy: policy, logger: logger)
        driver = HostDriver(
            configuration: configuration.hostConfiguration(), source: hosted,
            store: configuration.storeURL.flatMap { try? StoreAddress($0) },  // (validated: ServerConfiguration)
            logger: logger, metrics: metrics.hostMetrics, headroom: Int(RK_LWS_PRE))
        host = driver.host
        clock = driver.clock
        images = Self.images(
            for: driver, configuration: configuration,
            policy: (hosted?.source as? WebFeedSource)?.policy ?? policy, logger: logger)
        tick = .allocate(capacity: 1)
        tick.initialize(to: rk_tick_t())
        shutdownWake = .allocate(capacity: 1)
        shutdownWake.initialize(to: rk_tick_t())
        keepaliveSweep = .allocate(capacity: 1)
        keepaliveSweep.initialize(to: rk_tick_t())
        turnEnd = .allocate(capacity: 1)
        turnEnd.initialize(to: uv_check_t())
        servePosts()
    }

    deinit {
        tick.deinitialize(count: 1)
        tick.deallocate()
        shutdownWake.deinitialize(count: 1)
        shutdownWake.deallocate()
        keepaliveSweep.deinitialize(count: 1)
        keepaliveSweep.deallocate()
        turnEnd.deinitialize(count: 1)
        turnEnd.deallocate()  // (closed by `destroy()`, which ran the loop until its close was done)
    }

    var owner: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: - Lifecycle

    /// The metrics page, its gauges set from what the server holds now.
    func metricsPage() -> String {
        let members = host.sessions.values.reduce(0) { $0 + $1.connectedCount }
        let heap = HeapFigures.now()
        metrics.take(host.counters)
        metrics.snapshot(
            ServerMetrics.Holdings(
                connections: host.connections.count, sessions: host.sessions.count, members: members,
                traceBytes: host.traceBytes, heapInUseBytes: heap.inUse, heapFreeBytes: heap.free))
        return metrics.text()
    }

    /// Services the context until a stop is requested and the connections are closed (or the grace
    /// period ran out). - Returns: `false` when lws reported a fatal error.
    func run() -> Bool {
        guard let context else { return false }
        while true {
            if stopFlag.isSet {
                let deadline = shutdownDeadline ?? beginShutdown()
                if host.connections.isEmpty || clock.now() >= deadline { return true }
            }
            if let uvLoop {
                // Turns (whatever is ready: sockets, lws's timers, the wake-up pipe of lws_cancel_service), each
                // ended by the check handle's endTurn(), until a turn finds the stop flag set and stops the loop.
                // Not one uv_run(UV_RUN_ONCE) per turn: each call paid the loop's entry and a second reading of
                // the clock and run of the timers at its end, and a turn comes about once an input
                // (docs/PERFORMANCE.md, "The whole server, instructions per input").
                uv_run(uvLoop, UV_RUN_DEFAULT)
            } else {
                if lws_service(context, 0) < 0 {
                    logger.error("lws_service failed; stopping")
                    return false
                }
                endTurn()
            }
        }
    }

    /// The end of one turn of the loop, once lws has handled whatever was ready: the frame held for the turn's
    /// last input goes out, the feed's answers are taken and the host's actions carried out. On libuv, the check
    /// handle's callback (after the turn's I/O), which also stops the loop once a stop is requested, so that
    /// ``run()`` sees it (and, while shutting down, its deadline) after every turn.
    fileprivate func endTurn() {
        handOverTurnInputs()
        host.flushHeldFrame()
        // The feed's threads and the store's reads wake the loop (lws_cancel_service) when they answer; the image
        // fetchers too (Images/, made only with a feed).
        images?.deliver()
        if mailbox.hasMail {
            for arrival in mailbox.take() { driver.take(arrival, on: self) }
        }
        carryOutActions()
        if let uvLoop, stopFlag.isSet { uv_stop(uvLoop) }
    }

    /// Destroys the context (lws delivers `CLOSED` for every connection still open) and frees the C
    /// memory it used.
    func destroy() {
        driver.feed?.stop()  // before the context goes: its threads wake it
        mailbox.close()  // likewise the store's reads
        images?.stop()  // and the image fetchers (Images/ImageFetchService.swift)
        host.tearDown()  // `CLOSED` callbacks from here on only let go of their sessions
        if turnEndStarted {
            // Closed before the loop's last run, which completes the close.
            uv_check_stop(turnEnd)
            uv_close(UnsafeMutableRawPointer(turnEnd).assumingMemoryBound(to: uv_handle_t.self), nil)
            turnEndStarted = false
        }
        lws_sul_cancel(&tick.pointee.sul)
        lws_sul_cancel(&shutdownWake.pointee.sul)
        lws_sul_cancel(&keepaliveSweep.pointee.sul)
        // On libuv this runs the loop until lws has closed everything (CLOSED callbacks arrive in it).
        rk_uv_destroy(context, uvLoop)
        context = nil
        uvLoop = nil
        host.clearActions()
        driver.storeThread?.stop()
        resources.releaseAll()
        logger.debug(
            "libwebsockets context destroyed",
            metadata: ["ticks": "\(host.ticks.run)", "skipped": "\(host.ticks.skipped)"])
    }

    /// - Returns: the time the shutdown gives up waiting for connections to close.
    private func beginShutdown() -> Int64 {
        lws_sul_cancel(&tick.pointee.sul)
        // The one wait on Redis this thread makes: every session is handed over before the closes go out.
        while case .waitForTheStore(let store) = driver.nextShutdownStep(on: self) {
            _ = store.waitUntilAnswered(seconds: HostDriver.storeHandOverSeconds)
        }
        let now = clock.now()
        let deadline = now + Int64(configuration.shutdownGraceMilliseconds) * 1000
        shutdownDeadline = deadline
        if !host.connections.isEmpty, let context {
            // Wakes lws_service at the deadline, in case no connection does.
            lws_sul_schedule(context, 0, &shutdownWake.pointee.sul, shutdownWakeCallback, deadline - now)
        }
        return deadline
    }
}

/// Set by any thread to ask the service thread to stop.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}

// MARK: - C entry points (they run on the service thread, inside lws_service)

/// The loop's check handle: runs after each turn's I/O (``ServiceLoop/endTurn()``).
func turnEndCallback(_ check: UnsafeMutablePointer<uv_check_t>?) {
    guard let owner = check?.pointee.data else { return }
    // The loop outlives its check handle: no retain and release around every turn.
    Unmanaged<ServiceLoop>.fromOpaque(owner)._withUnsafeGuaranteedRef { $0.endTurn() }
}

/// Only wakes the loop (`uv_run` or `lws_service`) so ``ServiceLoop/run()`` can see the shutdown deadline has
/// passed.
private func shutdownWakeCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {}
