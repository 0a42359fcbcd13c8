import CLibWebSockets
import Logging
import RefreshFeeds
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
/// carries out the host's actions on the sockets and timers. The rules are the host's (``SessionHost``); this
/// file only translates. Confined to the service thread: it is created, run and destroyed there, and nothing
/// else touches it (the only cross-thread call is `lws_cancel_service`, made by ``Server``). The host's store
/// batches go to the ``StoreThread``, whose answers it takes at each sweep: it never waits on Redis to write.
/// Its reads (a take-over's) are carried out here (``StoreReads``) and answered as events. Every event's time
/// is read here: the host reads no clock. The pieces of messages a turn of the loop reads are held and handed to
/// the host at the turn's end, or before any other event (``TurnInputs``), their sessions fetched meanwhile.
final class ServiceLoop {
    let configuration: ServerConfiguration
    /// The app's own feed source, if the server was given one (else `configuration.feed` is opened).
    let appSource: (any FeedSource)?
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
    /// The server's rules: every connection and session, and what each event makes of them.
    let host: SessionHost
    /// Writes the host's batches to the session store, off this thread (`nil`: no store).
    let storeThread: StoreThread?
    /// Carries out the host's take-over reads (`nil`: no store).
    let storeReads: StoreReads?
    /// The time of every event told to the host, and so of the engine, the traces and the wire: µs since the
    /// Unix epoch, comparable across processes and machines (``ServerClock``). `lws_now_usecs` (the monotonic
    /// clock) is left to what times only itself: the log throttle, the store's reconnection.
    let clock = ServerClock()
    var nextConnectionID: UInt64 = 1
    /// The external feed's workers (`nil`: the simulated feed, which the engine runs) and `POST /feed/items`
    /// (ServiceLoop+Feed.swift), set by ``create()``.
    var feed: FeedService?
    var feedPosts: FeedPosts?

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

    init(configuration: ServerConfiguration, source: (any FeedSource)?, logger: Logger, stopFlag: StopFlag) {
        self.configuration = configuration
        appSource = source
        self.logger = logger
        self.stopFlag = stopFlag
        gatekeeper = Gatekeeper(configuration: configuration.hardening, logger: logger)
        host = SessionHost(
            configuration: configuration.hostConfiguration(source: source), logger: logger,
            metrics: metrics.hostMetrics, headroom: Int(RK_LWS_PRE))
        // (validated before: ServerConfiguration.validate())
        if let url = configuration.storeURL, let address = try? StoreAddress(url) {
            host.hasStore = true
            storeReads = StoreReads(address: address, logger: logger)
            storeThread = StoreThread(address: address, logger: logger)
        } else {
            (storeReads, storeThread) = (nil, nil)
        }
        tick = .allocate(capacity: 1)
        tick.initialize(to: rk_tick_t())
        shutdownWake = .allocate(capacity: 1)
        shutdownWake.initialize(to: rk_tick_t())
        keepaliveSweep = .allocate(capacity: 1)
        keepaliveSweep.initialize(to: rk_tick_t())
        turnEnd = .allocate(capacity: 1)
        turnEnd.initialize(to: uv_check_t())
    }

    deinit {
        storeThread?.stop()  // (already stopped by `destroy()`, unless the context was never made)
        feed?.stop()
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
        // The feed's threads wake the loop (lws_cancel_service) when they answer. Without a feed (and so
        // without image requests, made only with one) there is nothing to take: not called, since every turn
        // would pay for the call.
        if feed != nil { deliverFeedReports() }
        carryOutActions()
        if let uvLoop, stopFlag.isSet { uv_stop(uvLoop) }
    }

    /// Destroys the context (lws delivers `CLOSED` for every connection still open) and frees the C
    /// memory it used.
    func destroy() {
        feed?.stop()  // before the context goes: its threads wake it
        gatekeeper.images?.stop()  // likewise (Images/ImageFetchService.swift)
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
        storeThread?.stop()
        resources.releaseAll()
        logger.debug(
            "libwebsockets context destroyed",
            metadata: ["ticks": "\(host.ticks.run)", "skipped": "\(host.ticks.skipped)"])
    }

    /// How long a shutdown waits for the store, twice at most: for the batch being written, then for the last
    /// one (each is at most a connection attempt, a script load and a write, 250 ms apiece).
    static let storeHandOverSeconds = 1.0

    /// - Returns: the time the shutdown gives up waiting for connections to close.
    private func beginShutdown() -> Int64 {
        lws_sul_cancel(&tick.pointee.sul)
        if let storeThread {
            // The one wait on Redis this thread makes: every session is handed over before the closes go out
            // (the host's first action is the last batch; the closes are written only once the loop runs).
            _ = storeThread.waitUntilAnswered(seconds: Self.storeHandOverSeconds)
            deliverStoreReports()
            host.beginShutdown(at: clock.now())
            carryOutActions()
            _ = storeThread.waitUntilAnswered(seconds: Self.storeHandOverSeconds)
            deliverStoreReports()
            if !host.storeIsIdle {
                logger.error("the session store did not answer in time; sessions may not have been handed over")
            }
        } else {
            host.beginShutdown(at: clock.now())
        }
        carryOutActions()
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
