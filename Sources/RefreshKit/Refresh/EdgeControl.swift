// Over 400 lines on purpose: one state machine, every transition in one place so that a reader sees them all
// (a fifth of the file is their documentation). The data each state carries is in EdgeControl+Stage.swift.

/// The refresh (or load-more) control of one edge: a state machine fed with what the scroll view does.
///
/// One `mutating func` per thing that can happen (`observe`, `release`, `start`, `finish`, `advance`,
/// `configure`), each returning what the model must do about the feed. Every transition is emitted as
/// an ``Event`` with its cause, in a fixed order per refresh: `willStart`, `transition(→refreshing)`,
/// `didStart`, cycles, `willEnd`, `transition(→finishing)`, `transition(→idle)`, `didEnd` — exactly one
/// start and one end per refresh.
///
/// Where the control is, and what it knows there, is its ``stage``: a refresh's start, cycle and waiting
/// finish live in `refreshing`, the exit's timing in `finishing`, the retry back-off in `failed`; ``state`` is
/// the flat projection the wire shows.
public struct EdgeControl: Hashable, Sendable, Codable {
    /// How the content is moving when the control observes it.
    public enum Motion: Hashable, Sendable {
        /// A finger holds the content.
        case dragging
        /// A wheel or trackpad gesture is under way.
        case wheel
        /// Motion after a lift: deceleration or a bounce.
        case momentum
        /// At rest, or moved by a command or a change of layout.
        case still
    }

    /// How a request ended.
    public enum Outcome: Hashable, Sendable, Codable {
        /// Items arrived; `hasMore` says whether another page exists.
        case success(hasMore: Bool)
        case failure
        /// The request was dropped (a refresh took precedence, or a command finished it early).
        case cancelled
    }

    /// What the model must do after the control handled something.
    public enum Action: Hashable, Sendable {
        case none
        /// Ask the feed (refresh or next page, by the control's role).
        case request
        /// Drop the running request of this control.
        case cancelRequest
    }

    // What a drag's move and a frame read of a control comes first, together: the flags with the flat state (a copy
    // of the stage's tag, which lies at the stage's end), the pull and the clock, then the reference to the
    // configuration (its preset's, whose choices and the distances a move and a frame read come first in it:
    // ``EdgeConfiguration``); the stage and the rest after them, so that a move touches as little of a cold control
    // as it can (docs/PERFORMANCE.md, "Cold lines"). Coded in their old order (``CodingKeys``).
    public let edge: Edge
    /// Whether the latest end was animated (`true` until a finish says otherwise, and again from the next
    /// start): a control whose inset goes back after its exit gives it back without animation then. It
    /// outlives the exit: a footer's layer shrinks later too (`failed → idle`).
    public private(set) var exitAnimated = true
    /// `onReachEdge` fires when the edge comes into view, not for as long as it stays there: it re-arms
    /// when the edge leaves the view, or when a load added rows (a short list keeps filling the screen).
    private var reachArmed = true
    /// Whether the control has observed the content yet: a first observation counts as a move.
    private var hasObserved = false
    /// The flat state, as the wire shows it: ``Stage/state`` of ``stage``, kept with every change of the stage
    /// (derived, so not coded).
    public private(set) var state: EdgeState
    /// The latest displayed pull beyond the rest position, CSS px (unclamped).
    public private(set) var distance: Double = 0
    /// The latest pull velocity, px/s.
    public private(set) var pullVelocity: Double = 0
    /// The latest time the control acted at, or was stepped to while it had a timer: an overdue timer (a
    /// configure shortened it) fires then, never in the past. A control without a timer need not follow the
    /// time (the model's quiet steps skip it): every way to a timer (`observe`, `release`, `start`,
    /// `configure`) moves the clock first.
    private var clock = Timestamp(microseconds: .min)
    /// The configuration, by reference (``SharedEdgeConfiguration``): read in place through ``configuration``, or
    /// through its address where the control itself is only an address (a frame's fill: reading a computed
    /// property through a pointer copies the whole control first).
    private(set) var shared: SharedEdgeConfiguration
    /// Where the control is in its machine, with that state's data (``Stage``).
    public private(set) var stage: Stage {
        didSet { state = stage.state }  // a whole new stage each time: no old value read, so set in place
    }
    /// Failed loads in a row, across refreshes: the retry back-off grows with them.
    private var consecutiveFailures = 0
    /// Every stored member but ``state``, in the order they were coded before the hot ones were put first.
    private enum CodingKeys: String, CodingKey {
        case edge, configuration, stage, distance, pullVelocity, exitAnimated, consecutiveFailures, clock
        case reachArmed, hasObserved
    }

    public init(edge: Edge, configuration: EdgeConfiguration) {
        self.init(edge: edge, shared: SharedEdgeConfiguration(configuration))
    }

    /// A control that holds `shared` (a preset's, which every session started on it shares).
    init(edge: Edge, shared: SharedEdgeConfiguration) {
        self.edge = edge
        self.shared = shared
        let stage: Stage = shared.value.enabled ? .idle : .disabled
        self.stage = stage
        self.state = stage.state
    }

    /// The edge's configuration.
    public var configuration: EdgeConfiguration {
        unsafeAddress { shared.address }
    }

    /// Decodes a control as it was coded (`CodingKeys`), its flat ``state`` taken from its ``stage``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        edge = try container.decode(Edge.self, forKey: .edge)
        shared = SharedEdgeConfiguration(try container.decode(EdgeConfiguration.self, forKey: .configuration))
        let stage = try container.decode(Stage.self, forKey: .stage)
        self.stage = stage
        state = stage.state
        distance = try container.decode(Double.self, forKey: .distance)
        pullVelocity = try container.decode(Double.self, forKey: .pullVelocity)
        exitAnimated = try container.decode(Bool.self, forKey: .exitAnimated)
        consecutiveFailures = try container.decode(Int.self, forKey: .consecutiveFailures)
        clock = try container.decode(Timestamp.self, forKey: .clock)
        reachArmed = try container.decode(Bool.self, forKey: .reachArmed)
        hasObserved = try container.decode(Bool.self, forKey: .hasObserved)
    }

    /// Encodes the control as ``init(from:)`` decodes it (`CodingKeys`, in their order).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(edge, forKey: .edge)
        try container.encode(shared.value, forKey: .configuration)
        try container.encode(stage, forKey: .stage)
        try container.encode(distance, forKey: .distance)
        try container.encode(pullVelocity, forKey: .pullVelocity)
        try container.encode(exitAnimated, forKey: .exitAnimated)
        try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
        try container.encode(clock, forKey: .clock)
        try container.encode(reachArmed, forKey: .reachArmed)
        try container.encode(hasObserved, forKey: .hasObserved)
    }

    // MARK: - Derived

    /// How far along the control is towards starting, 0…1, over `triggerDistance`:
    /// - a control started by a pull counts its pull past its prompting inset, `preload` early
    ///   (`thresholdPull(_:)`): 1 once it is past the trigger;
    /// - an `onReachEdge` control counts the last `triggerDistance` before the point where it starts
    ///   (`preload` before the edge): 1 there. IQPullToRefresh's load-more progress,
    ///   `clamp((y − (E − L)) / L, 0, 1)` with `E` the trigger offset (docs/SEEDS.md §5.3, Load-more state
    ///   machine).
    public var progress: Double { Self.progress(distance: distance, configuration: shared.address) }

    /// ``progress`` of a control at `distance` with the configuration at `configuration`.
    @inline(__always)
    static func progress(distance: Double, configuration: UnsafePointer<EdgeConfiguration>) -> Double {
        let c = configuration
        let length = c.pointee.triggerDistance
        let pull: Double
        if c.pointee.trigger == .onReachEdge {
            // The start point is `distance == -preload`; counted from `length` before it.
            pull = distance + c.pointee.preload + length
            guard length > 0 else { return pull >= 0 ? 1 : 0 }
        } else {
            pull = thresholdPull(distance, configuration: c)
            guard length > 0 else { return pull > 0 ? 1 : 0 }
        }
        return min(1, max(0, pull / length))
    }

    /// The pull a control started by a pull measures against `triggerDistance`: the displayed `distance`
    /// less the prompting inset the control keeps at rest, plus `preload`.
    ///
    /// - HTRefreshView's dragging footer measures past the bottom inset, which holds its prompting inset
    ///   (docs/SEEDS.md §3.4, HT state machine and callbacks: "measured past `B` (which includes the
    ///   prompt)"), so a footer that shows 60 px of prompt at rest engages only 60 px past it, not on any
    ///   pull past the footer. A refresh control keeps no prompt (``layer``).
    /// - IQPullToRefresh's `preloadOffset` moves its pull-to-refresh threshold too: `progress =
    ///   clamp((p' + preloadOffset) / L, 0, 1)`, eligible at 1 (docs/SEEDS.md §5.2, Pull-to-refresh state
    ///   machine).
    func thresholdPull(_ distance: Double) -> Double {
        Self.thresholdPull(distance, configuration: shared.address)
    }

    @inline(__always)
    static func thresholdPull(_ distance: Double, configuration c: UnsafePointer<EdgeConfiguration>) -> Double {
        let prompt = c.pointee.role == .loadMore ? c.pointee.promptingInset : 0
        return distance - prompt + c.pointee.preload
    }

    /// Whether an `onReachEdge` control at `distance` has reached its start point, `preload` before the edge,
    /// with the configured strictness: HTRefreshView's AutoTrigger fires once the footer has started to
    /// show, `y + H − C > B − promptingInset`, strictly (docs/SEEDS.md §3.3, Forked MS engine); IQ's at
    /// `progress ≥ 1` (§5.3).
    func hasReached(_ distance: Double) -> Bool {
        switch configuration.strictness {
        case .strict: distance > -configuration.preload
        case .inclusive: distance >= -configuration.preload
        }
    }

    /// Whether `pull` is past the trigger distance, with the configured strictness.
    func isPastTrigger(_ pull: Double) -> Bool {
        switch configuration.strictness {
        case .strict: pull > configuration.triggerDistance
        case .inclusive: pull >= configuration.triggerDistance
        }
    }

    /// The inset layer this control holds in its current state.
    /// A control whose library holds the inset through the exit (``InsetAnimation/returnsAfterExit``) keeps
    /// its refreshing layer while `finishing`.
    public var layer: Double {
        let held = state == .finishing && configuration.insetAnimation?.returnsAfterExit == true
        return switch (configuration.role, held ? EdgeState.refreshing : state) {
        case (_, .disabled): 0
        case (.refresh, .refreshing): configuration.restingInset
        case (.refresh, _): 0
        case (.loadMore, .refreshing), (.loadMore, .noMoreData), (.loadMore, .failed):
            max(configuration.restingInset, configuration.promptingInset)
        case (.loadMore, _): configuration.promptingInset
        }
    }

    /// Whether a timer of this control may be running: only a refresh underway has one.
    var hasTimer: Bool {
        switch state {
        case .refreshing, .finishing: true
        default: false
        }
    }

    /// The next time a timer of this control fires, if any.
    public var nextDeadline: Timestamp? {
        switch stage {
        case .refreshing(let refreshing):
            // The earlier of the cycle's end and a waiting finish's gate (no array: asked on every step).
            let cycleDeadline = cycleEnd(refreshing.cycle.start)
            guard refreshing.pending != nil, let visibleUntil = refreshing.visibleUntil else { return cycleDeadline }
            return min(cycleDeadline, visibleUntil)
        case .finishing(let finishing):
            return finishing.exitEnd
        default:
            return nil
        }
    }

    private func cycleEnd(_ start: Timestamp) -> Timestamp {
        start.advanced(bySeconds: max(0.05, configuration.cycle.delay + configuration.cycle.duration))
    }

    // MARK: - Events

    /// Moves to `next`, with its data, and says so with a `transition` event. Staying in the same state is no
    /// move: the machine never enters a state it is in (a refresh starts from another state, and so on).
    private mutating func transition(to next: Stage, cause: Cause, at time: Timestamp, events: inout [Event]) {
        let (from, to) = (state, next.state)
        guard to != from else { return }
        events.append(Event(.transition, edge: edge, from: from, to: to, cause: cause, time: time))
        stage = next
    }

    private func emit(_ name: Event.Name, cause: Cause, at time: Timestamp, value: Double? = nil, events: inout [Event])
    {
        events.append(Event(name, edge: edge, cause: cause, time: time, value: value))
    }

    // MARK: - Observing the scroll view

    /// The scroll view moved: `distance` is the displayed pull beyond this edge's rest position.
    ///
    /// `canStart` is `false` while the model would refuse this edge's request (a load-more while a
    /// refresh runs, or with no more pages): the control then shows the pull but does not start.
    // Inlined where the model observes (every shown edge, on every move) up to the test of `staysPut(at:)`: most
    // observations only record the pull, and the machine's switch is not called then (a drag's move, two edges
    // shown: docs/PERFORMANCE.md, "Inlining on an input's path"). The whole function marked so was not inlined:
    // the optimizer does not inline large functions, whatever asks.
    @inline(__always)
    public mutating func observe(
        distance: Double, velocity: Double, motion: Motion, canStart: Bool, at time: Timestamp,
        events: inout [Event]
    ) -> Action {
        clock = max(clock, time)
        let shown = distance.isFinite ? distance : 0
        let moved = shown != self.distance || !hasObserved
        (self.distance, hasObserved) = (shown, true)
        self.pullVelocity = velocity.isFinite ? velocity : 0
        if distance < -configuration.preload { reachArmed = true }
        if staysPut(at: distance) { return .none }
        return react(
            distance: distance, velocity: velocity, motion: motion, moved: moved, canStart: canStart, at: time,
            events: &events)
    }

    /// Whether observing a pull of `distance` leaves the control as it is whatever the motion, `canStart` and
    /// velocity: ``react(distance:velocity:motion:moved:canStart:at:events:)`` would return `.none` and change
    /// nothing. A refresh under way, its exit, no more data and an edge switched off ignore the pull; an idle
    /// control stays idle until the pull passes its threshold (``thresholdPull(_:)`` above 0) or, started on
    /// reaching the edge, until it reaches its start point (``hasReached(_:)``).
    @inline(__always)
    private func staysPut(at distance: Double) -> Bool {
        // The flat state, which lies with the pull, rather than the stage's tag, at the stage's end.
        switch state {
        case .idle:
            configuration.trigger == .onReachEdge ? !hasReached(distance) : thresholdPull(distance) <= 0
        case .refreshing, .finishing, .noMoreData, .disabled:
            true
        case .pulling, .armed, .failed:
            false
        }
    }

    /// The machine's answer to an observation that ``observe(distance:velocity:motion:canStart:at:events:)``
    /// recorded: `moved` says whether the pull changed (or is the first one seen).
    private mutating func react(
        distance: Double, velocity: Double, motion: Motion, moved: Bool, canStart: Bool, at time: Timestamp,
        events: inout [Event]
    ) -> Action {
        let cause: Cause =
            switch motion {
            case .dragging: .drag
            case .wheel: .wheel
            case .momentum: .fling
            case .still: .layout
            }
        let handsOn = motion == .dragging || motion == .wheel
        switch stage {
        case .plain(.idle), .plain(.pulling), .plain(.armed):
            if configuration.trigger == .onReachEdge {
                // `fling: ignore`: only hands that move the content reach the edge; momentum, the rest it comes
                // to, and a finger that lands without moving it never start the load. IQPullToRefresh's
                // default footer looks at the content when a drag changes its offset: a fling that reaches the
                // end does not load, a later drag at the end does, and on a list shorter than the viewport
                // (where the rest is the end) only a drag up loads, a drag down pulls the top instead
                // (docs/SEEDS.md §5.3).
                let mayReach = configuration.fling == .trigger || (handsOn && moved)
                if canStart && reachArmed && mayReach && hasReached(distance) {
                    reachArmed = false
                    return begin(cause: .reachEdge, at: time, events: &events)
                }
                return .none
            }
            // Content coming back on its own (the bounce after a release, the return after a refresh)
            // does not re-enter pulling; only hands, or momentum carrying the content outwards, do.
            if state == .idle && !handsOn && velocity <= 0 { return .none }
            let pull = thresholdPull(distance)
            if pull <= 0 {
                if state == .armed { emit(.disarmed, cause: cause, at: time, events: &events) }
                transition(to: .idle, cause: cause, at: time, events: &events)
                return .none
            }
            let mayArm = configuration.trigger != .manual && (handsOn || configuration.fling == .trigger)
            if mayArm && isPastTrigger(pull) {
                if state == .idle { transition(to: .pulling, cause: cause, at: time, events: &events) }
                if state != .armed {
                    transition(to: .armed, cause: cause, at: time, events: &events)
                    emit(.armed, cause: cause, at: time, events: &events)
                }
                let startsNow =
                    (configuration.trigger == .whileDragging && handsOn) || (motion == .momentum)
                return startsNow && canStart ? begin(cause: cause, at: time, events: &events) : .none
            }
            if state == .armed {
                // Armed is latched while the finger holds the content; a bounce going back does not disarm
                // a release that already counted.
                guard handsOn else { return .none }
                emit(.disarmed, cause: cause, at: time, events: &events)
            }
            transition(to: .pulling, cause: cause, at: time, events: &events)
            return .none
        case .refreshing:
            return .none
        case .failed(let failed):
            // A deliberate pull past the trigger, beyond where the failed footer rests, retries once the
            // back-off allows; a nudge at the end does not.
            if handsOn, isPastTrigger(distance - layer), configuration.trigger != .manual,
                time >= failed.retryNotBefore
            {
                transition(to: .armed, cause: cause, at: time, events: &events)
                emit(.armed, cause: cause, at: time, events: &events)
                // A footer that starts on its own would have started now: do so, rather than at whichever
                // observation comes next.
                if configuration.trigger != .onRelease && canStart {
                    return begin(cause: cause, at: time, events: &events)
                }
            }
            return .none
        case .finishing, .plain(.noMoreData), .plain(.disabled):
            return .none
        }
    }

    /// The model measured the content against the viewport: `contentFits` when it is no longer than the
    /// viewport less the app's insets along this edge's axis.
    ///
    /// A control with `shortContent: .disabled` is off while the content fits: `disabled`, so it keeps no
    /// prompting inset and nothing starts it; it comes back (`idle`, or `noMoreData` when the feed has no
    /// more pages) once the content outgrows the viewport. HTRefreshView's bottom view does this on every
    /// content size change: hidden, load-more off and the bottom inset back to the app's (docs/SEEDS.md §3.4,
    /// HT state machine and callbacks, "contentSize changes"). A load under way finishes first; the control
    /// switches off at the first observation after it ended.
    public mutating func observeLayout(contentFits: Bool, hasMore: Bool, at time: Timestamp, events: inout [Event]) {
        guard configuration.enabled, configuration.shortContent == .disabled else { return }
        clock = max(clock, time)
        if contentFits {
            switch state {
            case .idle, .pulling, .armed, .noMoreData, .failed:
                if state == .armed { emit(.disarmed, cause: .layout, at: time, events: &events) }
                transition(to: .disabled, cause: .layout, at: time, events: &events)
                reachArmed = true
            case .refreshing, .finishing, .disabled:
                break
            }
        } else if state == .disabled {
            transition(to: .idle, cause: .layout, at: time, events: &events)
            if configuration.role == .loadMore && !hasMore {
                transition(to: .noMoreData, cause: .layout, at: time, events: &events)
            }
        }
    }

    /// The finger lifted, or the wheel gesture ended.
    public mutating func release(canStart: Bool, at time: Timestamp, events: inout [Event]) -> Action {
        clock = max(clock, time)
        var action = Action.none
        if state == .armed && canStart {
            action = begin(cause: .release, at: time, events: &events)
        } else if state == .armed {
            emit(.disarmed, cause: .release, at: time, events: &events)
            transition(to: thresholdPull(distance) > 0 ? .pulling : .idle, cause: .release, at: time, events: &events)
        } else if case .refreshing(let refreshing) = stage, let pending = refreshing.pending,
            !configuration.endsOnCycleBoundary, mayEnd(refreshing, at: time, fingerDown: false)
        {
            end(refreshing, pending.outcome, animated: pending.animated, cause: .release, at: time, events: &events)
        }
        return action
    }

    // MARK: - Requests

    /// A command asks this edge to start. Idempotent: a running refresh is left alone.
    public mutating func start(cause: Cause, canStart: Bool, at time: Timestamp, events: inout [Event]) -> Action {
        clock = max(clock, time)
        guard canStart else { return .none }
        switch state {
        case .idle, .pulling, .armed, .failed:
            return begin(cause: cause, at: time, events: &events)
        case .refreshing, .finishing, .noMoreData, .disabled:
            return .none
        }
    }

    private mutating func begin(cause: Cause, at time: Timestamp, events: inout [Event]) -> Action {
        emit(.willStart, cause: cause, at: time, events: &events)
        let refreshing = Refreshing(
            start: time, visibleUntil: time.advanced(bySeconds: configuration.minimumVisibleDuration),
            cycle: RunningCycle(index: 0, start: time), pending: nil)
        transition(to: .refreshing(refreshing), cause: cause, at: time, events: &events)
        exitAnimated = true
        emit(.didStart, cause: cause, at: time, events: &events)
        emit(.cycleStarted, cause: .timer, at: time, value: 0, events: &events)
        return .request
    }

    /// The request of this edge ended. The end waits for the minimum visible time, and while the finger
    /// holds the content beyond the resting position, so nothing jumps under the finger.
    public mutating func finish(
        _ outcome: Outcome, cause: Cause, animated: Bool = true, fingerDown: Bool, at time: Timestamp,
        events: inout [Event]
    ) {
        guard case .refreshing(var refreshing) = stage else { return }
        clock = max(clock, time)
        // A dropped request ends at once: nothing was loaded, so there is nothing to keep on screen.
        let waits = configuration.endsOnCycleBoundary || !mayEnd(refreshing, at: time, fingerDown: fingerDown)
        if outcome != .cancelled && waits {
            refreshing.pending = PendingFinish(outcome: outcome, animated: animated)
            stage = .refreshing(refreshing)
            emit(.endRequested, cause: cause, at: time, events: &events)
            return
        }
        end(refreshing, outcome, animated: animated, cause: cause, at: time, events: &events)
    }

    /// The gates every end passes: the minimum visible time, and no finger holding the content beyond the
    /// resting position. (JH-style controls also wait for the end of the running cycle.)
    private func mayEnd(_ refreshing: Refreshing, at time: Timestamp, fingerDown: Bool) -> Bool {
        let visibleLongEnough = refreshing.visibleUntil.map { time >= $0 } ?? true
        return visibleLongEnough && !(fingerDown && distance > configuration.restingInset)
    }

    /// Ends `refreshing`: its cycle ends and the exit animation starts.
    private mutating func end(
        _ refreshing: Refreshing, _ outcome: Outcome, animated: Bool, cause: Cause, at time: Timestamp,
        events: inout [Event]
    ) {
        emit(.cycleEnded, cause: .timer, at: time, value: Double(refreshing.cycle.index), events: &events)
        let next: AfterExit
        switch outcome {
        case .success(let hasMore):
            consecutiveFailures = 0
            next = configuration.role == .loadMore && !hasMore ? .noMoreData : .idle
        case .cancelled:
            next = .idle
        case .failure:
            consecutiveFailures += 1
            // 1, 2, 4 … 30 s between automatic retries (bluesky-social/social-app #375: no rapid retries).
            let backOff = min(30, Double(1 << min(consecutiveFailures - 1, 5)))
            next =
                configuration.role == .loadMore
                ? .failed(Failed(retryNotBefore: time.advanced(bySeconds: backOff))) : .idle
        }
        emit(.willEnd, cause: cause, at: time, events: &events)
        let finishing = Finishing(
            refreshStart: refreshing.start, exitStart: time, exitDuration: animated ? configuration.exitDuration : 0,
            next: next)
        transition(to: .finishing(finishing), cause: cause, at: time, events: &events)
        exitAnimated = animated
    }

    // MARK: - Time

    /// Runs the timers that fall due at or before `time`.
    @inline(__always)
    public mutating func advance(to time: Timestamp, fingerDown: Bool, events: inout [Event]) {
        // Inlined where the model steps: a control without a refresh underway has no timer, and only
        // its clock moves.
        if hasTimer { runTimers(until: time, fingerDown: fingerDown, events: &events) }
        clock = max(clock, time)
    }

    private mutating func runTimers(until time: Timestamp, fingerDown: Bool, events: inout [Event]) {
        while let deadline = nextDeadline, deadline <= time {
            // Due timers fire in order at their own times; one that became overdue (a configure shortened
            // it) fires at the control's clock, so no event is ever stamped in the past.
            let at = max(deadline, clock)
            clock = at
            fire(at: at, fingerDown: fingerDown, events: &events)
        }
    }

    /// A load added rows at this edge: a footer still in view may fire again (a short list fills up).
    public mutating func contentGrew() {
        reachArmed = true
    }

    private mutating func fire(at time: Timestamp, fingerDown: Bool, events: inout [Event]) {
        switch stage {
        case .refreshing(var refreshing):
            let current = refreshing.cycle
            if cycleEnd(current.start) <= time {
                let boundary = max(cycleEnd(current.start), time)
                if let pending = refreshing.pending, configuration.endsOnCycleBoundary,
                    mayEnd(refreshing, at: boundary, fingerDown: fingerDown)
                {
                    end(
                        refreshing, pending.outcome, animated: pending.animated, cause: .timer, at: boundary,
                        events: &events)
                    return
                }
                emit(.cycleEnded, cause: .timer, at: boundary, value: Double(current.index), events: &events)
                refreshing.cycle = RunningCycle(index: current.index + 1, start: boundary)
                emit(.cycleStarted, cause: .timer, at: boundary, value: Double(current.index + 1), events: &events)
            }
            if let pending = refreshing.pending, let until = refreshing.visibleUntil, time >= until {
                // The minimum visible time is over: the gate opens for good.
                refreshing.visibleUntil = nil
                if !configuration.endsOnCycleBoundary, mayEnd(refreshing, at: time, fingerDown: fingerDown) {
                    end(
                        refreshing, pending.outcome, animated: pending.animated, cause: .timer, at: time,
                        events: &events)
                    return
                }
                // Otherwise a release (or the cycle's end) ends it.
            }
            stage = .refreshing(refreshing)
        case .finishing(let finishing):
            transition(to: finishing.next.stage, cause: .timer, at: time, events: &events)
            emit(.didEnd, cause: .timer, at: time, events: &events)
        default:
            break
        }
    }

    // MARK: - Configuration

    /// Replaces the configuration. Switching the edge off ends a running refresh (one end per start).
    /// `contentFits` is what ``observeLayout(contentFits:hasMore:at:events:)`` is told: a control that
    /// stays off while the content fits is not switched on only to go off again.
    public mutating func configure(
        _ new: EdgeConfiguration, contentFits: Bool = false, at time: Timestamp, events: inout [Event]
    ) -> Action {
        clock = max(clock, time)
        if new != shared.value { shared = SharedEdgeConfiguration(new) }
        if !new.enabled {
            var action = Action.none
            if case .refreshing(let refreshing) = stage {
                // A finish that waited, not animated, ends so.
                let animated = refreshing.pending?.animated ?? true
                end(refreshing, .cancelled, animated: animated, cause: .configure, at: time, events: &events)
                action = .cancelRequest
            }
            let wasFinishing = state == .finishing
            transition(to: .disabled, cause: .configure, at: time, events: &events)
            if wasFinishing { emit(.didEnd, cause: .configure, at: time, events: &events) }
            return action
        }
        if state == .disabled && !(new.shortContent == .disabled && contentFits) {
            transition(to: .idle, cause: .configure, at: time, events: &events)
        }
        return .none
    }

    /// The feed has pages again (a refresh reloaded it): a `noMoreData` footer goes back to idle.
    public mutating func feedReset(hasMore: Bool, at time: Timestamp, events: inout [Event]) {
        if hasMore && (state == .noMoreData || state == .failed) {
            consecutiveFailures = 0
            transition(to: .idle, cause: .feedCompleted, at: time, events: &events)
        } else if !hasMore && configuration.role == .loadMore && state == .idle {
            transition(to: .noMoreData, cause: .feedCompleted, at: time, events: &events)
        }
    }
}
