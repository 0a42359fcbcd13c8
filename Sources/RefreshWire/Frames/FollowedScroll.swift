import RefreshKit

/// The scroll along one axis between a delta's two frames, compared as the delta writes it: whether `offset`
/// and `velocity` along the axis are written differently (``FrameChanges``), the scaled values the delta then
/// writes, and what the follow rule (``EdgeChanges/follows(from:to:scroll:)``) needs, in written units
/// (1/1000 px, px/s).
///
/// The frame-level comparison and the rule scale the same numbers: worked out once per delta and axis, they
/// are scaled once, not again by the rule (docs/PERFORMANCE.md, "The delta encoder").
struct FollowedScroll {
    /// Whether the offset along the axis is written differently.
    let offsetChanged: Bool
    /// Whether the velocity along the axis is written differently.
    let velocityChanged: Bool
    /// Whether the frame's velocity along the axis is followable (``WrittenNumber/followable(_:_:)``).
    let velocityFollows: Bool
    /// The offset's scaled value (``WrittenNumber/scaled(_:_:)``) when it changed, what the delta writes;
    /// ``WrittenNumber/notScaled`` when it is written another way (or did not change).
    let offset: Int64
    /// The velocity's scaled value when it changed, as ``offset``.
    let velocity: Int64
    /// `offset − baseOffset` along the axis when both are followable, else ``WrittenNumber/notScaled``.
    let offsetChange: Int64
    /// The frame's velocity along the axis as it is: an edge's is usually the same number, or its negation
    /// (``EdgeChanges/follows(from:to:scroll:)``).
    let velocityValue: Double
    /// The offsets along the axis as they are: a leading edge's distance is often one negated.
    let offsetValue: Double
    let baseOffsetValue: Double

    // Plain integers, not optionals: a scroll is made and read in every delta, and optionals' flags made
    // it twice the size: its init was then not inlined, and it was copied (docs/PERFORMANCE.md, "The delta
    // encoder").
    @inline(__always)
    init(baseOffset: Double, offset: Double, baseVelocity: Double, velocity: Double) {
        typealias W = WrittenNumber
        if baseOffset == offset {  // written alike; it moved by nothing, when followable
            (offsetChanged, self.offset) = (false, W.notScaled)
            offsetChange = Self.isFollowable(offset, .length) ? 0 : W.notScaled
        } else {
            let (from, to) = (W.scaledOrNot(baseOffset, .length), W.scaledOrNot(offset, .length))
            (offsetChanged, self.offset) = (from != to || to == W.notScaled, to)
            // (`notScaled` is beyond the limit.)
            let limit = W.followLimit
            offsetChange = from.magnitude <= limit && to.magnitude <= limit ? to - from : W.notScaled
        }
        if baseVelocity == velocity {
            (velocityChanged, self.velocity) = (false, W.notScaled)
        } else {
            let (from, to) = (W.scaledOrNot(baseVelocity, .velocity), W.scaledOrNot(velocity, .velocity))
            (velocityChanged, self.velocity) = (from != to || to == W.notScaled, to)
        }
        velocityValue = velocity
        (offsetValue, baseOffsetValue) = (offset, baseOffset)
        velocityFollows = Self.isFollowable(velocity, .velocity)
    }

    /// Whether `value` is followable at `precision` (``WrittenNumber/followable(_:_:)``): when its scaled
    /// magnitude `|value · 10^decimals|` is below the limit it is, without rounding it (rounded, an integer
    /// below the limit stays within it); otherwise as scaled.
    @inline(__always)
    static func isFollowable(_ value: Double, _ precision: WirePrecision) -> Bool {
        typealias W = WrittenNumber
        return abs(value) * W.powerOfTen(precision.decimals) < Double(W.followLimit)
            || W.followable(value, precision) != nil
    }
}

/// Both axes' scroll (``FollowedScroll``) between a delta's two frames.
struct FrameScroll {
    let horizontal: FollowedScroll
    let vertical: FollowedScroll

    @inline(__always)
    init(from base: borrowing Frame, to frame: borrowing Frame) {
        horizontal = FollowedScroll(
            baseOffset: base.offset.x, offset: frame.offset.x, baseVelocity: base.velocity.x,
            velocity: frame.velocity.x)
        vertical = FollowedScroll(
            baseOffset: base.offset.y, offset: frame.offset.y, baseVelocity: base.velocity.y,
            velocity: frame.velocity.y)
    }

    /// The scroll along `edge`'s axis.
    @inline(__always)
    func along(_ edge: Edge) -> FollowedScroll {
        edge == .top || edge == .bottom ? vertical : horizontal
    }
}
