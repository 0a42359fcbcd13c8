import Foundation

/// UIScrollView's momentum after the finger lifts: velocity decays exponentially.
///
/// UIKit specifies the deceleration as a rate per millisecond (`UIScrollView.DecelerationRate`, 0.998 normal
/// and 0.99 fast). This type uses the continuous form of that curve throughout (docs/PHYSICS.md §2.1, as b3ll/Motion
/// `DecayFunction.swift`, super-ultra/ScrollMechanics `DecelerationTimingParameters.swift` and Flutter
/// `FrictionSimulation` do): with `k = 1000·ln(rate)` (1/s, negative),
///
/// `v(t) = v0·e^{k·t}` and `x(t) = x0 + v0·(e^{k·t} − 1)/k`.
///
/// Times are in seconds, positions in px and velocities in px/s.
public struct Decay: Hashable, Sendable, Codable {
    /// The fraction of velocity kept per millisecond (UIKit's `decelerationRate`).
    ///
    /// Rates outside ``minimumRate``…``maximumRate`` (or NaN) are clamped into that range when used, so the
    /// motion always comes to rest within a finite distance.
    public var rate: Double

    /// A decay that keeps `rate` of its velocity per millisecond.
    public init(rate: Double) {
        self.rate = rate
    }

    /// `UIScrollView.DecelerationRate.normal` = 0.998 per ms (docs/PHYSICS.md §0: quoted by Flutter
    /// `scroll_simulation.dart`, Motion `DecayFunction.swift` and pub.dev `IOSUIScrollViewDecelerationRate`).
    public static let normal = Decay(rate: 0.998)

    /// `UIScrollView.DecelerationRate.fast` = 0.99 per ms (same sources as ``normal``).
    public static let fast = Decay(rate: 0.99)

    /// The smallest rate used: below it the motion stops within a couple of milliseconds anyway.
    public static let minimumRate = 0.5

    /// The largest rate used: 0.9999 per ms still stops, after travelling about 10 s worth of the
    /// initial velocity; a rate of 1 would never stop.
    public static let maximumRate = 0.9999

    /// `k = 1000·ln(rate)`, in 1/s; negative (docs/PHYSICS.md §2.1: −2.0020 for 0.998, −10.0503 for 0.99).
    public var constant: Double {
        let usable = rate.isNaN ? Self.normal.rate : min(max(rate, Self.minimumRate), Self.maximumRate)
        return 1000 * log(usable)
    }

    /// The fraction of velocity kept per second, `e^k` (`rate^1000`): Flutter's `drag` for the same curve
    /// (0.135 in `scroll_simulation.dart`; 0.998¹⁰⁰⁰ = 0.135065, docs/PHYSICS.md §9 row 9).
    public var dragPerSecond: Double { exp(constant) }

    /// The position `t` seconds after starting at `x0` with velocity `v0`: `x0 + v0·(e^{k·t} − 1)/k`.
    ///
    /// Negative or NaN times count as 0; `t = ∞` gives the resting position.
    public func position(from x0: Double, velocity v0: Double, after t: Double) -> Double {
        Self.position(from: x0, velocity: v0, after: t, constant: constant)
    }

    /// The velocity `t` seconds after starting with velocity `v0`: `v0·e^{k·t}`.
    public func velocity(_ v0: Double, after t: Double) -> Double {
        Self.velocity(v0, after: t, constant: constant)
    }

    /// Where the motion comes to rest: `x∞ = x0 − v0/k` (docs/PHYSICS.md §2.1; 0.4995·v0 for 0.998).
    public func restingPosition(from x0: Double, velocity v0: Double) -> Double {
        x0 - v0 / constant
    }

    /// The time needed to travel `distance` (signed, from the start) with initial velocity `v0`:
    /// `ln(1 + k·Δ/v0)/k` (docs/PHYSICS.md §2.1; ScrollMechanics `duration(to:)`, Flutter `timeAtX`).
    ///
    /// - Returns: `nil` when the motion never gets that far: the distance lies behind the motion, at or
    ///   beyond the resting position, or the velocity is 0 (and the distance is not).
    public func timeToTravel(_ distance: Double, velocity v0: Double) -> Double? {
        guard distance.isFinite, v0.isFinite else { return nil }
        if distance == 0 { return 0 }
        guard v0 != 0, (distance > 0) == (v0 > 0) else { return nil }
        let k = constant
        let fraction = k * distance / v0  // in (−1, 0) when reachable
        guard fraction > -1 else { return nil }
        // log1p keeps precision for short distances, where 1 + fraction rounds.
        return log1p(fraction) / k
    }

    /// The time until the speed falls below `threshold`: `ln(threshold/|v0|)/k`, or 0 if it already is
    /// (docs/PHYSICS.md §2.1). The ballistic planner ends a decay there, with the velocity tolerance of
    /// docs/PHYSICS.md §3.1 as threshold.
    ///
    /// A threshold that is not positive is treated as the smallest positive normal number, so the result
    /// stays finite.
    public func timeToStop(velocity v0: Double, threshold: Double) -> Double {
        let speed = v0.magnitude
        let floor = threshold.isNaN ? Double.leastNormalMagnitude : max(threshold, Double.leastNormalMagnitude)
        guard speed.isFinite, speed >= floor else { return 0 }
        return log(floor / speed) / constant
    }

    /// The time until the remaining distance to the resting position falls below `remaining`:
    /// `ln(−k·ε/|v0|)/k` (ScrollMechanics `DecelerationTimingParameters.duration`, docs/PHYSICS.md §2.1),
    /// or 0 if it already is.
    public func timeUntilRemaining(_ remaining: Double, velocity v0: Double) -> Double {
        let speed = v0.magnitude
        let k = constant
        let epsilon = remaining.isNaN ? Double.leastNormalMagnitude : max(remaining, Double.leastNormalMagnitude)
        // The remaining distance at t = 0 is |v0/k|.
        guard speed.isFinite, speed > -k * epsilon else { return 0 }
        return log(-k * epsilon / speed) / k
    }

    // MARK: - Kernels shared with MotionSegment

    /// `x0 + v0·(e^{k·t} − 1)/k`, computed with `expm1` so that short times lose no precision.
    /// A constant that is not negative (no deceleration) gives uniform motion.
    static func position(from x0: Double, velocity v0: Double, after t: Double, constant k: Double) -> Double {
        let elapsed = t.isNaN ? 0 : max(t, 0)
        guard k < 0 else { return x0 + v0 * elapsed }
        if elapsed == .infinity { return x0 - v0 / k }
        return x0 + v0 * expm1(k * elapsed) / k
    }

    /// `v0·e^{k·t}` (constant velocity when `k` is not negative).
    static func velocity(_ v0: Double, after t: Double, constant k: Double) -> Double {
        let elapsed = t.isNaN ? 0 : max(t, 0)
        guard k < 0 else { return v0 }
        return v0 * exp(k * elapsed)
    }
}
