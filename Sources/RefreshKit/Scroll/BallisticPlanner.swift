/// Plans the motion after the finger lifts along one axis as a chain of closed-form segments.
///
/// This is Flutter's `BouncingScrollSimulation` (`packages/flutter/lib/src/widgets/scroll_simulation.dart`,
/// docs/PHYSICS.md §2.3) with the changes recommended in docs/PHYSICS.md §10.6: UIKit's continuous decay instead of
/// Flutter's friction simulation, the transfer velocity capped in both directions, and the switch times
/// computed in closed form and placed on whole microseconds. The chain is what a frame carries, so the page
/// can evaluate it at its own vsync times (docs/PHYSICS.md §7.2).
public enum BallisticPlanner {
    /// The motion from position `x` with velocity `v` at time `t`, for the rest range `[lower, upper]`.
    ///
    /// - Released outside the range: one spring from `x` with velocity `v` to the nearest bound.
    /// - Inside and slower than ``ScrollPhysics/velocityTolerance``: a single open hold.
    /// - Otherwise a decay. If it would come to rest beyond a bound, it ends when it crosses that bound
    ///   (`t* = ln(1 + k·Δ/v)/k`, rounded to a whole microsecond), and a spring continues from there with the
    ///   decay's velocity, capped at ``ScrollPhysics/maxSpringTransferVelocity``, back to the bound. If not,
    ///   it ends when less than half a device pixel of its travel remains, followed by an open hold.
    ///
    /// Every segment's `end` is the next one's `start`, and position and velocity are continuous at each
    /// switch (except for the deliberate cap on the transfer velocity). The last segment is either an open
    /// hold or a spring that snaps exactly to its bound at its end, which is when it has settled within
    /// ``ScrollPhysics/distanceTolerance`` and the velocity tolerance for good.
    ///
    /// Bounds may be infinite (no edge on that side); `upper < lower` means `upper = lower`, and a NaN bound
    /// means no edge. A NaN position is taken as the nearest finite bound (or 0), a non-finite velocity as 0.
    public static func plan(
        position x: Double,
        velocity v: Double,
        lower: Double,
        upper: Double,
        at t: Timestamp,
        physics: ScrollPhysics
    ) -> [MotionSegment] {
        let low = lower.isNaN || lower == .infinity ? -Double.infinity : lower
        let high = max(low, upper.isNaN || upper == -.infinity ? Double.infinity : upper)
        let x = sanitizedPosition(x, low, high)
        let v = v.isFinite ? v : 0

        if x < low { return settle(from: x, velocity: v, toward: low, at: t, physics: physics) }
        if x > high { return settle(from: x, velocity: v, toward: high, at: t, physics: physics) }
        if v.magnitude < physics.velocityTolerance { return [.hold(at: x, from: t)] }

        let decay = physics.decay
        let resting = decay.restingPosition(from: x, velocity: v)
        let edge: Double? =
            if v > 0, high.isFinite, resting > high {
                high
            } else if v < 0, low.isFinite, resting < low {
                low
            } else {
                nil
            }

        guard let edge else {
            // Coast until less than half a device pixel remains (docs/PHYSICS.md §10.6), not until the speed
            // falls below the tolerance: that would stop 10 px (at dpr 1) short of the projected rest, and
            // a flick would land visibly short of where iOS puts it.
            let stopping = decay.timeUntilRemaining(0.5 * physics.distanceTolerance, velocity: v)
            let stop = t.advanced(byMicroseconds: MotionSegment.wholeMicroseconds(roundingUp: stopping))
            if stop == t { return [.hold(at: x, from: t)] }
            let coasting = MotionSegment.decay(from: x, velocity: v, at: t, decay: decay, until: stop)
            return [coasting, .hold(at: coasting.target, from: stop)]
        }

        // The resting position lies beyond the edge, so the edge is reached in finite time.
        let crossing = decay.timeToTravel(edge - x, velocity: v) ?? 0
        let elapsed = Int64((crossing * 1_000_000).rounded())
        var chain: [MotionSegment] = []
        var switchTime = t
        var switchPosition = x
        var switchVelocity = v
        if elapsed > 0 {
            switchTime = t.advanced(byMicroseconds: elapsed)
            let coasting = MotionSegment.decay(from: x, velocity: v, at: t, decay: decay, until: switchTime)
            // Continue from the decay's state at the rounded time, computed exactly as a sampler would.
            switchPosition = coasting.position(at: switchTime)
            switchVelocity = coasting.velocity(at: switchTime)
            chain.append(coasting)
        }
        let limit = physics.maxSpringTransferVelocity
        let cap = limit.isNaN ? Double.infinity : max(limit, 0)
        let transferred = min(max(switchVelocity, -cap), cap)
        chain += settle(from: switchPosition, velocity: transferred, toward: edge, at: switchTime, physics: physics)
        return chain
    }

    /// The position and velocity of `chain` at `t`: the last segment that has started by `t` is evaluated
    /// (the first one before the chain begins, clamped to its start). An empty chain gives `(0, 0)`.
    public static func evaluate(_ chain: [MotionSegment], at t: Timestamp) -> (position: Double, velocity: Double) {
        guard let first = chain.first else { return (0, 0) }
        let segment = chain.last { $0.start <= t } ?? first
        return (segment.position(at: t), segment.velocity(at: t))
    }

    /// When the chain comes to rest: the end of its last segment that has one, or `nil` if none has (a lone
    /// hold: nothing moves).
    public static func settleTime(of chain: [MotionSegment]) -> Timestamp? {
        chain.last { $0.end != nil }?.end
    }

    // MARK: - Helpers

    /// A spring to `target` that ends once settled; an already settled start becomes a hold at `target`.
    private static func settle(
        from x: Double,
        velocity v: Double,
        toward target: Double,
        at t: Timestamp,
        physics: ScrollPhysics
    ) -> [MotionSegment] {
        let spring = MotionSegment.spring(from: x, velocity: v, to: target, at: t, physics: physics)
        if spring.end == t { return [.hold(at: target, from: t)] }
        return [spring]
    }

    private static func sanitizedPosition(_ x: Double, _ low: Double, _ high: Double) -> Double {
        if x.isNaN { return low.isFinite ? low : (high.isFinite ? high : 0) }
        return min(max(x, -Double.greatestFiniteMagnitude), Double.greatestFiniteMagnitude)
    }
}
