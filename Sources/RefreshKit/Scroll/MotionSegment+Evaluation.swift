/// Closed-form evaluation of a ``MotionSegment`` at any time, and factories for its kinds.
///
/// Evaluation is a pure function of the segment and the time: no state, no integration, so sampling at
/// 60, 120 or 240 Hz gives the same value at the same instant (docs/PHYSICS.md §10.1). Elapsed time is taken
/// as an integer difference of microseconds before it becomes seconds (docs/PHYSICS.md §10.3).
extension MotionSegment {
    // MARK: - Evaluation

    /// The position at `t`, px.
    ///
    /// `t` is clamped into `[start, end]`: before its start a segment is at its initial position; after its
    /// end a hold stays at `position`, a decay stays where it stopped, and a spring or a timed segment is
    /// **exactly** at its `target` (the snap that makes rest positions exact, docs/PHYSICS.md §2.3 item 3). A decay segment whose
    /// `decayConstant` is not negative cannot decelerate and is evaluated as a hold.
    public func position(at t: Timestamp) -> Double {
        switch kind {
        case .hold:
            return position
        case .decay:
            guard decayConstant < 0 else { return position }
            return Decay.position(from: position, velocity: velocity, after: elapsed(at: t), constant: decayConstant)
        case .spring:
            if let end, t >= end { return target }
            let seconds = elapsed(at: t)
            // At the start, the stored state itself, so a chain is continuous to the last bit.
            if seconds == 0 { return position }
            return target + springSolution.displacement(at: seconds)
        case .timed:
            guard let fraction = timedFraction(at: t) else { return target }
            if fraction == 0 { return position }
            return position + (target - position) * (curve ?? .linear).progress(at: fraction)
        }
    }

    /// The velocity at `t`, px/s, with `t` clamped as in ``position(at:)``: 0 for a hold and for a spring
    /// at or after its end, the velocity at `end` for a decay after its end.
    public func velocity(at t: Timestamp) -> Double {
        switch kind {
        case .hold:
            return 0
        case .decay:
            guard decayConstant < 0 else { return 0 }
            return Decay.velocity(velocity, after: elapsed(at: t), constant: decayConstant)
        case .spring:
            if let end, t >= end { return 0 }
            let seconds = elapsed(at: t)
            if seconds == 0 { return velocity }
            return springSolution.velocity(at: seconds)
        case .timed:
            guard let fraction = timedFraction(at: t), let duration, duration > 0 else { return 0 }
            return (target - position) * (curve ?? .linear).slope(at: fraction) / duration
        }
    }

    /// The fraction of a timed segment's duration that has passed at `t`, in [0, 1); `nil` at or after its
    /// end, and for a segment without an end or with no duration (both are at `target`).
    func timedFraction(at t: Timestamp) -> Double? {
        guard let end, t < end, end > start else { return nil }
        return elapsed(at: t) / end.seconds(since: start)
    }

    /// Whether `t` lies in `[start, end)` (`end == nil` means for ever).
    public func contains(_ t: Timestamp) -> Bool {
        t >= start && (end.map { t < $0 } ?? true)
    }

    /// How long the segment lasts, seconds; `nil` for an open segment.
    public var duration: Double? {
        end.map { $0.seconds(since: start) }
    }

    /// Seconds from `start` to `t`, with `t` clamped into `[start, end]`.
    func elapsed(at t: Timestamp) -> Double {
        var clamped = max(t, start)
        if let end { clamped = min(clamped, max(end, start)) }
        return clamped.seconds(since: start)
    }

    /// The spring's closed form from this segment's initial state (``Spring/ios`` if none is given).
    var springSolution: SpringSolution {
        SpringSolution(spring: spring ?? .ios, displacement: position - target, velocity: velocity)
    }

    // MARK: - Factories

    /// A segment that stays at `x` from `t` on, for ever.
    public static func hold(at x: Double, from t: Timestamp) -> MotionSegment {
        MotionSegment(kind: .hold, start: t, end: nil, position: x, velocity: 0, target: x)
    }

    /// A decay from `x` with velocity `v` starting at `t`, lasting until `end` (for ever if `nil`).
    ///
    /// Its `target` is where it ends: the position at `end`, or the resting position `x − v/k` when open.
    public static func decay(
        from x: Double,
        velocity v: Double,
        at t: Timestamp,
        decay: Decay,
        until end: Timestamp? = nil
    ) -> MotionSegment {
        var segment = MotionSegment(
            kind: .decay,
            start: t,
            end: end,
            position: x,
            velocity: v,
            decayConstant: decay.constant,
            target: decay.restingPosition(from: x, velocity: v)
        )
        if let end { segment.target = segment.position(at: end) }
        return segment
    }

    /// A spring from `x` with velocity `v` towards `target`, starting at `t` and snapping to `target` at `end`
    /// (never, if `nil`).
    public static func spring(
        from x: Double,
        velocity v: Double,
        toward target: Double,
        at t: Timestamp,
        spring: Spring,
        until end: Timestamp? = nil
    ) -> MotionSegment {
        MotionSegment(kind: .spring, start: t, end: end, position: x, velocity: v, target: target, spring: spring)
    }

    /// A spring from `x` with velocity `v` to `target` with `physics.spring`, ending (and snapping to `target`)
    /// once it has settled for good within the physics' distance and velocity tolerances (docs/PHYSICS.md §3.1,
    /// §10.6). The end is rounded up to a whole microsecond; a start that is already settled gives a spring
    /// that ends where it starts, i.e. an immediate snap.
    public static func spring(
        from x: Double,
        velocity v: Double,
        to target: Double,
        at t: Timestamp,
        physics: ScrollPhysics
    ) -> MotionSegment {
        let solution = SpringSolution(spring: physics.spring, displacement: x - target, velocity: v)
        let duration = solution.settlingTime(
            distanceTolerance: physics.distanceTolerance,
            velocityTolerance: physics.velocityTolerance
        )
        let end = t.advanced(byMicroseconds: wholeMicroseconds(roundingUp: duration))
        return .spring(from: x, velocity: v, toward: target, at: t, spring: solution.spring, until: end)
    }

    /// A timed segment from `x` to `target` over `duration` seconds (rounded to a whole microsecond) paced by
    /// `curve`, starting at `t`. It starts from its own velocity, `(target − x)·slope(0)/duration`, whatever
    /// the motion before it was: UIKit's fixed-duration animations start from the current position and drop
    /// the velocity (docs/PHYSICS.md §11.3).
    public static func timed(
        from x: Double,
        to target: Double,
        at t: Timestamp,
        duration: Double,
        curve: TimingCurve
    ) -> MotionSegment {
        let end = t.advanced(byMicroseconds: max(1, Int64((max(duration, 0) * 1_000_000).rounded())))
        var segment = MotionSegment(
            kind: .timed, start: t, end: end, position: x, velocity: 0, target: target, curve: curve)
        segment.velocity = segment.velocity(at: t)
        return segment
    }

    /// A duration in whole microseconds, rounded up so that a motion which has settled by then stays settled.
    /// Physics durations are at most minutes; the cap only keeps the conversion defined.
    static func wholeMicroseconds(roundingUp seconds: Double) -> Int64 {
        let bounded = min(max(seconds.isNaN ? 0 : seconds, 0), 1e9)
        return Int64((bounded * 1_000_000).rounded(.up))
    }
}
