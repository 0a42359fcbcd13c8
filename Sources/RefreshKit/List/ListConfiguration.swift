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

    public init(
        edges: [Edge: EdgeConfiguration],
        insets: EdgeInsets = .zero,
        feed: FeedConfiguration = FeedConfiguration(),
        decelerationRate: Double = 0.998,
        springName: String = "ios",
        rubberBand: Double = 0.55
    ) {
        self.edges = edges
        self.insets = insets
        self.feed = feed
        self.decelerationRate = decelerationRate
        self.springName = springName
        self.rubberBand = rubberBand
    }

    /// The configuration of `edge`, or ``EdgeConfiguration/none``.
    public func edge(_ edge: Edge) -> EdgeConfiguration { edges[edge] ?? .none }
}
