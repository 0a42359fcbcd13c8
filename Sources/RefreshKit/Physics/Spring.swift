import Foundation

/// A damped spring: mass, stiffness and damping coefficient (Flutter's `SpringDescription`).
///
/// The equation of motion is `m·y'' + c·y' + k·y = 0` for the displacement `y` from the rest position;
/// ``SpringSolution`` solves it in closed form (docs/PHYSICS.md §2.4).
public struct Spring: Hashable, Sendable, Codable {
    /// The mass `m` (dimensionless in scrolling terms; only the ratios matter).
    public var mass: Double
    /// The stiffness `k`.
    public var stiffness: Double
    /// The damping coefficient `c` (not the ratio).
    public var damping: Double

    /// A spring given by its coefficients.
    public init(mass: Double, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// A spring given by its damping ratio ζ: `c = ζ·2·√(m·k)`.
    public init(mass: Double, stiffness: Double, dampingRatio: Double) {
        self.init(mass: mass, stiffness: stiffness, damping: dampingRatio * 2 * (mass * stiffness).squareRoot())
    }

    /// A spring given Apple's way, by its response (the undamped period `2π/ω₀`, seconds) and damping
    /// ratio: `k = (2π/response)²·m`, `c = 4π·ζ·m/response` (WWDC18 model 803; Motion
    /// `configure(response:dampingRatio:)`; docs/PHYSICS.md §2.4). Response 0.5 s and ζ = 1 give
    /// k = 157.91, c = 25.13 (docs/PHYSICS.md §9 row 37).
    public init(mass: Double = 1, response: Double, dampingRatio: Double) {
        let omega = 2 * Double.pi / response
        self.init(mass: mass, stiffness: omega * omega * mass, damping: 2 * omega * dampingRatio * mass)
    }

    /// The spring that facebook/pop builds for `springBounciness` and `springSpeed` (mass 1).
    ///
    /// pop maps both onto Quartz Composer's tension and friction, then onto its own
    /// (`pop/POPAnimationExtras.mm`, `pop/POPMath.mm`, the QC↔POP macros of `POPAnimationPrivate.h`;
    /// docs/PHYSICS.md §2.3). Bounciness 0 and speed 5, as in the pop version of `ole/CustomScrollView`, give
    /// tension 193.414, friction 26.706, ζ = 0.960 (docs/PHYSICS.md §9 row 37).
    public init(popBounciness bounciness: Double, speed: Double) {
        func normalized(_ value: Double, _ start: Double, _ end: Double) -> Double {
            (value - start) / (end - start)
        }
        func interpolated(_ fraction: Double, _ start: Double, _ end: Double) -> Double {
            start + fraction * (end - start)
        }
        // pop's "no bounce" friction for a QC tension: three cubic fits joined at tensions 18 and 44.
        func frictionWithoutBounce(tension t: Double) -> Double {
            if t <= 18 { return 0.0007 * t * t * t - 0.031 * t * t + 0.64 * t + 1.28 }
            if t <= 44 { return 0.000044 * t * t * t - 0.006 * t * t + 0.36 * t + 2.0 }
            return 0.000_000_45 * t * t * t - 0.000332 * t * t + 0.1078 * t + 5.84
        }
        let bounce = interpolated(normalized(bounciness / 1.7, 0, 20), 0, 0.8)
        let qcTension = interpolated(normalized(speed / 1.7, 0, 20), 0.5, 200)
        // Quadratic ease-out from the no-bounce friction towards 0.01 as the bounce grows.
        let easing = 2 * bounce - bounce * bounce
        let qcFriction = easing * 0.01 + (1 - easing) * frictionWithoutBounce(tension: qcTension)
        // QC → POP units.
        let tension = 194 + (qcTension - 30) / 50 * (375 - 194)
        let friction = 25 + (qcFriction - 8) / 2 * (25 - 19)
        self.init(mass: 1, stiffness: tension, damping: friction)
    }

    /// The damping ratio `ζ = c / (2·√(m·k))`: 1 is critical, above 1 overdamped, below 1 it oscillates.
    public var dampingRatio: Double {
        damping / (2 * (mass * stiffness).squareRoot())
    }

    /// The undamped angular frequency `ω₀ = √(k/m)`, rad/s.
    public var naturalFrequency: Double {
        (stiffness / mass).squareRoot()
    }

    /// The response `2π/ω₀` in seconds: Apple's parameter (docs/PHYSICS.md §2.4 table).
    public var response: Double {
        2 * Double.pi / naturalFrequency
    }

    // MARK: - Presets (docs/PHYSICS.md §0, §2.3, §2.4, §3.1)

    /// Flutter's default bounce spring, `_kDefaultSpring` in `scroll_physics.dart`: m 0.5, k 100, ζ 1.1
    /// (c = 15.556; overdamped). The recommended default (docs/PHYSICS.md §10.6).
    public static let ios = Spring(mass: 0.5, stiffness: 100, dampingRatio: 1.1)

    /// pop `springBounciness 0, springSpeed 5` (ole/CustomScrollView's pop version), as hard-coded by Motion's
    /// `CustomCustomScrollView.swift`: m 1, k 193.41, c 26.71 (ζ 0.960, slightly underdamped).
    public static let pop = Spring(mass: 1, stiffness: 193.41, damping: 26.71)

    /// super-ultra/ScrollMechanics `SimpleScrollView.swift`: m 1, k 100, ζ 1 (critically damped).
    public static let critical = Spring(mass: 1, stiffness: 100, dampingRatio: 1)

    /// Flutter's spring for `ScrollDecelerationRate.fast`: m 0.3, k 75, ζ 1.3.
    public static let fast = Spring(mass: 0.3, stiffness: 75, dampingRatio: 1.3)

    /// The names accepted by ``named(_:)``, in a fixed order.
    public static let presetNames = ["ios", "pop", "critical", "fast"]

    /// The preset called `name` (`"ios"`, `"pop"`, `"critical"` or `"fast"`), or `nil`.
    public static func named(_ name: String) -> Spring? {
        switch name {
        case "ios": .ios
        case "pop": .pop
        case "critical": .critical
        case "fast": .fast
        default: nil
        }
    }
}
