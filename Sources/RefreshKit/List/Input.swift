/// Everything a client can do to a model. The host turns wire messages into these and applies them
/// with ``ListModel/apply(_:at:)-(Input,_)``.
public enum Input: Hashable, Sendable {
    /// A finger, mouse or pen moved, touched down or lifted.
    case touch(TouchInput)
    /// A wheel or trackpad delta, as the DOM reported it.
    case wheel(WheelInput)
    /// The viewport changed size (rotation, window resize).
    case resize(Size)
    /// An explicit request: start or finish a refresh, load more, retry.
    case command(Command)
    /// A partial change of the configuration (a preset, edge parameters, the simulated feed).
    ///
    /// Boxed: a patch is many times a touch's size, and inline it would make every input that size, copied on
    /// every touch and wheel event the host passes along. Configuring is rare.
    indirect case configure(ConfigurationPatch)
    /// An external feed source's answer to the model's ``ListModel/sourceRequest`` (``FeedMode/external``),
    /// brought by the host; recorded in the trace like a page's message, from the reserved member -1.
    ///
    /// Boxed, as a page of items is large.
    indirect case feedAnswer(FeedAnswerInput)
    /// The page's measured row heights (every feed's rows, docs/LAYOUT.md, "Wiring"). Boxed, as a batch is large.
    indirect case measure(MeasureInput)
}

/// The phase of a touch sample, following Pointer Events.
public enum TouchPhase: String, Hashable, Sendable, CaseIterable {
    case start
    case move
    case end
    case cancel
}

/// One pointer sample. The delta is the finger's movement since the previous sample of the same
/// pointer, in CSS px, positive down and right (the content follows the finger).
public struct TouchInput: Hashable, Sendable {
    public var phase: TouchPhase
    /// Finger movement since the previous sample, CSS px, positive down/right.
    public var delta: Point
    /// The page's own timestamp of the sample (`performance.now()`, ms). Velocity is estimated on this
    /// clock, never on receive times (docs/PHYSICS.md §5.2).
    public var pageTime: Double
    /// The pointer that produced the sample; a model follows one pointer at a time.
    public var pointer: Int

    public init(phase: TouchPhase, delta: Point = .zero, pageTime: Double, pointer: Int = 0) {
        self.phase = phase
        self.delta = delta
        self.pageTime = pageTime
        self.pointer = pointer
    }
}

/// `WheelEvent.deltaMode`.
public enum WheelDeltaMode: Int, Hashable, Sendable, CaseIterable {
    case pixel = 0
    case line = 1
    case page = 2
}

/// One wheel event. `delta` follows the DOM: positive `y` scrolls the content up (towards the end).
public struct WheelInput: Hashable, Sendable {
    public var delta: Point
    public var mode: WheelDeltaMode
    /// The page's timestamp of the event (`performance.now()`, ms).
    public var pageTime: Double

    public init(delta: Point, mode: WheelDeltaMode = .pixel, pageTime: Double) {
        self.delta = delta
        self.mode = mode
        self.pageTime = pageTime
    }
}

/// An explicit request from the client, the same path as a user gesture.
public struct Command: Hashable, Sendable {
    /// What to do.
    public enum Name: String, Hashable, Sendable, CaseIterable {
        /// Start a refresh on `edge` (default: top), as if the user had pulled it.
        case refresh
        /// Finish the refresh running on `edge` (default: every refreshing edge).
        case finish
        /// Load the next page (the bottom edge unless `edge` says otherwise).
        case loadMore
        /// Retry a failed load on `edge`.
        case retry
        /// Scroll to the top or another edge.
        case scrollToEdge
        /// Scroll by a page (`amount` pages, negative for up).
        case scrollByPage
        /// Scroll by `amount` CSS px along the vertical axis (keyboard arrows).
        case scrollBy
        /// Scroll so that the row `item` names is at `align` of the viewport; it then stays where it landed
        /// while the rows around it are measured, until a gesture or another scroll (docs/LAYOUT.md, "Anchoring").
        case scrollToItem
    }

    public var name: Name
    public var edge: Edge?
    /// Animate the change (start or finish) instead of jumping.
    public var animated: Bool
    /// A signed amount for the scroll commands; for `scrollToItem`, how far below its alignment the row lands (the
    /// content offset that far into it: a place kept, docs/PROTOCOL.md, "scrollToItem").
    public var amount: Double
    /// `scrollToItem`'s row.
    public var item: ItemTarget?
    /// Where `scrollToItem` puts its row.
    public var align: ItemAlignment

    public init(
        _ name: Name, edge: Edge? = nil, animated: Bool = true, amount: Double = 0, item: ItemTarget? = nil,
        align: ItemAlignment = .start
    ) {
        self.name = name
        self.edge = edge
        self.animated = animated
        self.amount = amount
        self.item = item
        self.align = align
    }
}
