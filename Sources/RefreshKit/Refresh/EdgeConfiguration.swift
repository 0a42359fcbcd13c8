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

    /// The stored members, in one block that every copy of the configuration shares (``storage``). What a drag's
    /// move reads comes first: the small choices, then the distances in the order a move and a frame read them
    /// (the start point, the prompt, the threshold, the view's length), the resting inset; the durations, the
    /// animations and the name after them. Coded in the order they were declared before (``CodingKeys``).
    fileprivate struct Values: Hashable, Sendable, Codable {
        var role: Role = .refresh
        var enabled: Bool = true
        var trigger: Trigger = .onRelease
        var strictness: Strictness = .inclusive
        var fling: FlingPolicy = .ignore
        var shortContent: ShortContentPolicy = .enabled
        var presentation: Presentation = .slideDown
        var anchor: Anchor = .bottom
        var viewBehaviour: ViewBehaviour = .fixedBottom
        var endsOnCycleBoundary: Bool = false
        var preload: Double = 0
        var promptingInset: Double = 0
        var triggerDistance: Double = 100
        var height: Double = 60
        var restingInset: Double = 60
        var minimumVisibleDuration: Double = 0.4
        var startDuration: Double = 0.25
        var exitDuration: Double = 0.3
        var cycle: AnimationCycle = AnimationCycle()
        var insetAnimation: InsetAnimation? = nil
        var control: ControlName = "spinner"

        private enum CodingKeys: String, CodingKey {
            case role, enabled, triggerDistance, restingInset, promptingInset, preload, trigger, strictness, fling
            case shortContent, minimumVisibleDuration, startDuration, exitDuration, insetAnimation, endsOnCycleBoundary
            case presentation, anchor, viewBehaviour, cycle, height, control
        }
    }

    /// One block for every copy: a preset's edges and the controls of every session that uses it share it, so a
    /// control holds a word for its configuration, not its size (docs/PERFORMANCE.md, "Memory per connected
    /// session"). Immutable: a change makes a new block (changes are rare: a `configure`).
    private final class Storage: Sendable {
        let values: Values
        init(_ values: Values) { self.values = values }
    }

    private var storage: Storage

    private mutating func change(_ update: (inout Values) -> Void) {
        var values = storage.values
        update(&values)
        storage = Storage(values)
    }

    public var role: Role {
        get { storage.values.role }
        set { change { $0.role = newValue } }
    }
    public var enabled: Bool {
        get { storage.values.enabled }
        set { change { $0.enabled = newValue } }
    }
    public var trigger: Trigger {
        get { storage.values.trigger }
        set { change { $0.trigger = newValue } }
    }
    public var strictness: Strictness {
        get { storage.values.strictness }
        set { change { $0.strictness = newValue } }
    }
    public var fling: FlingPolicy {
        get { storage.values.fling }
        set { change { $0.fling = newValue } }
    }
    public var shortContent: ShortContentPolicy {
        get { storage.values.shortContent }
        set { change { $0.shortContent = newValue } }
    }
    public var presentation: Presentation {
        get { storage.values.presentation }
        set { change { $0.presentation = newValue } }
    }
    public var anchor: Anchor {
        get { storage.values.anchor }
        set { change { $0.anchor = newValue } }
    }
    public var viewBehaviour: ViewBehaviour {
        get { storage.values.viewBehaviour }
        set { change { $0.viewBehaviour = newValue } }
    }
    /// An end waits for the running animation cycle to finish (JHPullToRefreshKit looks at
    /// `endRefreshing` only at cycle boundaries, docs/SEEDS.md §1.2).
    public var endsOnCycleBoundary: Bool {
        get { storage.values.endsOnCycleBoundary }
        set { change { $0.endsOnCycleBoundary = newValue } }
    }
    /// IQ `preloadOffset`, px: an `onReachEdge` control starts this far before the edge; a control started by
    /// a pull arms this much earlier (IQ adds it to the pull, docs/SEEDS.md §5.2).
    public var preload: Double {
        get { storage.values.preload }
        set { change { $0.preload = newValue } }
    }
    /// Room kept permanently for a footer prompt (HT `promptingInset`).
    public var promptingInset: Double {
        get { storage.values.promptingInset }
        set { change { $0.promptingInset = newValue } }
    }
    /// Displayed pull distance that arms the control (MS/HT `refreshableInset`), measured past the prompting
    /// inset and `preload` early; for `onReachEdge`, the length its progress counts over before it starts.
    public var triggerDistance: Double {
        get { storage.values.triggerDistance }
        set { change { $0.triggerDistance = newValue } }
    }
    /// Size of the control's view along the pull axis, CSS px.
    public var height: Double {
        get { storage.values.height }
        set { change { $0.height = newValue } }
    }
    /// Extra inset the content rests on while refreshing (MS/HT `refreshingInset`).
    public var restingInset: Double {
        get { storage.values.restingInset }
        set { change { $0.restingInset = newValue } }
    }
    /// A refresh stays visible at least this long, seconds, so a fast reply does not flicker.
    public var minimumVisibleDuration: Double {
        get { storage.values.minimumVisibleDuration }
        set { change { $0.minimumVisibleDuration = newValue } }
    }
    /// The seed library's inset animation when a refresh starts, seconds (JH 0.25, MS 0.2, HT 0.25, IQ 0.1):
    /// how long the content takes to glide to the resting inset when ``insetAnimation`` is set. Without
    /// one the engine's bounce spring carries the content and this is not used.
    public var startDuration: Double {
        get { storage.values.startDuration }
        set { change { $0.startDuration = newValue } }
    }
    /// Duration of the exit animation (and inset release) when a refresh ends, seconds.
    public var exitDuration: Double {
        get { storage.values.exitDuration }
        set { change { $0.exitDuration = newValue } }
    }
    public var cycle: AnimationCycle {
        get { storage.values.cycle }
        set { change { $0.cycle = newValue } }
    }
    /// The library's timed inset animation (curve, order); `nil`: the content follows every inset change
    /// on the engine's bounce spring, as UIKit's own control does (`ios`, `gv`).
    public var insetAnimation: InsetAnimation? {
        get { storage.values.insetAnimation }
        set { change { $0.insetAnimation = newValue } }
    }
    /// The name of the page's control that draws this edge (docs/CONTROLS.md): stored and carried in the
    /// configuration, never read by the engine.
    public var control: ControlName {
        get { storage.values.control }
        set { change { $0.control = newValue } }
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
        var values = Values()
        values.role = role
        values.enabled = enabled
        values.triggerDistance = triggerDistance
        values.restingInset = restingInset
        values.promptingInset = promptingInset
        values.preload = preload
        values.trigger = trigger
        values.strictness = strictness
        values.fling = fling
        values.shortContent = shortContent
        values.minimumVisibleDuration = minimumVisibleDuration
        values.startDuration = startDuration
        values.exitDuration = exitDuration
        values.insetAnimation = insetAnimation
        values.endsOnCycleBoundary = endsOnCycleBoundary
        values.presentation = presentation
        values.anchor = anchor
        values.viewBehaviour = viewBehaviour
        values.cycle = cycle
        values.height = height
        // Without a name, the built-in control of the role: the seeds' pull indicator or footer.
        values.control = control ?? (role == .loadMore ? "footer" : "spinner")
        storage = Storage(values)
    }

    public static func == (a: EdgeConfiguration, b: EdgeConfiguration) -> Bool {
        a.storage === b.storage || a.storage.values == b.storage.values
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.values) }

    public init(from decoder: any Decoder) throws { storage = Storage(try Values(from: decoder)) }

    public func encode(to encoder: any Encoder) throws { try storage.values.encode(to: encoder) }

    /// An edge with nothing attached.
    public static let none = EdgeConfiguration(enabled: false)
}
