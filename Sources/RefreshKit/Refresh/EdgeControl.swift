// Over 400 lines on purpose: one state machine, every transition in one place so that a reader sees them all
// (a fifth of the file is their documentation).

/// The refresh (or load-more) control of one edge: a state machine fed with what the scroll view does.
///
/// One `mutating func` per thing that can happen (`observe`, `release`, `start`, `finish`, `advance`,
/// `configure`), each returning what the model must do about the feed. Every transition is emitted as
/// an ``Event`` with its cause, in a fixed order per refresh: `willStart`, `transition(→refreshing)`,
/// `didStart`, cycles, `willEnd`, `transition(→finishing)`, `transition(→idle)`, `didEnd` — exactly one
/// start and one end per refresh.
public struct EdgeControl: Hashable, Sendable {
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
    public enum Outcome: Hashable, Sendable {
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

    public let edge: Edge
    public private(set) var configuration: EdgeConfiguration
    public private(set) var state: EdgeState
    /// The latest displayed pull beyond the rest position, CSS px (unclamped).
    public private(set) var distance: Double = 0
    /// The latest pull velocity, px/s.
    public private(set) var pullVelocity: Double = 0
    /// When the running refresh started.
    public private(set) var refreshStart: Timestamp?
    /// A finish may not end the refresh before this time (the minimum visible duration); `nil` once passed
    /// or waived.
    private var visibleUntil: Timestamp?
    /// When the exit animation started.
    public private(set) var exitStart: Timestamp?
    /// One run of the refreshing animation.
    public struct RunningCycle: Hashable, Sendable {
        public var index: Int
        public var start: Timestamp
    }

    /// The running animation cycle.
    public private(set) var cycle: RunningCycle?
    /// A finish that waits: for the minimum visible time, or for the finger to let go.
    private var pendingFinish: Outcome?
    private var finishAnimated = true
    /// Where the control goes once the exit animation ends.
    private var afterExit: EdgeState = .idle
    /// The running exit animation's length, seconds (0 for a finish that is not animated).
    public private(set) var exitDuration: Double = 0
    /// Whether the latest end was animated (`true` until a finish says otherwise, and again from the next
    /// start): a control whose inset goes back after its exit gives it back without animation then.
    public private(set) var exitAnimated = true
    /// Automatic retries of a failed load wait until then (back-off); a command retries at once.
    public private(set) var retryNotBefore: Timestamp?
    private var consecutiveFailures = 0
    /// The latest time the control acted at, or was stepped to while it had a timer: an overdue timer (a
    /// configure shortened it) fires then, never in the past. A control without a timer need not follow the
    /// time (the model's quiet steps skip it): every way to a timer (`observe`, `release`, `start`,
    /// `configure`) moves the clock first.
    private var clock = Timestamp(microseconds: .min)
    /// `onReachEdge` fires when the edge comes into view, not for as long as it stays there: it re-arms
    /// when the edge leaves the view, or when a load added rows (a short list keeps filling the screen).
    private var reachArmed = true

    public init(edge: Edge, configuration: EdgeConfiguration) {
        self.edge = edge
        self.configuration = configuration
        self.state = configuration.enabled ? .idle : .disabled
    }

    // MARK: - Derived

    /// How far along the control is towards starting, 0…1, over `triggerDistance`:
    /// - a control started by a pull counts its pull past its prompting inset, `preload` early
    ///   (``thresholdPull(_:)``): 1 once it is past the trigger;
    /// - an `onReachEdge` control counts the last `triggerDistance` before the point where it starts
    ///   (`preload` before the edge): 1 there. IQPullToRefresh's load-more progress,
    ///   `clamp((y − (E − L)) / L, 0, 1)` with `E` the trigger offset (docs/SEEDS.md §5.3, Load-more state
    ///   machine).
    public var progress: Double {
        let length = configuration.triggerDistance
        let pull: Double
        if configuration.trigger == .onReachEdge {
            // The start point is `distance == -preload`; counted from `length` before it.
            pull = distance + configuration.preload + length
            guard length > 0 else { return pull >= 0 ? 1 : 0 }
        } else {
            pull = thresholdPull(distance)
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
        let prompt = configuration.role == .loadMore ? configuration.promptingInset : 0
        return distance - prompt + configuration.preload
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
    var hasTimer: Bool { state == .refreshing || state == .finishing }

    /// The next time a timer of this control fires, if any.
    public var nextDeadline: Timestamp? {
        switch state {
        case .refreshing:
            // The earlier of the cycle's end and a waiting finish's gate (no array: asked on every step).
            let cycleDeadline = cycle.map { cycleEnd($0.start) }
            guard pendingFinish != nil, let visibleUntil else { return cycleDeadline }
            return cycleDeadline.map { min($0, visibleUntil) } ?? visibleUntil
        case .finishing:
            return exitStart?.advanced(bySeconds: exitDuration)
        default:
            return nil
        }
    }

    private func cycleEnd(_ start: Timestamp) -> Timestamp {
        start.advanced(bySeconds: max(0.05, configuration.cycle.delay + configuration.cycle.duration))
    }

    // MARK: - Events

    private mutating func transition(to next: EdgeState, cause: Cause, at time: Timestamp, events: inout [Event]) {
        guard next != state else { return }
        events.append(Event(.transition, edge: edge, from: state, to: next, cause: cause, time: time))
        state = next
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
    public mutating func observe(
        distance: Double, velocity: Double, motion: Motion, canStart: Bool, at time: Timestamp,
        events: inout [Event]
    ) -> Action {
        clock = max(clock, time)
        self.distance = distance.isFinite ? distance : 0
        self.pullVelocity = velocity.isFinite ? velocity : 0
        if distance < -configuration.preload { reachArmed = true }
        let cause: Cause =
            switch motion {
            case .dragging: .drag
            case .wheel: .wheel
            case .momentum: .fling
            case .still: .layout
            }
        let handsOn = motion == .dragging || motion == .wheel
        switch state {
        case .idle, .pulling, .armed:
            if configuration.trigger == .onReachEdge {
                // `fling: ignore`: only hands on the content reach the edge; momentum, and the rest it comes
                // to, never start the load. IQPullToRefresh's default footer loads more only from a drag: a
                // fling that reaches the end does not, a later drag at the end does (docs/SEEDS.md §5.3).
                let mayReach = handsOn || configuration.fling == .trigger
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
        case .failed:
            // A deliberate pull past the trigger, beyond where the failed footer rests, retries once the
            // back-off allows; a nudge at the end does not.
            if handsOn, isPastTrigger(distance - layer), configuration.trigger != .manual,
                retryNotBefore.map({ time >= $0 }) ?? true
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
        case .finishing, .noMoreData, .disabled:
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
        } else if state == .refreshing, let outcome = pendingFinish, !configuration.endsOnCycleBoundary,
            mayEnd(at: time, fingerDown: false)
        {
            pendingFinish = nil
            end(outcome, cause: .release, at: time, events: &events)
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
        transition(to: .refreshing, cause: cause, at: time, events: &events)
        refreshStart = time
        exitAnimated = true
        visibleUntil = time.advanced(bySeconds: configuration.minimumVisibleDuration)
        pendingFinish = nil
        exitStart = nil
        emit(.didStart, cause: cause, at: time, events: &events)
        cycle = RunningCycle(index: 0, start: time)
        emit(.cycleStarted, cause: .timer, at: time, value: 0, events: &events)
        return .request
    }

    /// The request of this edge ended. The end waits for the minimum visible time, and while the finger
    /// holds the content beyond the resting position, so nothing jumps under the finger.
    public mutating func finish(
        _ outcome: Outcome, cause: Cause, animated: Bool = true, fingerDown: Bool, at time: Timestamp,
        events: inout [Event]
    ) {
        guard state == .refreshing else { return }
        clock = max(clock, time)
        finishAnimated = animated
        // A dropped request ends at once: nothing was loaded, so there is nothing to keep on screen.
        let waits = configuration.endsOnCycleBoundary || !mayEnd(at: time, fingerDown: fingerDown)
        if outcome != .cancelled && waits {
            pendingFinish = outcome
            return
        }
        end(outcome, cause: cause, at: time, events: &events)
    }

    /// The gates every end passes: the minimum visible time, and no finger holding the content beyond the
    /// resting position. (JH-style controls also wait for the end of the running cycle.)
    private func mayEnd(at time: Timestamp, fingerDown: Bool) -> Bool {
        let visibleLongEnough = visibleUntil.map { time >= $0 } ?? true
        return visibleLongEnough && !(fingerDown && distance > configuration.restingInset)
    }

    private mutating func end(_ outcome: Outcome, cause: Cause, at time: Timestamp, events: inout [Event]) {
        if let cycle {
            emit(.cycleEnded, cause: .timer, at: time, value: Double(cycle.index), events: &events)
            self.cycle = nil
        }
        switch outcome {
        case .success(let hasMore):
            consecutiveFailures = 0
            retryNotBefore = nil
            afterExit = configuration.role == .loadMore && !hasMore ? .noMoreData : .idle
        case .cancelled:
            afterExit = .idle
        case .failure:
            consecutiveFailures += 1
            // 1, 2, 4 … 30 s between automatic retries (bluesky-social/social-app #375: no rapid retries).
            let backOff = min(30, Double(1 << min(consecutiveFailures - 1, 5)))
            retryNotBefore = time.advanced(bySeconds: backOff)
            afterExit = configuration.role == .loadMore ? .failed : .idle
        }
        emit(.willEnd, cause: cause, at: time, events: &events)
        transition(to: .finishing, cause: cause, at: time, events: &events)
        exitStart = time
        exitDuration = finishAnimated ? configuration.exitDuration : 0
        exitAnimated = finishAnimated
        finishAnimated = true
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
        switch state {
        case .refreshing:
            if let current = cycle, cycleEnd(current.start) <= time {
                let boundary = max(cycleEnd(current.start), time)
                if let outcome = pendingFinish, configuration.endsOnCycleBoundary,
                    mayEnd(at: boundary, fingerDown: fingerDown)
                {
                    pendingFinish = nil
                    end(outcome, cause: .timer, at: boundary, events: &events)
                    return
                }
                emit(.cycleEnded, cause: .timer, at: boundary, value: Double(current.index), events: &events)
                cycle = RunningCycle(index: current.index + 1, start: boundary)
                emit(.cycleStarted, cause: .timer, at: boundary, value: Double(current.index + 1), events: &events)
            }
            if pendingFinish != nil, let until = visibleUntil, time >= until {
                // The minimum visible time is over: the gate opens for good.
                visibleUntil = nil
                if let outcome = pendingFinish, !configuration.endsOnCycleBoundary,
                    mayEnd(at: time, fingerDown: fingerDown)
                {
                    pendingFinish = nil
                    end(outcome, cause: .timer, at: time, events: &events)
                }
                // Otherwise a release (or the cycle's end) ends it.
            }
        case .finishing:
            transition(to: afterExit, cause: .timer, at: time, events: &events)
            emit(.didEnd, cause: .timer, at: time, events: &events)
            exitStart = nil
            refreshStart = nil
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
        let wasRefreshing = state == .refreshing
        configuration = new
        if !new.enabled {
            var action = Action.none
            if wasRefreshing {
                end(.cancelled, cause: .configure, at: time, events: &events)
                action = .cancelRequest
            }
            let wasFinishing = state == .finishing
            transition(to: .disabled, cause: .configure, at: time, events: &events)
            if wasFinishing { emit(.didEnd, cause: .configure, at: time, events: &events) }
            cycle = nil
            pendingFinish = nil
            visibleUntil = nil
            exitStart = nil
            refreshStart = nil
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
            retryNotBefore = nil
            transition(to: .idle, cause: .feedCompleted, at: time, events: &events)
        } else if !hasMore && configuration.role == .loadMore && state == .idle {
            transition(to: .noMoreData, cause: .feedCompleted, at: time, events: &events)
        }
    }
}
