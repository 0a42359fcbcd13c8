import RefreshAccess
import RefreshFeeds
import RefreshKit
import RefreshSessions
import RefreshStore
import RefreshWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a ``Server`` needs to know before it starts. A value: build it, validate it, hand it over.
public struct ServerConfiguration: Sendable, Hashable {
    /// The address to bind: an IPv4 or IPv6 literal (`0.0.0.0` = every IPv4 interface, `127.0.0.1` for
    /// tests) or an interface name (`lo`).
    public var host: String
    /// The TCP port; `0` lets the kernel pick one (read it back from ``Server/port``).
    public var port: Int
    /// The folder served at `/` (made absolute when the server starts). Nothing outside it is reachable.
    public var webRoot: String
    /// The session host's limits and timings (the default preset, the presets sessions may use, the message
    /// size and rate, the tick, the seed, liveness, the sessions' grace and numbers, the traces): the host's own
    /// value, held and handed over as it is, so that each default and limit has one home
    /// (`SessionHost.Configuration.production`, in RefreshSessions).
    public var sessions: SessionHost.Configuration
    /// The folder of the user's control modules served at `/controls/` (`serve --controls`,
    /// docs/CONTROLS.md); nil: none, and `/controls/index.json` lists none.
    public var controlsRoot: String? = nil
    /// How long a shutdown waits for open connections to take their close frame, in milliseconds.
    public var shutdownGraceMilliseconds: Int
    /// Connection limits, rate limit, Origin policy (docs/HARDENING.md).
    public var hardening: HardeningConfiguration
    /// What waits for the sockets.
    public var eventLoop: EventLoop
    /// This process's name in a cluster (`serve --node`): the `welcome`'s `node` and the prefix of the
    /// session ids it makes (docs/SCALING.md). `nil`: its process id, and ids without a prefix unless a store
    /// is configured.
    public var node: String?
    /// The shared session store, `redis://[USER@]HOST[:PORT][/DB]` (docs/SCALING.md, `StoreAddress`; its password
    /// from the environment or a file, never here); `nil`: sessions live in memory only.
    public var storeURL: String?
    /// The feed behind every session's list (`serve --feed`, docs/FEEDS.md): `simulated` (the engine's own),
    /// `sqlite:PATH`, `feed:URL` (any format) or `jsonfeed:URL`.
    public var feed = "simulated"
    /// How often an external feed's newest page is polled for "N new", milliseconds (0: only after a post).
    public var feedPollMilliseconds = 5000
    /// Addresses and networks besides loopback that may `POST /feed/items` (`AddressAllowList`).
    public var feedPostAllow: [String] = []
    /// Whether the feed's fetches (its documents, next pages, redirects and images) may connect to any address
    /// (`serve --feed-allow-private`); else only to addresses on the internet and to the feed's own host as
    /// written (`FetchPolicy`, docs/FEEDS.md "What is fetched, and what is refused").
    public var feedAllowPrivate = false
    /// `GET /feed/image`'s limits: the cache, the time limit (`serve --image-cache-mb`, `--image-timeout-ms`).
    public var images = ImageLimits()
    /// The certificate and key to serve `https://` and `wss://` with on ``port`` (`serve --tls-cert --tls-key`,
    /// docs/HTTPS.md); nil: plain `http://`.
    public var tls: TLSFiles?

    /// The event loop lws runs on.
    public enum EventLoop: String, Sendable, Hashable, CaseIterable {
        /// libuv (epoll on Linux): a wake-up costs what is ready, not what is open. The default.
        case libuv
        /// lws's built-in `poll()`: every wake-up scans every descriptor (kept to compare, docs/PERFORMANCE.md).
        case poll
    }

    public init(
        host: String = "0.0.0.0",
        port: Int = 8080,
        webRoot: String = "web",
        sessions: SessionHost.Configuration = .production,
        shutdownGraceMilliseconds: Int = 1000,
        hardening: HardeningConfiguration = HardeningConfiguration(),
        eventLoop: EventLoop = .libuv
    ) {
        self.host = host
        self.port = port
        self.webRoot = webRoot
        self.sessions = sessions
        self.shutdownGraceMilliseconds = shutdownGraceMilliseconds
        self.hardening = hardening
        self.eventLoop = eventLoop
    }

    /// The limits a value must respect; the command line shows these messages as they are.
    public func validate() throws(ServerError) {
        if let problem = tls?.problem() { throw .invalidConfiguration(problem) }
        if let node {
            guard (1...32).contains(node.utf8.count),
                node.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
            else {
                throw .invalidConfiguration("node must be 1 to 32 letters, digits, '-' or '_' (got '\(node)')")
            }
        }
        if let storeURL {
            do throws(StoreAddressError) { _ = try StoreAddress(storeURL) } catch {
                throw .invalidConfiguration(error.message)
            }
        }
        do throws(FeedError) {
            _ = try FeedAddress(parsing: feed)
        } catch {
            throw .feedFailed(address: feed, reason: error.description)
        }
        guard (0...3_600_000).contains(feedPollMilliseconds) else {
            throw .invalidConfiguration("feed poll must be between 0 and 3600000 ms (got \(feedPollMilliseconds))")
        }
        if case .failure(let error) = AddressAllowList.parse(feedPostAllow) {
            throw .invalidConfiguration(
                "--feed-post-allow needs an IPv4 or IPv6 address or network (10.0.0.5, 10.0.0.0/8), got '\(error.entry)'"
            )
        }
        guard (1...4096).contains(images.cacheBytes / (1024 * 1024)) else {
            throw .invalidConfiguration(
                "the image cache must be between 1 and 4096 MiB (got \(images.cacheBytes / (1024 * 1024)))")
        }
        guard (0...86_400).contains(images.failureSeconds) else {
            throw .invalidConfiguration(
                "the image retry time must be between 0 and 86400 s (got \(images.failureSeconds))")
        }
        guard (100...60_000).contains(images.timeoutMilliseconds) else {
            throw .invalidConfiguration(
                "the image time limit must be between 100 and 60000 ms (got \(images.timeoutMilliseconds))")
        }
        guard (0...65535).contains(port) else {
            throw .invalidConfiguration("port must be between 0 and 65535 (got \(port))")
        }
        guard !host.isEmpty, !host.utf8.contains(0) else {
            throw .invalidConfiguration("host must not be empty")
        }
        try validateSessions()
        guard (0...60_000).contains(shutdownGraceMilliseconds) else {
            throw .invalidConfiguration("shutdown grace must be between 0 and 60000 ms")
        }
        try hardening.validate()
    }
}

/// Why a ``Server`` could not start.
public enum ServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A value of the configuration is out of range.
    case invalidConfiguration(String)
    /// The web root does not exist or is not a folder.
    case webRootNotFound(String)
    /// libwebsockets could not create its context (most often: the port is taken or the host unknown).
    case listenFailed(host: String, port: Int)
    /// ``Server/start()`` was called twice.
    case alreadyStarted
    /// libuv could not set up an event loop (``ServerConfiguration/EventLoop/libuv``).
    case eventLoopFailed
    /// The feed source (``ServerConfiguration/feed``) cannot be used: a bad address, a missing folder, a file
    /// that cannot be read, is not a feed database or is locked.
    case feedFailed(address: String, reason: String)
    /// The service loop stopped on a libwebsockets failure rather than a stop (the log says which).
    case serviceFailed

    public var description: String {
        switch self {
        case .invalidConfiguration(let message): message
        case .webRootNotFound(let path): "web root '\(path)' does not exist or is not a directory"
        case .listenFailed(let host, let port):
            "could not listen on \(host):\(port) (address in use, or no such address or interface)"
        case .alreadyStarted: "the server was already started"
        case .eventLoopFailed: "libuv could not create an event loop (try --event-loop poll)"
        case .feedFailed(let address, let reason): "feed \(address): \(reason)"
        case .serviceFailed: "the server stopped on a libwebsockets failure (see the log)"
        }
    }
}

extension ServerConfiguration {
    /// What the session host's rules read: ``sessions``, with this process's name (the feed and the store are the
    /// host driver's to add: ``HostDriver/configuration(_:source:store:)``).
    func hostConfiguration() -> SessionHost.Configuration {
        var host = sessions
        host.node = node ?? String(getpid())
        host.authorityPage = tls?.certificateAuthority == nil ? nil : AuthorityPage.pagePath
        host.prefixesIDs = node != nil
        return host
    }

    /// The ranges the command line allows for the session host's limits and timings.
    private func validateSessions() throws(ServerError) {
        let s = sessions
        guard s.presets.names.contains(s.defaultPreset) else {
            throw .invalidConfiguration(
                "unknown preset '\(s.defaultPreset)'; available presets: \(s.presets.names.joined(separator: ", "))")
        }
        guard (256...(1 << 20)).contains(s.maxMessageBytes) else {
            throw .invalidConfiguration("max message bytes must be between 256 and 1048576 (got \(s.maxMessageBytes))")
        }
        guard (16...1_000_000).contains(s.maxQueuedMessages) else {
            throw .invalidConfiguration(
                "max queued messages must be between 16 and 1000000 (got \(s.maxQueuedMessages))")
        }
        guard (0...1_000_000).contains(s.messagesPerSecondPerAddress) else {
            throw .invalidConfiguration(
                "the rate limit per address must be between 0 and 1000000 messages/s (got \(s.messagesPerSecondPerAddress))"
            )
        }
        guard (1...1000).contains(s.tickRate) else {
            throw .invalidConfiguration("tick rate must be between 1 and 1000 Hz (got \(s.tickRate))")
        }
        guard (1...3600).contains(s.pingIntervalSeconds), s.pingIntervalSeconds < s.hangupSeconds,
            s.hangupSeconds <= 65535
        else {
            throw .invalidConfiguration(
                "ping interval must be 1…3600 s and shorter than the hang-up time (got \(s.pingIntervalSeconds) s / \(s.hangupSeconds) s)"
            )
        }
        guard s.sessionGraceSeconds.isFinite, (0...86_400).contains(s.sessionGraceSeconds) else {
            throw .invalidConfiguration("session grace must be between 0 and 86400 s (got \(s.sessionGraceSeconds))")
        }
        guard (1...1_000_000).contains(s.maxSessions) else {
            throw .invalidConfiguration("max sessions must be between 1 and 1000000 (got \(s.maxSessions))")
        }
        guard (1...1_000_000).contains(s.maxSessionsPerAddress) else {
            throw .invalidConfiguration(
                "max sessions per address must be between 1 and 1000000 (got \(s.maxSessionsPerAddress))")
        }
        guard (1...1024).contains(s.maxMembersPerSession) else {
            throw .invalidConfiguration(
                "max members per session must be between 1 and 1024 (got \(s.maxMembersPerSession))")
        }
        guard s.traceLimits.maxOperations >= 0, s.traceLimits.maxBytes >= 0, s.maxTraceBytesTotal >= 0 else {
            throw .invalidConfiguration("trace limits must not be negative")
        }
        guard (1...100_000).contains(s.messagesPerSecond) else {
            throw .invalidConfiguration(
                "rate limit must be between 1 and 100000 messages/s (got \(s.messagesPerSecond))")
        }
        guard (1...3600).contains(s.floodCloseSeconds) else {
            throw .invalidConfiguration("flood close time must be between 1 and 3600 s (got \(s.floodCloseSeconds))")
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
