/// A partial change of a session's configuration, as sent by `configure`. Every field is optional; the
/// session validates the values and refuses the whole patch if one is out of range.
public struct ConfigurationPatch: Hashable, Sendable {
    /// Changes to one edge's configuration.
    public struct EdgePatch: Hashable, Sendable {
        public var role: EdgeConfiguration.Role?
        public var enabled: Bool?
        public var triggerDistance: Double?
        public var restingInset: Double?
        public var promptingInset: Double?
        public var preload: Double?
        public var trigger: EdgeConfiguration.Trigger?
        public var strictness: EdgeConfiguration.Strictness?
        public var fling: EdgeConfiguration.FlingPolicy?
        public var shortContent: EdgeConfiguration.ShortContentPolicy?
        public var minimumVisibleDuration: Double?
        public var startDuration: Double?
        public var exitDuration: Double?
        public var endsOnCycleBoundary: Bool?
        public var presentation: EdgeConfiguration.Presentation?
        public var anchor: EdgeConfiguration.Anchor?
        public var viewBehaviour: EdgeConfiguration.ViewBehaviour?
        public var cycleDuration: Double?
        public var cycleDelay: Double?
        public var cycleKind: EdgeConfiguration.AnimationCycle.Kind?
        public var height: Double?

        public init() {}
    }

    /// Changes to the simulated feed.
    public struct FeedPatch: Hashable, Sendable {
        public var latencyMs: Double?
        public var failureRate: Double?
        public var pageSize: Int?
        public var totalItems: Int?
        public var newItemsPerRefresh: Int?
        public var rowHeight: Double?
        public var timeoutMs: Double?

        public init() {}
    }

    /// Changes to the scroll physics.
    public struct PhysicsPatch: Hashable, Sendable {
        /// UIScrollView deceleration rate per ms: 0.998 (normal) or 0.99 (fast), or anything in (0, 1).
        public var decelerationRate: Double?
        /// A named bounce spring: `ios` (Flutter's default), `pop`, `critical`.
        public var spring: String?
        /// Rubber-band coefficient `c` (0.55 on iOS).
        public var rubberBand: Double?

        public init() {}
    }

    /// Replace everything with a named preset first (then apply the rest of the patch).
    public var preset: String?
    /// The app's own content inset (bars, safe areas); edge controls never touch it.
    public var insets: EdgeInsets?
    public var edges: [Edge: EdgePatch]
    public var feed: FeedPatch?
    public var physics: PhysicsPatch?

    public init(
        preset: String? = nil, insets: EdgeInsets? = nil, edges: [Edge: EdgePatch] = [:], feed: FeedPatch? = nil,
        physics: PhysicsPatch? = nil
    ) {
        self.preset = preset
        self.insets = insets
        self.edges = edges
        self.feed = feed
        self.physics = physics
    }
}
