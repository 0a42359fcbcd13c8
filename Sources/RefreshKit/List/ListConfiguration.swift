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
    /// Whether a fling's window of an external feed reaches to where it comes to rest (docs/LAYOUT.md, "Where a
    /// fling stops"): at the release the placeholders on its way and at its end are asked for in one request, up
    /// to twice the window, rather than a page at a time as the viewport comes near them.
    public var flingPrefetch: Bool
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
        flingPrefetch: Bool = true,
        events: EventNaming? = nil,
        library: EventDialect? = nil
    ) {
        self.edges = edges
        self.insets = insets
        self.feed = feed
        self.decelerationRate = decelerationRate
        self.springName = springName
        self.rubberBand = rubberBand
        self.flingPrefetch = flingPrefetch
        self.events = events
        self.library = library
    }

    /// The configuration of `edge`, or ``EdgeConfiguration/none``.
    public func edge(_ edge: Edge) -> EdgeConfiguration { edges[edge] ?? .none }
}

// Coded as before flings had a prefetch, which is coded only when off: a snapshot taken by a process of an earlier
// version is read with it on, and one that keeps it on is coded as that process coded it (docs/SCALING.md,
// "Take-over").
extension ListConfiguration {
    private enum CodingKeys: String, CodingKey {
        case edges, insets, feed, decelerationRate, springName, rubberBand, flingPrefetch, events, library
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            edges: try c.decode([Edge: EdgeConfiguration].self, forKey: .edges),
            insets: try c.decode(EdgeInsets.self, forKey: .insets),
            feed: try c.decode(FeedConfiguration.self, forKey: .feed),
            decelerationRate: try c.decode(Double.self, forKey: .decelerationRate),
            springName: try c.decode(String.self, forKey: .springName),
            rubberBand: try c.decode(Double.self, forKey: .rubberBand),
            flingPrefetch: try c.decodeIfPresent(Bool.self, forKey: .flingPrefetch) ?? true,
            events: try c.decodeIfPresent(EventNaming.self, forKey: .events),
            library: try c.decodeIfPresent(EventDialect.self, forKey: .library))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(edges, forKey: .edges)
        try c.encode(insets, forKey: .insets)
        try c.encode(feed, forKey: .feed)
        try c.encode(decelerationRate, forKey: .decelerationRate)
        try c.encode(springName, forKey: .springName)
        try c.encode(rubberBand, forKey: .rubberBand)
        if !flingPrefetch { try c.encode(flingPrefetch, forKey: .flingPrefetch) }
        try c.encodeIfPresent(events, forKey: .events)
        try c.encodeIfPresent(library, forKey: .library)
    }
}
