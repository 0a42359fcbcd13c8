/// Everything that shapes scrolling along an axis: the rubber band while dragging, the decay after a fling,
/// the spring that bounces back at an edge, and the tolerances at which motion counts as stopped.
///
/// ``ios`` is the recommended profile of docs/PHYSICS.md §0 and §10.
public struct ScrollPhysics: Hashable, Sendable, Codable {
    /// The resistance past an edge while dragging (docs/PHYSICS.md §1.1).
    public var rubberBand: RubberBand
    /// The momentum after a fling (docs/PHYSICS.md §2.1).
    public var decay: Decay
    /// The bounce back to an edge, or to a refresh control's hold position (docs/PHYSICS.md §2.3, §8.3).
    public var spring: Spring
    /// The largest speed carried from a decay into the edge spring, px/s (Flutter
    /// `BouncingScrollSimulation.maxSpringTransferVelocity`, docs/PHYSICS.md §3.1). Applied to both directions,
    /// unlike Flutter, which caps only positive velocities (docs/PHYSICS.md §3.6).
    public var maxSpringTransferVelocity: Double
    /// Device pixels per CSS px; the stop tolerances scale with it so motion ends within one device pixel.
    public var devicePixelRatio: Double

    /// A physics profile; the defaults are ``ios``.
    public init(
        rubberBand: RubberBand = RubberBand(),
        decay: Decay = .normal,
        spring: Spring = .ios,
        maxSpringTransferVelocity: Double = 5000,
        devicePixelRatio: Double = 1
    ) {
        self.rubberBand = rubberBand
        self.decay = decay
        self.spring = spring
        self.maxSpringTransferVelocity = maxSpringTransferVelocity
        self.devicePixelRatio = devicePixelRatio
    }

    /// UIKit's feel: rubber band 0.55, deceleration 0.998 per ms, Flutter's default bounce spring
    /// (m 0.5, k 100, ζ 1.1), transfer cap 5000 px/s, at device pixel ratio 1 (docs/PHYSICS.md §0).
    public static let ios = ScrollPhysics()

    /// The pixel ratio actually used: values that are not finite and positive count as 1.
    public var effectiveDevicePixelRatio: Double {
        devicePixelRatio.isFinite && devicePixelRatio > 0 ? devicePixelRatio : 1
    }

    /// Speeds below this count as stopped: `1/(0.05·dpr)` px/s, i.e. less than one device pixel per 50 ms
    /// (Flutter `ScrollPhysics.toleranceFor`, docs/PHYSICS.md §3.1; 20 px/s at dpr 1, 6.67 at dpr 3).
    public var velocityTolerance: Double {
        1 / (0.05 * effectiveDevicePixelRatio)
    }

    /// Distances below this count as arrived: `1/dpr` px, one device pixel (docs/PHYSICS.md §3.1).
    public var distanceTolerance: Double {
        1 / effectiveDevicePixelRatio
    }
}

extension ScrollPhysics {
    /// The physics a list's configuration names, on a screen of `devicePixelRatio`.
    init(_ configuration: ListConfiguration, devicePixelRatio: Double) {
        self.init(
            rubberBand: RubberBand(coefficient: configuration.rubberBand),
            decay: Decay(rate: configuration.decelerationRate), spring: Spring.named(configuration.springName) ?? .ios,
            devicePixelRatio: devicePixelRatio)
    }
}
