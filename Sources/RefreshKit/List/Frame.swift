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
    public var pinned: PinnedSection?

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
        self.pinned = pinned
    }
}
