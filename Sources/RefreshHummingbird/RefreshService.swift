import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import RefreshAccess
import RefreshFeeds
import RefreshHosting
import RefreshSessions
import RefreshStore
import ServiceLifecycle
import Synchronization

/// RefreshKit in a Hummingbird 2 app (docs/EMBEDDING.md, "In a Hummingbird app"): the sessions of
/// `refreshkit serve`, on the app's event loop, behind a WebSocket route of the app's router.
///
/// ```swift
/// let refresh = RefreshService(source: MySource(), frontDoor: .local(boundTo: "0.0.0.0", port: 8080), logger: logger)
/// let router = Router(context: RefreshRequestContext.self)
/// router.add(middleware: refresh.pageFiles(webRoot: "web"))
/// let sockets = Router(context: RefreshWebSocketRequestContext.self)
/// refresh.addWebSocket(to: sockets)
/// let app = Application(
///     router: router, server: refresh.http1WebSocketUpgrade(webSocketRouter: sockets),
///     configuration: .init(address: .hostname("0.0.0.0", port: 8080)))
/// try await ServiceGroup(
///     configuration: .init(services: [app, refresh], gracefulShutdownSignals: [.sigterm], logger: app.logger)
/// ).run()
/// ```
///
/// Who reaches what is its ``frontDoor`` (RefreshAccess' `FrontDoor`, the value the libwebsockets server's gate asks
/// too): a WebSocket from another site's page is refused, the page's files carry the security headers, and the app's
/// own write routes and `/metrics` ask ``admitWrite(_:context:)`` and ``admitsMetrics(_:context:)``.
///
/// A service (swift-service-lifecycle) after the app in its group: a group stops its services last first, so on a
/// graceful shutdown every WebSocket is closed with 1001 (the page comes back at once) and the feed's workers stop
/// before the server closes what is left (Hummingbird's own handlers would close them with 1000).
public final class RefreshService: Service, Sendable {
    /// What the sessions' rules depend on (the values `refreshkit serve` runs with by default).
    public let configuration: SessionHost.Configuration
    private let loop: HostLoop
    private let logger: Logger
    let refusals: RefusalLog
    private let door: Mutex<FrontDoor>
    /// How long a shutdown waits for the pages to close their WebSockets.
    private let shutdownGraceMilliseconds: Int

    /// The sessions, with `source` behind every list (nil: the engine's simulated feed), on `eventLoop`.
    ///
    /// Liveness is the WebSocket layer's (``webSocketConfiguration``'s automatic ping), since Hummingbird answers
    /// pongs itself: the host is set to never ping.
    ///
    /// With a `store`, sessions are kept in Redis for other processes to take over, and taken over from them, as
    /// `refreshkit serve --store` does (docs/SCALING.md): a libwebsockets server and a Hummingbird app can share one.
    ///
    /// `frontDoor` is who reaches what; by default that of a server on Hummingbird's default port, 8080: its own
    /// origins are this machine's names on that port, no proxy is trusted, and loopback alone may write and read
    /// the metrics. An app on another port, behind a proxy or with other origins passes its own (``frontDoor``).
    public init(
        configuration: SessionHost.Configuration = .production, source: (any FeedSource)? = nil,
        store: StoreAddress? = nil, frontDoor: FrontDoor = .local(boundTo: "127.0.0.1", port: 8080),
        eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any(),
        shutdownGraceMilliseconds: Int = 1000, logger: Logger = Logger(label: "refreshkit")
    ) {
        let hosted = source.map { HostedSource($0) }  // posts go through the app's own routes
        var host = HostDriver.configuration(configuration, source: hosted, store: store)
        self.configuration = host
        // Hummingbird's handler answers pings and takes pongs without telling its app: the host's own
        // keepalive would hang up every quiet page, so it is left to the automatic ping.
        host.pingIntervalSeconds = Int(Int32.max) - 1
        host.hangupSeconds = Int(Int32.max)
        loop = HostLoop(
            driver: HostDriver(configuration: host, source: hosted, store: store, logger: logger), eventLoop: eventLoop,
            logger: logger)
        self.logger = logger
        refusals = RefusalLog(logger: logger)
        door = Mutex(frontDoor)
        self.shutdownGraceMilliseconds = shutdownGraceMilliseconds
    }

    /// Who reaches what (docs/HARDENING.md, "Who reaches what"): which pages may open the WebSocket, which proxies
    /// name the client, who may write and read the metrics. An app that binds port 0 sets it again once it knows its
    /// port (the example does in `onServerRunning`); every request asks the value of the moment.
    public var frontDoor: FrontDoor {
        get { door.withLock { $0 } }
        set { door.withLock { $0 = newValue } }
    }

    /// The WebSocket configuration for the app's server: messages up to the host's limit, and Hummingbird's
    /// ping at the host's interval (an unanswered one closes the connection).
    public var webSocketConfiguration: WebSocketServerConfiguration {
        WebSocketServerConfiguration(
            maxFrameSize: configuration.maxMessageBytes,
            autoPing: .enabled(timePeriod: .seconds(configuration.pingIntervalSeconds)))
    }

    /// Serves the page's files from `webRoot` (the repository's `web/`), `index.html` at `/`, and the list of
    /// control modules the page asks for (none here). Every answer that passes through it carries
    /// `SecurityHeaders.all` (the Content Security Policy, `nosniff`…), the files, the list, a 404 and the refusals
    /// of the routes behind it alike: mounted first, it covers the app's own routes too.
    public func pageFiles<Context: RequestContext>(webRoot: String) -> some RouterMiddleware<Context> {
        PageFiles<Context>(files: FileMiddleware(webRoot, searchForIndexHtml: true))
    }

    /// Adds the `refreshkit.v1` WebSocket at `path` (the page connects to `/`).
    ///
    /// A handshake whose `Origin` the ``frontDoor`` refuses (another site's page, `null`) is refused and logged;
    /// one without `Origin` is not from a browser and goes on, as on the libwebsockets server. With
    /// ``http1WebSocketUpgrade(webSocketRouter:)`` the refusal is a 403 with its reason before this route; with
    /// Hummingbird's own builder, Hummingbird's 400. Each connection's peer, for the session host, is its real client
    /// behind the trusted proxies (``client(of:context:)``): use ``RefreshWebSocketRequestContext`` (a context
    /// without the peer's address gives `?`).
    public func addWebSocket<Context: WebSocketRequestContext>(to router: Router<Context>, at path: RouterPath = "/") {
        router.ws(path) { [self] request, context in
            let client = client(of: request, context: context)
            guard refusal(ofWebSocketFrom: request.headers[.origin], client: client) == nil else { return .dontUpgrade }
            let offered = request.headers[values: .secWebSocketProtocol].flatMap {
                $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            guard offered.contains(Self.subprotocol) else { return .dontUpgrade }
            return .upgrade([.secWebSocketProtocol: Self.subprotocol])
        } onUpgrade: { [self] inbound, outbound, context in
            let client = client(of: context.request, context: context.requestContext)
            // What the `hello` hook may judge the client by, as on the libwebsockets server: its cookies, read only
            // when there is a hook (docs/EMBEDDING.md, "Who may join")
            let credentials = configuration.authorize == nil ? nil : context.request.headers[.cookie]
            await WebSocketLinkTasks(loop: loop).serve(
                inbound: inbound, outbound: outbound, peer: client.key, credentials: credentials)
        }
    }

    /// The host's figures in Prometheus' text format, for a `/metrics` route of the app's.
    public func metricsText() async -> String { await loop.metricsText() }

    /// Runs until the app shuts down gracefully; then closes every WebSocket with 1001.
    public func run() async throws {
        await loop.start()
        try? await gracefulShutdown()
        await loop.shutDown(graceMilliseconds: shutdownGraceMilliseconds)
    }

    static let subprotocol = "refreshkit.v1"
}

/// The page's files, and `/controls/index.json` (the page's list of control modules: this server has none); every
/// answer with the security headers, an error's too (a 404, a route's refusal).
struct PageFiles<Context: RequestContext>: RouterMiddleware {
    let files: FileMiddleware<Context, LocalFileSystem>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if request.uri.path == "/controls/index.json" {
            return SecurityHeaders.applied(
                to: Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"controls":[]}"#))))
        }
        do {
            return SecurityHeaders.applied(to: try await files.handle(request, context: context, next: next))
        } catch let error as any HTTPResponseError {
            return SecurityHeaders.applied(to: try error.response(from: request, context: context))
        }
    }
}
