// Over 400 lines on purpose: the one value that owns the offset, both gestures and the motion; the gestures'
// and the motion's own laws live in their files beside it, and what is here is the core whose invariants span it.

/// The authoritative scroll view: offset, gestures and closed-form motion, with UIScrollView's feel.
///
/// It knows nothing about refresh controls: they observe it (``offset``, ``phase``) and change its inset
/// layers, which it absorbs without a jump (a drag is re-based, an animation re-planned from its current
/// position and velocity, a resting offset left outside the new bounds springs back).
public struct ScrollModel: Hashable, Sendable, Codable {
    /// What a gesture input did.
    public enum GestureOutcome: Hashable, Sendable {
        /// Nothing: another pointer owns the content, or wheel momentum was swallowed.
        case ignored
        case began
        case moved
        /// The finger lifted (or the wheel gesture ended) with this content velocity, px/s. The caller lets
        /// the edge controls react, then calls ``settle(velocity:)``.
        case released(velocity: Point)
    }

    /// Pixels per line for `WheelEvent.DOM_DELTA_LINE` (Facebook normalize-wheel's `LINE_HEIGHT`).
    public static let wheelLineHeight = 40.0

    // What a drag's move reads comes first, in declaration order and so in memory: the clock, the offset and its
    // motion, the geometry, the rubber band, the drag, then the finger's newest samples (``FingerVelocity``); the
    // rest of the velocity rings after them (docs/PERFORMANCE.md, "Cold lines"), and what only wheels, commands
    // and timed moves use held apart (``ScrollSideCar``). Coded flat, in the old order (``ScrollSnapshot``).
    public internal(set) var now: Timestamp
    public internal(set) var offset: Point
    public internal(set) var velocity: Point = .zero
    public internal(set) var phase: ScrollPhase = .idle
    /// Whether a finger holds the content.
    ///
    /// Stored with the drag rather than derived from it: the model asks on every step.
    public internal(set) var isDragging = false
    public internal(set) var horizontalMotion: [MotionSegment] = []
    public internal(set) var verticalMotion: [MotionSegment] = []
    public private(set) var viewport: Size
    public private(set) var contentSize: Size
    public private(set) var insets: InsetLayers
    public var physics: ScrollPhysics
    var drag: DragGesture?
    /// The running drag's velocity estimators (empty without one).
    var fingerVelocity = FingerVelocity()
    /// What only wheels, commands and timed inset moves use, held apart and only while set (``ScrollSideCar``).
    var sideCar = ScrollSideCar()

    public init(
        viewport: Size,
        contentSize: Size,
        insets: InsetLayers = InsetLayers(),
        physics: ScrollPhysics = .ios,
        time: Timestamp
    ) {
        self.physics = physics
        self.now = time
        self.viewport = viewport
        self.contentSize = contentSize
        self.insets = insets
        let start = insets.combined
        self.offset = Point(x: -start.left, y: -start.top)
    }

    public init(from decoder: any Decoder) throws { self = try ScrollSnapshot(from: decoder).model }

    public func encode(to encoder: any Encoder) throws { try ScrollSnapshot(self).encode(to: encoder) }

    // MARK: - Geometry

    /// The resting range of the offset along `axis` with every inset layer.
    @inline(__always)
    public func bounds(_ axis: Axis) -> ScrollBounds {
        ScrollBounds(axis: axis, viewport: viewport, content: contentSize, insets: insets.combined)
    }

    /// The resting range along `edge`'s axis without `edge`'s own control layer: what it measures from.
    @inline(__always)
    public func bounds(excluding edge: Edge) -> ScrollBounds {
        ScrollBounds(axis: edge.axis, viewport: viewport, content: contentSize, insets: insets.excluding(edge))
    }

    /// When the running animation comes to rest.
    public var motionEnd: Timestamp? {
        // Asked after every input, mostly with nothing moving (a drag, a rest): no chain to search then.
        if horizontalMotion.isEmpty && verticalMotion.isEmpty { return nil }
        let horizontal = BallisticPlanner.settleTime(of: horizontalMotion)
        let vertical = BallisticPlanner.settleTime(of: verticalMotion)
        guard let horizontal else { return vertical }
        guard let vertical else { return horizontal }
        return max(horizontal, vertical)
    }

    // The geometry helpers below are inlined: called from mutating code, a method call would be handed a copy
    // of the whole model, the finger's velocity rings included (docs/PERFORMANCE.md, "No copies per input").

    @inline(__always)
    func displayed(raw: Double, axis: Axis) -> Double {
        let range = bounds(axis)
        return physics.rubberBand.clamp(raw, lower: range.lower, upper: range.upper, dimension: viewport[axis])
    }

    @inline(__always)
    private func raw(displayed: Double, axis: Axis) -> Double {
        let range = bounds(axis)
        return physics.rubberBand.unclamp(displayed, lower: range.lower, upper: range.upper, dimension: viewport[axis])
    }

    @inline(__always)
    func rawOffset() -> Point {
        Point(x: raw(displayed: offset.x, axis: .horizontal), y: raw(displayed: offset.y, axis: .vertical))
    }

    // MARK: - Time

    /// Evaluates the running animation at `time` (never goes backwards).
    @inline(__always)
    public mutating func advance(to time: Timestamp) {
        guard time >= now else { return }
        now = time
        // Inline up to here: most calls come between a finger's moves, where nothing animates.
        if phase == .animating { evaluateAnimation() }
    }

    private mutating func evaluateAnimation() {
        for axis in Axis.allCases {
            let chain = motion(axis)
            guard !chain.isEmpty else { continue }
            let state = BallisticPlanner.evaluate(chain, at: now)
            offset[axis] = state.position
            velocity[axis] = state.velocity
            if let end = BallisticPlanner.settleTime(of: chain), now >= end {
                setMotion([], axis)
                setTiming(nil, axis)
                velocity[axis] = 0
            }
        }
        if horizontalMotion.isEmpty && verticalMotion.isEmpty {
            phase = .idle
            velocity = .zero
            sideCar.commandTarget = nil
        }
    }

    private func motion(_ axis: Axis) -> [MotionSegment] {
        axis == .horizontal ? horizontalMotion : verticalMotion
    }

    private mutating func setMotion(_ chain: [MotionSegment], _ axis: Axis) {
        if axis == .horizontal { horizontalMotion = chain } else { verticalMotion = chain }
    }

    private func timing(_ axis: Axis) -> TimedMove? {
        axis == .horizontal ? sideCar.horizontalTiming : sideCar.verticalTiming
    }

    private mutating func setTiming(_ timing: TimedMove?, _ axis: Axis) {
        if axis == .horizontal { sideCar.horizontalTiming = timing } else { sideCar.verticalTiming = timing }
    }

    mutating func stopMotion() {
        sideCar.horizontalTiming = nil
        sideCar.verticalTiming = nil
        horizontalMotion = []
        verticalMotion = []
        velocity = .zero
        sideCar.commandTarget = nil
    }

    // MARK: - Touch

    /// Applies one pointer sample at the model's current time.
    public mutating func touch(_ input: TouchInput) -> GestureOutcome {
        // The drag is changed in place through `drag!` (its velocity trackers through `fingerVelocity`), never
        // copied out and stored back: this runs on every pointer move.
        switch input.phase {
        case .start:
            if let pointer = drag?.pointer, pointer != input.pointer { return .ignored }
            beginDrag(input)
            return .began
        case .move:
            if !isDragging {
                // A move without a start (the start was lost, or the page reconnected mid-gesture) begins
                // a drag rather than being dropped.
                beginDrag(input)
            }
            guard drag?.pointer == input.pointer else { return .ignored }
            drag!.move(by: input.delta, pageTime: input.pageTime, velocity: &fingerVelocity)
            followFinger()
            let lastPageTime = drag!.lastPageTime
            velocity = fingerVelocity.releaseVelocity(pageTime: lastPageTime, lastPageTime: lastPageTime)
            return .moved
        case .end, .cancel:
            guard drag?.pointer == input.pointer else { return .ignored }
            if input.delta != .zero {
                drag!.move(by: input.delta, pageTime: input.pageTime, velocity: &fingerVelocity)
                followFinger()
            }
            let lastPageTime = drag!.lastPageTime
            let release =
                input.phase == .end
                ? fingerVelocity.releaseVelocity(pageTime: input.pageTime, lastPageTime: lastPageTime) : .zero
            self.drag = nil
            isDragging = false
            fingerVelocity.reset()
            phase = .animating
            return .released(velocity: release)
        }
    }

    private mutating func beginDrag(_ input: TouchInput) {
        // Catching a moving list stops it where it is, like UIScrollView.
        stopMotion()
        sideCar.wheel = nil
        drag = DragGesture(
            pointer: input.pointer, anchor: rawOffset(), pageTime: input.pageTime, velocity: &fingerVelocity)
        isDragging = true
        phase = .dragging
    }

    /// The offset the drag asks for, rubber-banded on both axes. Inlined where a finger moves, which the
    /// optimizer does only while `RubberBand.bounds` is inlined too (see there).
    @inline(__always)
    private mutating func followFinger() {
        guard let raw = drag?.rawOffset else { return }
        offset = Point(x: displayed(raw: raw.x, axis: .horizontal), y: displayed(raw: raw.y, axis: .vertical))
    }

    // MARK: - Motion

    /// Starts the closed-form motion after a release (decay, then a spring at an edge), from the current
    /// offset with `velocity`, towards the current bounds.
    public mutating func settle(velocity release: Point) {
        guard !isDragging, sideCar.wheel == nil else { return }
        sideCar.commandTarget = nil
        for axis in Axis.allCases {
            adopt(planned(axis, velocity: release[axis]), axis, velocity: release[axis])
        }
        phase = horizontalMotion.isEmpty && verticalMotion.isEmpty ? .idle : .animating
    }

    /// Animates to `target` with the bounce spring (commands: scroll to an edge, page up/down), or on `timing`
    /// (a command's start revealing a control whose library animates it, docs/PHYSICS.md §11.3).
    public mutating func scroll(to target: Point, animated: Bool, timing: TimedMove? = nil) {
        guard !isDragging else { return }
        sideCar.wheel = nil
        sideCar.horizontalTiming = nil
        sideCar.verticalTiming = nil
        guard animated else {
            stopMotion()
            offset = target
            phase = .idle
            return
        }
        sideCar.commandTarget = target
        for axis in Axis.allCases {
            let current = motion(axis).isEmpty ? 0 : velocity[axis]
            if abs(target[axis] - offset[axis]) < physics.distanceTolerance && current == 0 {
                offset[axis] = target[axis]
                setMotion([], axis)
                continue
            }
            let running = motion(axis)
            if running.count == 1, running[0].kind == .timed, running[0].target == target[axis],
                let end = running[0].end, end > now
            {
                continue  // a timed move there already runs (a relayout re-aims a command's scroll)
            }
            if let timing, timing.duration > 0 {
                let move = MotionSegment.timed(
                    from: offset[axis], to: target[axis], at: now, duration: timing.duration, curve: timing.curve)
                setMotion([move], axis)
                continue
            }
            setMotion(
                [
                    MotionSegment.spring(
                        from: offset[axis], velocity: current, to: target[axis], at: now, physics: physics)
                ],
                axis)
        }
        phase = horizontalMotion.isEmpty && verticalMotion.isEmpty ? .idle : .animating
    }

    private static func isRest(_ chain: [MotionSegment]) -> Bool {
        chain.isEmpty || (chain.count == 1 && chain[0].kind == .hold)
    }

    // MARK: - Layout changes, absorbed without a jump

    /// Changes one edge control's inset layer. With a `timing`, content the change leaves outside its rest
    /// range goes there in exactly that time, on that curve, instead of on the bounce spring: the seed
    /// library's inset animation (docs/PHYSICS.md §11.3); a timing of no duration puts it there at once.
    public mutating func setInsetLayer(_ value: Double, for edge: Edge, timing: TimedMove? = nil) {
        var layers = insets
        layers.setLayer(value, for: edge)
        let axis = edge.axis
        setTiming(timing, axis)
        relayout { $0.insets = layers }
        // Nothing was set moving on this axis (a finger holds the content, or it rests inside the new range):
        // the timing has nothing to shape.
        if motion(axis).isEmpty { setTiming(nil, axis) }
    }

    /// Changes the app's own inset.
    public mutating func setAppInsets(_ value: EdgeInsets) {
        var layers = insets
        layers.app = value
        relayout { $0.insets = layers }
    }

    /// Changes the content size (rows loaded or replaced).
    public mutating func setContentSize(_ size: Size) {
        relayout { $0.contentSize = size }
    }

    /// Moves the content `correction` px along the vertical axis (a row layout's anchor correction) and sets
    /// the content size, velocity untouched: a resting offset moves; a drag's origin moves with it, so the
    /// finger's content stays under it; a running motion's segments are shifted, not re-planned, while they
    /// still come to rest within the new bounds (else the motion is re-planned as any relayout re-plans it).
    public mutating func shift(by correction: Double, contentSize size: Size) {
        guard correction != 0 else { return setContentSize(size) }
        // A command to an edge aims at the edge, not at a row: it goes on there from the shifted offset.
        let edgeTarget = sideCar.commandTarget.flatMap { bounds(.vertical).edge(at: $0.y) }
        offset.y += correction
        sideCar.commandTarget?.y += correction
        if let edgeTarget, phase == .animating, var target = sideCar.commandTarget {
            contentSize = size
            target.y = edgeTarget == .lower ? bounds(.vertical).lower : bounds(.vertical).upper
            return scroll(to: target, animated: true)
        }
        verticalMotion = verticalMotion.map { $0.shifted(by: correction) }
        let range = ScrollBounds(axis: .vertical, viewport: viewport, content: size, insets: insets.combined)
        let chain = verticalMotion
        // A decay that hands over to a spring at an edge may aim past it; every other end must be in range.
        let fits = chain.indices.allSatisfy {
            (chain[$0].kind == .decay && $0 < chain.count - 1) || range.contains(chain[$0].target)
        }
        if phase == .animating && fits && horizontalMotion.isEmpty {
            contentSize = size
        } else {
            setContentSize(size)
        }
    }

    /// Changes the viewport (resize, rotation).
    public mutating func setViewport(_ size: Size) {
        relayout { $0.viewport = size }
    }

    private mutating func relayout(_ change: (inout ScrollModel) -> Void) {
        let before = (horizontal: bounds(.horizontal), vertical: bounds(.vertical))
        change(&self)
        let after = (horizontal: bounds(.horizontal), vertical: bounds(.vertical))
        if let translation = drag?.translation {
            // Re-base the finger's anchor against the new bounds so the displayed offset holds.
            let raw = rawOffset()
            drag!.anchor = Point(x: raw.x + translation.x, y: raw.y + translation.y)
        } else if var gesture = sideCar.wheel {
            gesture.raw = rawOffset()
            sideCar.wheel = gesture
        } else if phase == .animating {
            if let target = sideCar.commandTarget {
                let clamped = Point(x: after.horizontal.clamp(target.x), y: after.vertical.clamp(target.y))
                scroll(to: clamped, animated: true)
            } else {
                if before.horizontal != after.horizontal { replan(.horizontal) }
                if before.vertical != after.vertical { replan(.vertical) }
            }
            if horizontalMotion.isEmpty && verticalMotion.isEmpty { phase = .idle }
        } else {
            for axis in Axis.allCases where !bounds(axis).contains(offset[axis]) {
                replan(axis)
            }
            if !(horizontalMotion.isEmpty && verticalMotion.isEmpty) { phase = .animating }
        }
    }

    private mutating func replan(_ axis: Axis) {
        let current = motion(axis).isEmpty ? 0 : velocity[axis]
        adopt(planned(axis, velocity: current), axis, velocity: current)
    }

    /// The motion from the current offset with `initial` velocity towards the current bounds: the ballistic
    /// plan, except that content outside its range goes back on the axis's timed move when one is set. A
    /// timed move already running to the same place goes on unchanged (a relayout that does not move that
    /// rest, such as rows arriving at the other end, does not restart it).
    private func planned(_ axis: Axis, velocity initial: Double) -> [MotionSegment] {
        let range = bounds(axis)
        let chain = BallisticPlanner.plan(
            position: offset[axis], velocity: initial, lower: range.lower, upper: range.upper, at: now,
            physics: physics)
        guard let timing = timing(axis), chain.count == 1, chain[0].kind == .spring, chain[0].start == now else {
            return chain
        }
        let target = chain[0].target
        // A move of no duration puts the content there now.
        guard timing.duration > 0 else { return [.hold(at: target, from: now)] }
        let running = motion(axis)
        if running.count == 1, running[0].kind == .timed, running[0].target == target,
            let end = running[0].end, end > now
        {
            return running
        }
        return [.timed(from: offset[axis], to: target, at: now, duration: timing.duration, curve: timing.curve)]
    }

    /// Runs `chain` on `axis`; a chain that is only a hold puts the offset there at once (a start already
    /// within a device pixel of its target snaps onto it).
    private mutating func adopt(_ chain: [MotionSegment], _ axis: Axis, velocity initial: Double) {
        if Self.isRest(chain) {
            setMotion([], axis)
            setTiming(nil, axis)
            if let hold = chain.first { offset[axis] = hold.position }
            velocity[axis] = 0
        } else {
            setMotion(chain, axis)
            // A timed move starts from its own velocity, not the one it took over (docs/PHYSICS.md §11.3).
            velocity[axis] = chain[0].kind == .timed ? BallisticPlanner.evaluate(chain, at: now).velocity : initial
        }
    }
}
