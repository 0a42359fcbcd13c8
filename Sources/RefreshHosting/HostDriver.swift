import Dispatch
import Logging
import RefreshFeeds
import RefreshKit
import RefreshSessions
import RefreshStore
import ServerClock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The session host as a transport runs it (docs/EMBEDDING.md, "A transport of one's own"): the host, its clock,
/// the feed's workers, the store's writer and reader, and every one of the host's actions that is not I/O. The
/// libwebsockets server and the Hummingbird adapter each keep only their I/O, a ``HostTransport``.
///
/// Confined to the transport's serving thread, as the host is: every method is called there. What other threads
/// produce (the feed's reports, the store's answers to a take-over's read) comes back through the hop the
/// transport gives ``start(hop:)``. The store is read off that thread, one read at a time, and written off it by
/// the `StoreThread`; nothing here waits on Redis but a shutdown's hand-over (``nextShutdownStep(on:)``), and
/// then only where the transport waits.
public final class HostDriver {
    /// The server's rules: every connection and session, and what each event makes of them.
    public let host: SessionHost
    /// The time of every event told to the host (`ServerClock`): the host reads no clock.
    public let clock = ServerClock()
    /// The feed source's workers (`nil`: the engine's simulated feed).
    public let feed: FeedService?
    /// Writes the host's batches to the session store (`nil`: no store).
    public let storeThread: StoreThread?
    /// Answers a take-over's reads, on `readQueue` (`nil`: no store).
    private let storeReads: StoreReads?
    /// One read at a time (the reader has one connection to Redis).
    private let readQueue = DispatchQueue(label: "refreshkit-store-reads")
    /// Brings what another thread produced to the serving thread; set by ``start(hop:)``.
    private var hop: (@Sendable (HostArrival) -> Void)?
    /// Take-over reads asked for before ``start(hop:)`` (a page that connected before the transport started):
    /// read once there is a way back.
    private var readsBeforeStart: [StoreRead] = []
    let logger: Logger
    var shutdown = ShutdownPhase.serving

    /// Every page the feed brought (an answer's, the poll's): the libwebsockets server learns the image URLs its
    /// `/feed/image` may fetch from them.
    public var pageArrived: ((FeedPage) -> Void)?
    /// A post handed to ``feed`` (with its ticket) was written, or refused.
    public var postAnswered: ((UInt64, Result<FeedItem, FeedError>) -> Void)?

    /// The host for `configuration`, serving `source` (nil: the engine's simulated feed) and keeping its sessions
    /// in `store` (nil: none). `metrics` and `headroom` are the host's own (`SessionHost`).
    public init(
        configuration: SessionHost.Configuration, source: HostedSource?, store: StoreAddress?, logger: Logger,
        metrics: HostMetrics = .none, headroom: Int = 0
    ) {
        self.logger = logger
        host = SessionHost(
            configuration: Self.configuration(configuration, source: source, store: store), logger: logger,
            metrics: metrics, headroom: headroom)
        host.hasStore = store != nil
        storeThread = store.map { StoreThread(address: $0, logger: logger) }
        storeReads = store.map { StoreReads(address: $0, logger: logger) }
        feed = source.map {
            FeedService(source: $0.source, limits: FeedLimits(), pollMilliseconds: $0.pollMilliseconds)
        }
    }

    deinit {
        feed?.stop()
        storeThread?.stop()
    }

    /// `base` as the host runs it with `source` and `store`: the `welcome` names the source, and with a store
    /// every session id names this process, so a balancer routes by it (docs/SCALING.md). A node without a name
    /// is called by its process id.
    public static func configuration(
        _ base: SessionHost.Configuration, source: HostedSource?, store: StoreAddress?
    ) -> SessionHost.Configuration {
        var host = base
        if host.node.isEmpty { host.node = String(getpid()) }
        if store != nil { host.prefixesIDs = true }
        if let source {
            (host.feedSource, host.feedKind, host.feedPostable) = (source.source.address, source.kind, source.postable)
        } else {
            host.feedSource = nil
        }
        return host
    }

    /// From now on the feed's workers and the store's reads hand what they produce to `hop`, which brings it to
    /// ``take(_:on:)`` on the serving thread. What the feed answered before (a page that connected before the
    /// transport started) is waiting: `hop` is asked for it at once.
    public func start(hop: @escaping @Sendable (HostArrival) -> Void) {
        self.hop = hop
        feed?.start { hop(.feedReports) }
        if feed != nil { hop(.feedReports) }
        for read in readsBeforeStart { readOffTheLoop(read) }
        readsBeforeStart.removeAll()
    }

    /// Stops the feed's workers and the store's writer (a transport's last step, once its sockets are closed).
    public func stop() {
        feed?.stop()
        storeThread?.stop()
        hop = nil  // (it may hold the transport, which holds this driver)
        host.tearDown()
    }

    // MARK: - The host's actions

    /// Carries out what the host asked for, in order (carrying one out may add more): the sockets' and the
    /// timers' on `transport`, the rest here. Inlined into the transport, where every input ends with it.
    @inlinable
    public func carryOutActions(on transport: some HostTransport) {
        host.carryOutActions { action in
            switch consume action {
            case .wantWrite(let connection): transport.wake(connection, soon: false)
            case .writeSoon(let connection): transport.wake(connection, soon: true)
            case .kill(let connection): transport.close(connection)
            case .armTick(let deadline): transport.arm(.tick, inMicroseconds: max(0, deadline - clock.now()))
            case .armSweep(let after): transport.arm(.sweep, inMicroseconds: after)
            case let other: carryOut(other)
            }
        }
    }

    /// The actions that are not I/O: the store's writes and reads, the feed's requests.
    @usableFromInline
    func carryOut(_ action: consuming HostAction) {
        switch consume action {
        case .writeStore(let batch):
            storeThread?.submit(batch)
        case .readStore(let read):
            guard storeReads != nil else {
                host.storeRead(StoreReadAnswer(read: read, load: .unavailable), at: clock.now())
                return
            }
            if hop == nil { readsBeforeStart.append(read) } else { readOffTheLoop(read) }
        case .requestFeed(let session, let id, let request):
            guard let feed else {
                let failure = FeedFailure(.unavailable("the server has no feed source"))
                host.feedAnswered(
                    session: session, answer: FeedAnswerInput(request: id, outcome: .failure(failure)),
                    at: clock.now())
                return
            }
            feed.submit(request, session: session, request: id)
        case .wantWrite, .writeSoon, .kill, .armTick, .armSweep:
            preconditionFailure("carried out by the transport")
        }
    }

    /// Reads `read` on the read queue; its answer hops back to the serving thread.
    private func readOffTheLoop(_ read: StoreRead) {
        guard let storeReads, let hop else { return }
        readQueue.async { hop(.storeRead(storeReads.answer(read))) }
    }

    /// One of the host's timers is due.
    public func fire(_ timer: HostTimer, on transport: some HostTransport) {
        switch timer {
        case .tick:
            host.tick(at: clock.now())
        case .sweep:
            deliverStoreReports()  // before the sweep, which writes the next batch once the last is answered
            host.sweep(at: clock.now())
        }
        carryOutActions(on: transport)
    }
}
