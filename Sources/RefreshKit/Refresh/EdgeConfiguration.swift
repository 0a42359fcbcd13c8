/// How one edge's control behaves: the union of what the five seed libraries offer, as policies.
///
/// Distances are CSS px measured on the *displayed* (rubber-banded), inset-relative offset, as every seed
/// measures them on `contentOffset` (docs/SEEDS.md, notation).
public struct EdgeConfiguration: Hashable, Sendable, Codable {
    /// What pulling this edge does.
    public enum Role: String, Hashable, Sendable, CaseIterable, Codable {
        /// Reload from the start (pull to refresh).
        case refresh
        /// Fetch the next page (load more).
        case loadMore
    }

    /// The moment a refresh starts.
    public enum Trigger: String, Hashable, Sendable, CaseIterable, Codable {
        /// Armed while dragging past the threshold, started when the finger lifts (MJRefresh, HT, MS, JH, IQ).
        case onRelease
        /// Started as soon as the threshold is passed, finger still down (UIRefreshControl, IQ progressCompletion).
        case whileDragging
        /// Started when the edge (minus `preload`) comes into view, no pull needed (HT AutoTrigger, IQ reach-end).
        case onReachEdge
        /// Never started by a gesture; only by a command (HT DoNotTrigger).
        case manual
    }

    /// Whether the threshold itself counts as past it.
    public enum Strictness: String, Hashable, Sendable, CaseIterable, Codable {
        /// `distance > triggerDistance` (MS, HT, JH).
        case strict
        /// `distance >= triggerDistance` (IQ, Cupertino).
        case inclusive
    }

    /// What a fling (motion after the finger lifted) may do to this edge.
    public enum FlingPolicy: String, Hashable, Sendable, CaseIterable, Codable {
        /// Momentum never arms or starts a refresh (MS, IQ refresh), and an `onReachEdge` control starts only
        /// when hands on the content (a drag, a wheel) reach the edge: not a fling, nor the rest it comes to
        /// (IQ's load-more, docs/SEEDS.md §5.3).
        case ignore
        /// Momentum that carries the content past the threshold starts it (HT's behaviour, made explicit);
        /// an `onReachEdge` control starts whatever brings the edge into view (HT AutoTrigger).
        case trigger
    }

    /// What happens when the content is shorter than the viewport.
    public enum ShortContentPolicy: String, Hashable, Sendable, CaseIterable, Codable {
        /// The edge still works: content short of the viewport rests at the leading edge and can be pulled
        /// from both ends (the bug MSPullToRefreshController documents, fixed).
        case enabled
        /// The edge control is off (`disabled`: no prompting inset, nothing starts it) while the content is no
        /// longer than the viewport less the app's insets, and back once it is longer (HT's footer hiding,
        /// docs/SEEDS.md §3.4).
        case disabled
    }

    /// Where the indicator sits relative to the content (JHPullToRefreshKit's type).
    public enum Presentation: String, Hashable, Sendable, CaseIterable, Codable {
        /// Glued to the content edge, it slides in with the content.
        case slideDown
        /// Pinned to the viewport edge behind the content, uncovered as the content moves away.
        case background
    }

    /// Where the animation view sits inside a stretched control (JHPullToRefreshKit's anchor), for the
    /// `anchored` view behaviour; GVRefreshControl's behaviours place the view by their own rules.
    public enum Anchor: String, Hashable, Sendable, CaseIterable, Codable {
        case top
        case middle
        case bottom
    }

    /// How the control's view follows the pull: GVRefreshControl's behaviours, or JHPullToRefreshKit's anchor.
    public enum ViewBehaviour: String, Hashable, Sendable, CaseIterable, Codable {
        /// Centred on the control and scaled along the pull axis by the pull over its height, unclamped, so that
        /// it fills the gap (GV).
        case stretches
        /// Stretches until fully revealed, then pinned to the viewport edge, unscaled (GV).
        case fixedTop
        /// Glued to the content edge and moving with it (GV).
        case fixedBottom
        /// Never scaled, at the top, middle or bottom of the control as ``EdgeConfiguration/anchor`` says (JH).
        case anchored
    }

    /// The animation that repeats while refreshing (JHPullToRefreshKit's cycle).
    public struct AnimationCycle: Hashable, Sendable, Codable {
        public enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
            case `default`
            case keyframe
            case spring
        }

        /// Length of one cycle, seconds.
        public var duration: Double
        /// Pause before each cycle, seconds.
        public var delay: Double
        public var kind: Kind

        public init(duration: Double = 1.0, delay: Double = 0, kind: Kind = .default) {
            self.duration = duration
            self.delay = delay
            self.kind = kind
        }
    }

    // What a drag's move reads of a control's configuration comes first, next to the control's own hot members
    // (``EdgeControl``): the small choices, then the distances in the order a move and a frame read them (the
    // start point, the prompt, the threshold, the view's length), the resting inset; the durations, the
    // animations and the name after them. Coded in the order they were declared before (``CodingKeys``).
    public var role: Role
    public var enabled: Bool
    public var trigger: Trigger
    public var strictness: Strictness
    public var fling: FlingPolicy
    public var shortContent: ShortContentPolicy
    public var presentation: Presentation
    public var anchor: Anchor
    public var viewBehaviour: ViewBehaviour
    /// An end waits for the running animation cycle to finish (JHPullToRefreshKit looks at
    /// `endRefreshing` only at cycle boundaries, docs/SEEDS.md §1.2).
    public var endsOnCycleBoundary: Bool
    /// IQ `preloadOffset`, px: an `onReachEdge` control starts this far before the edge; a control started by
    /// a pull arms this much earlier (IQ adds it to the pull, docs/SEEDS.md §5.2).
    public var preload: Double
    /// Room kept permanently for a footer prompt (HT `promptingInset`).
    public var promptingInset: Double
    /// Displayed pull distance that arms the control (MS/HT `refreshableInset`), measured past the prompting
    /// inset and `preload` early; for `onReachEdge`, the length its progress counts over before it starts.
    public var triggerDistance: Double
    /// Size of the control's view along the pull axis, CSS px.
    public var height: Double
    /// Extra inset the content rests on while refreshing (MS/HT `refreshingInset`).
    public var restingInset: Double
    /// A refresh stays visible at least this long, seconds, so a fast reply does not flicker.
    public var minimumVisibleDuration: Double
    /// The seed library's inset animation when a refresh starts, seconds (JH 0.25, MS 0.2, HT 0.25, IQ 0.1):
    /// how long the content takes to glide to the resting inset when ``insetAnimation`` is set. Without
    /// one the engine's bounce spring carries the content and this is not used.
    public var startDuration: Double
    /// Duration of the exit animation (and inset release) when a refresh ends, seconds.
    public var exitDuration: Double
    public var cycle: AnimationCycle
    /// The library's timed inset animation (curve, order); `nil`: the content follows every inset change
    /// on the engine's bounce spring, as UIKit's own control does (`ios`, `gv`).
    public var insetAnimation: InsetAnimation?
    /// The name of the page's control that draws this edge (docs/CONTROLS.md): stored and carried in the
    /// configuration, never read by the engine.
    public var control: ControlName
    /// Every stored member, in the order they were coded before the ones a move reads were put first.
    private enum CodingKeys: String, CodingKey {
        case role, enabled, triggerDistance, restingInset, promptingInset, preload, trigger, strictness, fling
        case shortContent, minimumVisibleDuration, startDuration, exitDuration, insetAnimation, endsOnCycleBoundary
        case presentation, anchor, viewBehaviour, cycle, height, control
    }

    public init(
        role: Role = .refresh,
        enabled: Bool = true,
        triggerDistance: Double = 100,
        restingInset: Double = 60,
        promptingInset: Double = 0,
        preload: Double = 0,
        trigger: Trigger = .onRelease,
        strictness: Strictness = .inclusive,
        fling: FlingPolicy = .ignore,
        shortContent: ShortContentPolicy = .enabled,
        minimumVisibleDuration: Double = 0.4,
        startDuration: Double = 0.25,
        exitDuration: Double = 0.3,
        insetAnimation: InsetAnimation? = nil,
        endsOnCycleBoundary: Bool = false,
        presentation: Presentation = .slideDown,
        anchor: Anchor = .bottom,
        viewBehaviour: ViewBehaviour = .fixedBottom,
        cycle: AnimationCycle = AnimationCycle(),
        height: Double = 60,
        control: ControlName? = nil
    ) {
        self.role = role
        self.enabled = enabled
        self.triggerDistance = triggerDistance
        self.restingInset = restingInset
        self.promptingInset = promptingInset
        self.preload = preload
        self.trigger = trigger
        self.strictness = strictness
        self.fling = fling
        self.shortContent = shortContent
        self.minimumVisibleDuration = minimumVisibleDuration
        self.startDuration = startDuration
        self.exitDuration = exitDuration
        self.insetAnimation = insetAnimation
        self.endsOnCycleBoundary = endsOnCycleBoundary
        self.presentation = presentation
        self.anchor = anchor
        self.viewBehaviour = viewBehaviour
        self.cycle = cycle
        self.height = height
        // Without a name, the built-in control of the role: the seeds' pull indicator or footer.
        self.control = control ?? (role == .loadMore ? "footer" : "spinner")
    }

    /// An edge with nothing attached.
    public static let none = EdgeConfiguration(enabled: false)
}
