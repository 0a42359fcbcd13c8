/// What the scroll view is doing right now.
public enum ScrollPhase: String, Hashable, Sendable, CaseIterable, Codable {
    /// At rest.
    case idle
    /// A finger (or mouse) holds the content.
    case dragging
    /// A wheel or trackpad gesture is under way.
    case wheel
    /// Closed-form motion after a lift, a command or a change of insets (decay, spring).
    case animating
}

/// The per-edge part of a frame: everything the page needs to draw that edge's indicator.
public struct EdgeFrame: Hashable, Sendable, Codable {
    public var edge: Edge
    public var state: EdgeState
    /// Unclamped displayed pull beyond the edge's rest position, CSS px (negative: scrolled away).
    public var distance: Double
    /// How far the control is towards starting, 0…1 (``EdgeControl/progress``).
    public var progress: Double
    /// Velocity of the pull, px/s, positive while the pull grows.
    public var velocity: Double
    /// The control's rectangle in viewport coordinates.
    public var control: Rect
    /// The animation view's rectangle in viewport coordinates.
    public var view: Rect
    /// Scale of the view along the pull axis for the `stretches` behaviour (and `fixedTop` until fully
    /// revealed): the pull over the view's height, not clamped (GVRefreshControl's); 1 otherwise.
    public var scale: Double
    /// The animation cycle running while refreshing, if any.
    public var cycle: CycleFrame?
    /// The exit animation running while finishing, if any.
    public var exit: ExitFrame?

    public init(
        edge: Edge,
        state: EdgeState,
        distance: Double,
        progress: Double,
        velocity: Double,
        control: Rect = .zero,
        view: Rect = .zero,
        scale: Double = 1,
        cycle: CycleFrame? = nil,
        exit: ExitFrame? = nil
    ) {
        self.edge = edge
        self.state = state
        self.distance = distance
        self.progress = progress
        self.velocity = velocity
        self.control = control
        self.view = view
        self.scale = scale
        self.cycle = cycle
        self.exit = exit
    }
}

/// One run of the refreshing animation (JHPullToRefreshKit's cycle).
public struct CycleFrame: Hashable, Sendable, Codable {
    public var index: Int
    public var start: Timestamp
    public var duration: Double
    public var delay: Double
    public var kind: EdgeConfiguration.AnimationCycle.Kind

    public init(
        index: Int, start: Timestamp, duration: Double, delay: Double, kind: EdgeConfiguration.AnimationCycle.Kind
    ) {
        self.index = index
        self.start = start
        self.duration = duration
        self.delay = delay
        self.kind = kind
    }
}

/// The exit animation of a finishing control.
public struct ExitFrame: Hashable, Sendable, Codable {
    public var start: Timestamp
    public var duration: Double

    public init(start: Timestamp, duration: Double) {
        self.start = start
        self.duration = duration
    }
}

/// The content's part of a frame.
public struct FeedFrame: Hashable, Sendable, Codable {
    /// Rows loaded.
    public var count: Int
    /// Whether another page may exist.
    public var hasMore: Bool
    /// Whether a request is running.
    public var loading: Bool
    /// The estimated height of a row the page has not measured, CSS px (`feed.rowHeight`).
    public var rowHeight: Double

    public init(count: Int, hasMore: Bool, loading: Bool, rowHeight: Double) {
        self.count = count
        self.hasMore = hasMore
        self.loading = loading
        self.rowHeight = rowHeight
    }
}

/// Everything the page draws, at one instant.
public struct Frame: Hashable, Sendable, Codable {
    /// Increases by one for every frame a model produces.
    public var sequence: UInt64
    public var time: Timestamp
    /// UIScrollView's `contentOffset`: `y` grows as the content scrolls up, negative while pulled down.
    public var offset: Point
    /// Offset velocity, px/s.
    public var velocity: Point
    public var phase: ScrollPhase
    /// The motion chain of the horizontal axis when it is animating (empty otherwise).
    public var horizontalMotion: [MotionSegment]
    /// The motion chain of the vertical axis when it is animating (empty otherwise).
    public var verticalMotion: [MotionSegment]
    public var contentSize: Size
    public var viewport: Size
    /// The combined inset: the app's own plus every edge control's layer.
    public var insets: EdgeInsets
    public var edges: [EdgeFrame]
    public var feed: FeedFrame
    /// The section header pinned at the top of the viewport, when the rows there belong to a section.
    public var pinned: PinnedSection? {
        get { hasPinned ? PinnedSection(section: pinnedSection, y: pinnedY) : nil }
        set {
            let section = newValue?.section ?? ""
            pinnedSection = section
            pinnedY = section.isEmpty ? Self.noPinnedY : newValue?.y ?? 0
        }
    }
    /// Whether a header is pinned: a number's compare, not the name's.
    @inlinable package var hasPinned: Bool { pinnedY != Self.noPinnedY }
    // Stored as a name and a y (none: "" and −∞; an empty section is no section, docs/LAYOUT.md "Section headers"),
    // not as an optional: a frame with an optional struct holding a string was copied whole and destroyed once more in
    // every `ListModel.frame()` by the compiler's outlined value operations (docs/PERFORMANCE.md, "No copies per
    // input").
    private var pinnedSection: String
    @usableFromInline var pinnedY: Double
    @inlinable static var noPinnedY: Double { -.infinity }

    public init(
        sequence: UInt64,
        time: Timestamp,
        offset: Point,
        velocity: Point,
        phase: ScrollPhase,
        horizontalMotion: [MotionSegment] = [],
        verticalMotion: [MotionSegment] = [],
        contentSize: Size,
        viewport: Size,
        insets: EdgeInsets,
        edges: [EdgeFrame],
        feed: FeedFrame,
        pinned: PinnedSection? = nil
    ) {
        self.sequence = sequence
        self.time = time
        self.offset = offset
        self.velocity = velocity
        self.phase = phase
        self.horizontalMotion = horizontalMotion
        self.verticalMotion = verticalMotion
        self.contentSize = contentSize
        self.viewport = viewport
        self.insets = insets
        self.edges = edges
        self.feed = feed
        let section = pinned?.section ?? ""
        self.pinnedSection = section
        self.pinnedY = section.isEmpty ? Self.noPinnedY : pinned?.y ?? 0
    }
}

// Coded as before the name and y were stored apart: `pinned` is present only when a header is (the form of
// snapshots and traces, docs/TRACE.md).
extension Frame {
    private enum CodingKeys: String, CodingKey {
        case sequence, time, offset, velocity, phase, horizontalMotion, verticalMotion, contentSize, viewport
        case insets, edges, feed, pinned
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            sequence: try c.decode(UInt64.self, forKey: .sequence), time: try c.decode(Timestamp.self, forKey: .time),
            offset: try c.decode(Point.self, forKey: .offset), velocity: try c.decode(Point.self, forKey: .velocity),
            phase: try c.decode(ScrollPhase.self, forKey: .phase),
            horizontalMotion: try c.decode([MotionSegment].self, forKey: .horizontalMotion),
            verticalMotion: try c.decode([MotionSegment].self, forKey: .verticalMotion),
            contentSize: try c.decode(Size.self, forKey: .contentSize),
            viewport: try c.decode(Size.self, forKey: .viewport),
            insets: try c.decode(EdgeInsets.self, forKey: .insets),
            edges: try c.decode([EdgeFrame].self, forKey: .edges), feed: try c.decode(FeedFrame.self, forKey: .feed),
            pinned: try c.decodeIfPresent(PinnedSection.self, forKey: .pinned))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(time, forKey: .time)
        try c.encode(offset, forKey: .offset)
        try c.encode(velocity, forKey: .velocity)
        try c.encode(phase, forKey: .phase)
        try c.encode(horizontalMotion, forKey: .horizontalMotion)
        try c.encode(verticalMotion, forKey: .verticalMotion)
        try c.encode(contentSize, forKey: .contentSize)
        try c.encode(viewport, forKey: .viewport)
        try c.encode(insets, forKey: .insets)
        try c.encode(edges, forKey: .edges)
        try c.encode(feed, forKey: .feed)
        try c.encodeIfPresent(pinned, forKey: .pinned)
    }
}
