import RefreshKit
import RefreshWire

extension SessionHost {
    /// What the host's rules depend on: the server's limits and timings (the server's configuration documents
    /// each; ``SessionHost`` only reads them).
    public struct Configuration: Sendable, Hashable {
        /// The preset and feed seed of a session whose `hello` names none.
        public var defaultPreset = "ios"
        /// The presets a session may use (the seeds and a server's preset files, docs/PRESETS.md).
        public var presets = PresetCatalogue.seeds
        public var seed: UInt64 = 1
        /// The largest message taken (bytes); a larger one closes the connection with 1009.
        public var maxMessageBytes = 16 * 1024
        /// Messages a connection may have queued before the oldest are dropped (``Outbox``).
        public var maxQueuedMessages = 256
        /// The tick, Hz.
        public var tickRate = 60
        /// How long a session outlives its last connection, seconds.
        public var sessionGraceSeconds = 30.0
        public var maxSessions = 10_000
        public var maxMembersPerSession = 16
        public var traceLimits = TraceLimits()
        public var maxTraceBytesTotal = 256 << 20
        /// The message rate (``RateLimiter``).
        public var messagesPerSecond = 300
        public var messageBurst = 600
        public var floodCloseSeconds = 3
        /// Liveness (``Keepalive``).
        public var pingIntervalSeconds = 20
        public var hangupSeconds = 40

        /// The name of this process in a cluster (`serve --node`, else its process id): the `welcome`'s `node`.
        public var node = ""
        /// Prefix every new session id with `node.`, so a balancer routes by the id (docs/SCALING.md).
        public var prefixesIDs = false

        public init() {}

        /// What a new session id starts with.
        var idPrefix: String { prefixesIDs && !node.isEmpty ? node + "." : "" }

        /// The grace period, µs.
        var graceMicroseconds: Int64 { Int64((sessionGraceSeconds * 1_000_000).rounded()) }
    }
}
