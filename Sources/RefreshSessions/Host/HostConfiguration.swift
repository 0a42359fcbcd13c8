import RefreshKit
import RefreshWire

extension SessionHost {
    /// What the host's rules depend on (``HostConfiguration``).
    public typealias Configuration = HostConfiguration
}

/// What the session host's rules depend on: the server's limits and timings. This is the one home of their
/// defaults: `ServerConfiguration` holds this value (`sessions`) and `refreshkit serve`'s options read their
/// defaults from ``production``, so the host's tests run under the values a server runs with (`DefaultsTests`).
/// A value of its own, beside the host rather than inside it: the host's rules are what its type holds.
public struct HostConfiguration: Sendable, Hashable {
    /// The preset and feed seed of a session whose `hello` names none.
    public var defaultPreset = "ios"
    /// The presets a session may use (the seeds and a server's preset files, docs/PRESETS.md).
    public var presets = PresetCatalogue.seeds
    /// Seeds every new session's simulated feed (unless its `hello` brings a seed).
    public var seed: UInt64 = 1
    /// The largest message taken (bytes); a larger one closes the connection with 1009.
    public var maxMessageBytes = 16 * 1024
    /// Messages (control replies and events) a connection may have queued before the oldest are dropped
    /// and the page is told it is `lagging` (``Outbox``). Frames are never queued: one pending, the newest.
    public var maxQueuedMessages = 4096
    /// Bytes they may hold before the oldest are dropped the same way (docs/HARDENING.md, "Budgets in bytes").
    public var maxQueuedBytes = 1 << 20
    /// The tick, Hz. It runs only while some session moves or waits for a deadline.
    public var tickRate = 60
    /// How long a session outlives its last connection, seconds: a page that comes back within it (with its
    /// token) finds the session as it left it. 0 frees a session as soon as nobody is connected.
    public var sessionGraceSeconds = 30.0
    /// Sessions kept at most (connected or waiting out their grace); a new one beyond it first frees the
    /// idle session closest to its expiry, and is refused (`too_many_sessions`) when none is idle.
    public var maxSessions = 10_000
    /// Sessions one client address may have made and hold (loopback exempt unless ``limitLoopback``): past it, its
    /// own idle session closest to expiry is freed, never another address's, and it is refused while all of its own
    /// are in use. A flood of `hello`s from one address cannot fill the table (docs/HARDENING.md, "Budgets per
    /// address").
    public var maxSessionsPerAddress = 256
    /// Devices admitted to one session at most (each has a token); beyond it the member detached longest
    /// ago is forgotten, and a join is refused (`session_full`) while all of them are connected.
    public var maxMembersPerSession = 16
    /// What each session records of its input trace (docs/TRACE.md); `maxOperations: 0` records nothing.
    public var traceLimits = TraceLimits()
    /// Bytes all sessions' traces may hold together; a session that finds it spent stops recording.
    public var maxTraceBytesTotal = 64 << 20
    /// The message rate (`RateLimiter`): per second on average, bursts of twice that.
    public var messagesPerSecond = 300
    /// The message rate of all the connections of one client address together (`AddressRates`), bursts of twice
    /// that; 0: none. Loopback is exempt unless ``limitLoopback``.
    public var messagesPerSecondPerAddress = 600
    /// Applies the budgets per address to loopback clients too.
    public var limitLoopback = false
    /// A connection refused by the rate limit for this long without a pause is closed with 1008.
    public var floodCloseSeconds = 3
    /// Liveness (`Keepalive`): a quiet connection is pinged after ``pingIntervalSeconds`` and dropped
    /// after ``hangupSeconds`` without a pong.
    public var pingIntervalSeconds = 10
    public var hangupSeconds = 20

    /// The name of this process in a cluster (`serve --node`, else its process id): the `welcome`'s `node`.
    public var node = ""
    /// Over https with a CA of `refreshkit cert`: the path of the page that offers the CA (`/ca`), the `welcome`'s `ca`.
    public var authorityPage: String?
    /// Prefix every new session id with `node.`, so a balancer routes by the id (docs/SCALING.md).
    public var prefixesIDs = false
    /// The external feed source behind every new session's list, as people type its address
    /// (`sqlite:demo.sqlite`); `nil`: the engine's simulated feed (docs/FEEDS.md, "Serving").
    public var feedSource: String?
    /// What kind of source ``feedSource`` is, for the `welcome`.
    public var feedKind = WelcomeFeed.Kind.custom
    /// Whether ``feedSource`` takes posts (`POST /feed/items`), for the `welcome`.
    public var feedPostable = false

    /// The embedder's say on every `hello` the session rules would admit (a new session, a join with a key, a
    /// resume with a token), with the credentials the transport gave when the connection opened; a denial is
    /// `error {code:"forbidden", ref:"hello"}` with the hook's message, and nothing changes (docs/EMBEDDING.md,
    /// "Who may join"). `nil`: the keys and tokens alone decide. Called on the host's thread: keep it quick.
    public var authorize: (@Sendable (HelloAuthorization) -> HelloVerdict)? {
        get { authorizer?.decide }
        set { authorizer = newValue.map(HelloAuthorizer.init) }
    }
    var authorizer: HelloAuthorizer?

    public init() {}

    /// The values a server runs with unless it is told otherwise.
    public static let production = HostConfiguration()

    /// The burst a connection may send at once: two seconds' worth.
    public var messageBurst: Int { messagesPerSecond * 2 }

    /// What a new session id starts with.
    var idPrefix: String { prefixesIDs && !node.isEmpty ? node + "." : "" }

    /// The grace period, µs.
    var graceMicroseconds: Int64 { Int64((sessionGraceSeconds * 1_000_000).rounded()) }
}
