import CLibWebSockets
import Dispatch
import Foundation
import Logging
import RefreshFeeds
import RefreshThreads
import Synchronization

/// The RefreshKit server: serves the page in the web root and the `refreshkit.v1` WebSocket on one port.
///
/// One libwebsockets context runs on a dedicated thread, which owns every connection and session and is
/// the only thread that touches lws (no locks on the hot path). ``start()`` returns once the port is
/// bound; ``stop()`` closes every WebSocket with 1001 (going away), gives them a moment to flush, and
/// returns when the thread has finished.
public final class Server: Sendable {
    public let configuration: ServerConfiguration
    /// The app's own feed source, served instead of ``ServerConfiguration/feed`` (docs/EMBEDDING.md).
    public let source: (any FeedSource)?
    private let logger: Logger
    private let stopFlag = StopFlag()
    /// Shared by the caller's thread, the service thread and the signal thread: a lock ThreadSanitizer sees
    /// (``LockedValue``; docs/HARDENING.md, "Sanitizers"): a late signal reads the waker after the service thread
    /// cleared it, with nothing else between the two threads.
    private let state = LockedValue(State())
    /// The service thread until someone has joined it (the lock is held while joining, so every waiter returns
    /// only once the thread is gone: docs/HARDENING.md, "Threads end before the process does").
    private let serviceThread = LockedValue<JoinableThread?>(nil)

    private struct State {
        var started = false
        var port = 0
        /// The context while it may be woken: set once created, cleared before it is destroyed, so
        /// `lws_cancel_service` never races `lws_context_destroy`.
        var waker: ContextWaker?
        var failed = false
    }

    /// A server with `configuration`, logging to `logger`. With a `source`, every session's list shows that
    /// source's items (an app's own data: docs/EMBEDDING.md) and ``ServerConfiguration/feed`` is not read.
    public init(
        configuration: ServerConfiguration, source: (any FeedSource)? = nil,
        logger: Logger = Logger(label: "refreshkit")
    ) {
        self.configuration = configuration
        self.source = source
        self.logger = logger
    }

    /// The port the server listens on (meaningful after ``start()``; the bound port when configured as 0).
    public var port: Int { state.withLock { $0.port } }

    /// Whether the service thread stopped because of an lws failure rather than ``stop()``.
    public var failed: Bool { state.withLock { $0.failed } }

    /// Binds the port and starts the service thread. Returns once the server is listening.
    public func start() throws(ServerError) {
        try configuration.validate()
        let alreadyStarted = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        if alreadyStarted { throw .alreadyStarted }

        let startup = Startup()
        let thread = JoinableThread(name: "rk-lws") { [self] in runServiceThread(startup) }
        serviceThread.withLock { $0 = thread }
        startup.ready.wait()
        if let error = startup.result.withLock({ $0 }) {
            wait()
            throw error
        }
    }

    /// Serves until SIGINT or SIGTERM, then stops as ``stop()`` does: the whole life of a program that is this
    /// server (`refreshkit serve`, `examples/gitlog`). Blocks both signals first, so that one thread takes them
    /// with `sigwait` (call it before starting threads of your own, which would otherwise receive them); starts;
    /// hands `listening` the address to open (by default printed as `listening on URL`); waits.
    /// - Throws: what ``start()`` throws, or ``ServerError/serviceFailed`` when the loop stopped on a failure.
    public func run(listening: (_ url: String) -> Void = Server.printListening) throws(ServerError) {
        SignalWatcher.blockStopSignals()
        signal(SIGPIPE, SIG_IGN)
        try start()
        SignalWatcher.start { [self] number in
            logger.notice("signal \(number): stopping")
            requestStop()
        }
        listening("\(configuration.tls == nil ? "http" : "https")://\(Self.displayHost(configuration.host)):\(port)")
        wait()
        if failed { throw .serviceFailed }
    }

    /// Writes `listening on URL` to standard output at once (what the tests and scripts wait for).
    public static func printListening(_ url: String) {
        FileHandle.standardOutput.write(Data("listening on \(url)\n".utf8))
    }

    /// The host for an address to open: a wildcard address is shown as loopback (a URL that works).
    public static func displayHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0": "127.0.0.1"
        case "::", "[::]": "[::1]"
        default: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }

    /// Asks the server to stop without waiting (safe from any thread, e.g. a signal handler's queue).
    public func requestStop() {
        stopFlag.set()
        state.withLock { state in
            state.waker?.wake()
        }
    }

    /// Stops the server: every WebSocket is closed with 1001, then the context is destroyed. Blocks until
    /// the service thread has finished. Does nothing if the server never started.
    public func stop() {
        requestStop()
        wait()
    }

    /// Blocks until the service thread has finished (after ``stop()`` or ``requestStop()``).
    public func wait() {
        serviceThread.withLock { thread in
            thread?.join()
            thread = nil
        }
    }

    private func runServiceThread(_ startup: Startup) {
        LibWebSocketsLog.install(logger)
        let loop: ServiceLoop
        do {
            loop = try ServiceLoop(configuration: configuration, source: source, logger: logger, stopFlag: stopFlag)
            try loop.create()
        } catch {
            startup.result.withLock { $0 = error }
            startup.ready.signal()
            return
        }
        state.withLock { state in
            state.port = loop.port
            state.waker = loop.context.map(ContextWaker.init)
        }
        startup.ready.signal()
        logger.info(
            "listening", metadata: ["host": "\(configuration.host)", "port": "\(loop.port)"])

        let clean = loop.run()

        state.withLock { state in
            state.waker = nil
            state.failed = !clean
        }
        loop.destroy()
        logger.info("stopped")
    }
}

/// Hands the outcome of context creation from the service thread to ``Server/start()``.
private final class Startup: Sendable {
    let ready = DispatchSemaphore(value: 0)
    let result = Mutex<ServerError?>(nil)
}
