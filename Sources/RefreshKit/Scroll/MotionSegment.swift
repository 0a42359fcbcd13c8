/// One closed-form piece of motion along one axis, valid from `start` until `end`.
///
/// After the finger lifts, all motion is a chain of these (decay, then a spring when an edge is crossed,
/// or a hold), or a timed animation where a preset moves an inset as its seed library does. Frames carry the chain so the page can evaluate it at its own vsync time: network jitter
/// then cannot judder the display (docs/PHYSICS.md §7.2, option 1).
public struct MotionSegment: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
        /// Stays at `position`.
        case hold
        /// UIScrollView's exponential deceleration: `x(t) = x0 + v0·(e^{k·t} − 1)/k`.
        case decay
        /// A damped spring towards `target`.
        case spring
        /// From `position` to `target` in exactly `end − start`, paced by `curve`: a UIView or Core Animation
        /// animation of fixed duration, as the seed libraries move an inset (docs/PHYSICS.md §11).
        case timed
    }

    public var kind: Kind
    /// `t0`: when the segment begins.
    public var start: Timestamp
    /// `t1`: when the next segment begins, or when the motion comes to rest; `nil` for an open hold.
    public var end: Timestamp?
    /// `x0`: position at `start`, CSS px (content offset along the axis).
    public var position: Double
    /// `v0`: velocity at `start`, px/s (content offset per second).
    public var velocity: Double
    /// `k = 1000·ln(rate)`, 1/s, negative (decay only; 0 otherwise).
    public var decayConstant: Double
    /// The spring's rest position (spring), the final position (decay, hold, timed).
    public var target: Double
    /// The spring's parameters (spring only).
    public var spring: Spring?
    /// The timing curve (timed only; ``TimingCurve/linear`` if none is given).
    public var curve: TimingCurve?

    public init(
        kind: Kind,
        start: Timestamp,
        end: Timestamp?,
        position: Double,
        velocity: Double,
        decayConstant: Double = 0,
        target: Double,
        spring: Spring? = nil,
        curve: TimingCurve? = nil
    ) {
        self.kind = kind
        self.start = start
        self.end = end
        self.position = position
        self.velocity = velocity
        self.decayConstant = decayConstant
        self.target = target
        self.spring = spring
        self.curve = curve
    }
}
