import Foundation

/// The closed-form motion of a ``Spring`` released with displacement `y0` and velocity `v0`.
///
/// These are the three solutions of `m·y'' + c·y' + k·y = 0` in docs/PHYSICS.md §2.4 (Flutter
/// `packages/flutter/lib/src/physics/spring_simulation.dart`; the same maths as ScrollMechanics
/// `SpringTimingParameters.swift` and Motion `SpringFunction.swift`), with the under-damped decay rate
/// written correctly as `r = −c/(2m)` (Flutter's source has `−c/2·m`, right only for m = 1).
///
/// Evaluating at any time is exact up to rounding: no integration, so the result does not depend on the
/// frame rate (docs/PHYSICS.md §10.1). Times are in seconds from the release.
public struct SpringSolution: Hashable, Sendable {
    /// The three regimes of a damped spring.
    public enum Damping: String, Hashable, Sendable {
        /// ζ = 1: `y = (c1 + c2·t)·e^{r·t}`.
        case critical
        /// ζ > 1: `y = c1·e^{r1·t} + c2·e^{r2·t}`.
        case overdamped
        /// ζ < 1: `y = e^{r·t}·(c1·cos(w·t) + c2·sin(w·t))`.
        case underdamped
    }

    /// The spring actually solved (see ``init(spring:displacement:velocity:)`` for the guards).
    public let spring: Spring
    /// The displacement from the rest position at `t = 0`.
    public let initialDisplacement: Double
    /// The velocity at `t = 0`.
    public let initialVelocity: Double
    /// Which closed form applies.
    public let damping: Damping

    // Critical and under-damped: the decay rate r; over-damped: the two roots r1 < r2 < 0.
    private let r1: Double
    private let r2: Double
    // Under-damped: the damped angular frequency w.
    private let w: Double
    private let c1: Double
    private let c2: Double

    /// Discriminants `c² − 4mk` within this fraction of `c²` count as critical damping. Rounding makes an
    /// exact zero rare (ζ = 1 with m = 0.5 gives ±3·10⁻¹⁴), and the over-damped coefficients cancel
    /// catastrophically near it; the critical form differs from the exact one by O(10⁻¹⁰) relative there.
    static let criticalBand = 1e-10

    /// Solves `spring` for an initial displacement `y0` (position − rest position) and velocity `v0`.
    ///
    /// A spring whose mass or stiffness is not finite and positive, or whose damping is not finite and
    /// non-negative, cannot be solved meaningfully; ``Spring/ios`` is used instead. Non-finite initial
    /// values count as 0.
    public init(spring: Spring, displacement y0: Double, velocity v0: Double) {
        let usable = Self.isUsable(spring) ? spring : Spring.ios
        let y0 = y0.isFinite ? y0 : 0
        let v0 = v0.isFinite ? v0 : 0
        self.spring = usable
        initialDisplacement = y0
        initialVelocity = v0

        let m = usable.mass
        let k = usable.stiffness
        let c = usable.damping
        let discriminant = c * c - 4 * m * k
        if discriminant.magnitude <= Self.criticalBand * c * c {
            let r = -c / (2 * m)
            damping = .critical
            r1 = r
            r2 = r
            w = 0
            c1 = y0
            c2 = v0 - r * y0
        } else if discriminant > 0 {
            let root = discriminant.squareRoot()
            let fast = (-c - root) / (2 * m)
            let slow = (-c + root) / (2 * m)
            damping = .overdamped
            r1 = fast
            r2 = slow
            w = 0
            let second = (v0 - fast * y0) / (slow - fast)
            c1 = y0 - second
            c2 = second
        } else {
            let r = -c / (2 * m)
            let omega = (-discriminant).squareRoot() / (2 * m)
            damping = .underdamped
            r1 = r
            r2 = r
            w = omega
            c1 = y0
            c2 = (v0 - r * y0) / omega
        }
    }

    /// The displacement from the rest position at time `t` (seconds). Negative or NaN times count as 0.
    public func displacement(at t: Double) -> Double {
        let t = Self.elapsed(t)
        switch damping {
        case .critical:
            return (c1 + c2 * t) * exp(r1 * t)
        case .overdamped:
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        case .underdamped:
            return exp(r1 * t) * (c1 * cos(w * t) + c2 * sin(w * t))
        }
    }

    /// The velocity at time `t` (seconds), the derivative of ``displacement(at:)``.
    public func velocity(at t: Double) -> Double {
        let t = Self.elapsed(t)
        switch damping {
        case .critical:
            return (c2 + r1 * (c1 + c2 * t)) * exp(r1 * t)
        case .overdamped:
            return c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t)
        case .underdamped:
            let angle = w * t
            return exp(r1 * t) * ((r1 * c1 + w * c2) * cos(angle) + (r1 * c2 - w * c1) * sin(angle))
        }
    }

    /// Whether, at time `t`, the spring is within both tolerances (strictly).
    public func isSettled(at t: Double, distanceTolerance: Double, velocityTolerance: Double) -> Bool {
        displacement(at: t).magnitude < distanceTolerance && velocity(at: t).magnitude < velocityTolerance
    }

    /// The longest settling time reported; a spring that needs longer (only a degenerate, barely damped
    /// one) is cut off there.
    public static let maximumSettlingTime: Double = 600

    /// The first time after which `|y| < distanceTolerance` and `|v| < velocityTolerance` hold forever.
    ///
    /// Found in three bounded, deterministic steps:
    /// 1. a decreasing envelope of |y| and |v| (for example `√(c1² + c2²)·e^{r·t}` when under-damped) gives
    ///    a time after which both conditions hold for certain;
    /// 2. a scan of `[0, bound]` on a grid (256 to 4096 points, at least 8 per half-oscillation when
    ///    possible) finds the last grid point where they fail;
    /// 3. bisection between that point and the next narrows the boundary to 10 ns and returns its settled end.
    ///
    /// Non-positive or NaN tolerances are treated as the smallest positive normal number.
    public func settlingTime(distanceTolerance: Double, velocityTolerance: Double) -> Double {
        let distanceTolerance = Self.positive(distanceTolerance)
        let velocityTolerance = Self.positive(velocityTolerance)
        func settled(_ t: Double) -> Bool {
            isSettled(at: t, distanceTolerance: distanceTolerance, velocityTolerance: velocityTolerance)
        }

        let bound = min(
            max(
                envelopeBound(for: displacementEnvelope, tolerance: distanceTolerance),
                envelopeBound(for: velocityEnvelope, tolerance: velocityTolerance)
            ),
            Self.maximumSettlingTime
        )
        if bound == 0 { return 0 }

        var steps = 256.0
        if damping == .underdamped {
            steps = max(steps, (bound / (Double.pi / w) * 8).rounded(.up))
        }
        steps = min(steps, 4096)
        let step = bound / steps

        var lastUnsettled = -1
        for index in 0...Int(steps) where !settled(Double(index) * step) {
            lastUnsettled = index
        }
        if lastUnsettled < 0 { return 0 }
        if lastUnsettled == Int(steps) { return bound }  // cut off at the maximum, or a tie at the bound

        var low = Double(lastUnsettled) * step
        var high = low + step
        for _ in 0..<64 where high - low > 1e-8 {
            let middle = (low + high) / 2
            if settled(middle) { high = middle } else { low = middle }
        }
        return high
    }

    // MARK: - Envelopes

    /// An upper bound `(a + b·t)·e^{σ·t}` of a magnitude, with `a, b ≥ 0` and `σ ≤ 0`.
    private struct Envelope {
        var a: Double
        var b: Double
        var sigma: Double

        func value(at t: Double) -> Double { (a + b * t) * exp(sigma * t) }
    }

    private var displacementEnvelope: Envelope {
        switch damping {
        case .critical:
            Envelope(a: c1.magnitude, b: c2.magnitude, sigma: r1)
        case .overdamped:
            // e^{r1·t} ≤ e^{r2·t} because r1 < r2.
            Envelope(a: c1.magnitude + c2.magnitude, b: 0, sigma: r2)
        case .underdamped:
            Envelope(a: (c1 * c1 + c2 * c2).squareRoot(), b: 0, sigma: r1)
        }
    }

    private var velocityEnvelope: Envelope {
        switch damping {
        case .critical:
            Envelope(a: (c2 + r1 * c1).magnitude, b: (r1 * c2).magnitude, sigma: r1)
        case .overdamped:
            Envelope(a: (c1 * r1).magnitude + (c2 * r2).magnitude, b: 0, sigma: r2)
        case .underdamped:
            Envelope(
                a: ((r1 * c1 + w * c2) * (r1 * c1 + w * c2) + (r1 * c2 - w * c1) * (r1 * c2 - w * c1)).squareRoot(),
                b: 0,
                sigma: r1
            )
        }
    }

    /// A time after which `envelope` stays below `tolerance` for ever (capped at the maximum).
    private func envelopeBound(for envelope: Envelope, tolerance: Double) -> Double {
        guard envelope.sigma < 0 else { return Self.maximumSettlingTime }
        if envelope.b == 0 {
            guard envelope.a >= tolerance else { return 0 }
            return min(log(envelope.a / tolerance) / -envelope.sigma, Self.maximumSettlingTime)
        }
        // (a + b·t)·e^{σt} rises until t = −1/σ − a/b, then falls: search beyond that peak by doubling.
        var t = max(0, -1 / envelope.sigma - envelope.a / envelope.b)
        var span = -1 / envelope.sigma
        for _ in 0..<64 {
            if envelope.value(at: t) < tolerance || t >= Self.maximumSettlingTime { break }
            t += span
            span *= 2
        }
        return min(t, Self.maximumSettlingTime)
    }

    // MARK: - Guards

    private static func isUsable(_ spring: Spring) -> Bool {
        spring.mass.isFinite && spring.mass > 0 && spring.stiffness.isFinite && spring.stiffness > 0
            && spring.damping.isFinite && spring.damping >= 0
    }

    private static func elapsed(_ t: Double) -> Double {
        t.isNaN ? 0 : max(t, 0)
    }

    private static func positive(_ tolerance: Double) -> Double {
        tolerance.isNaN ? Double.leastNormalMagnitude : max(tolerance, Double.leastNormalMagnitude)
    }
}
