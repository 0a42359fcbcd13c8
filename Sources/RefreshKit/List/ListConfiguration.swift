/// Everything that can be configured about a model, as a preset or `configure` leaves it.
public struct ListConfiguration: Hashable, Sendable, Codable {
    /// The configuration of each edge; an edge absent here has no control.
    public var edges: [Edge: EdgeConfiguration]
    /// The app's own content inset (bars, safe areas), kept apart from the controls' layers.
    public var insets: EdgeInsets
    public var feed: FeedConfiguration
    /// UIScrollView deceleration rate per millisecond (0.998 normal, 0.99 fast).
    public var decelerationRate: Double
    /// The name of the bounce spring (`ios`, `pop`, `critical`, `fast`).
    public var springName: String
    /// The rubber-band coefficient `c`.
    public var rubberBand: Double
    /// Whose names the model's events carry: RefreshKit's (`nil`, the default: one start and one end per
    /// refresh) or, with ``EventNaming/library``, the sequence ``library`` makes (docs/SEEDS.md, "Each
    /// library's events").
    public var events: EventNaming?
    /// The event rules of the library the preset imitates (set from ``Preset/library``; a preset file with a
    /// base keeps its base's).
    public var library: EventDialect?

    /// Whose names a model's events carry.
    public enum EventNaming: String, Hashable, Sendable, CaseIterable, Codable {
        /// RefreshKit's events (docs/PROTOCOL.md, "event").
        case refreshkit
        /// The library's, as its delegate receives them.
        case library
    }

    /// The dialect the model's events go through, if any: the library's, when ``events`` asks for it.
    public var eventDialect: EventDialect? { events == .library ? library : nil }

    public init(
        edges: [Edge: EdgeConfiguration],
        insets: EdgeInsets = .zero,
        feed: FeedConfiguration = FeedConfiguration(),
        decelerationRate: Double = 0.998,
        springName: String = "ios",
        rubberBand: Double = 0.55,
        events: EventNaming? = nil,
        library: EventDialect? = nil
    ) {
        self.edges = edges
        self.insets = insets
        self.feed = feed
        self.decelerationRate = decelerationRate
        self.springName = springName
        self.rubberBand = rubberBand
        self.events = events
        self.library = library
    }

    /// The configuration of `edge`, or ``EdgeConfiguration/none``.
    public func edge(_ edge: Edge) -> EdgeConfiguration { edges[edge] ?? .none }
}
