import RefreshKit

/// The scroll along one axis as the follow rule sees it (``EdgeChanges/follows(from:to:scroll:)``): the
/// change of the offset and the velocity, in written units (1/1000 px, px/s), each `nil` when the rule may
/// not use it. Every edge on the axis follows the same scroll, so a delta works it out once per axis, not
/// once per edge.
struct FollowedScroll {
    let axis: Axis
    /// `offset − baseOffset` along ``axis``, when both are followable.
    let offsetChange: Int64?
    /// The frame's velocity along ``axis``, when followable.
    let velocity: Int64?
    /// The frame's velocity along ``axis`` as it is: an edge's is usually the same number, or its negation
    /// (``EdgeChanges/follows(from:to:scroll:)``).
    let velocityValue: Double

    init(axis: Axis, baseOffset: Point, offset: Point, velocity: Point) {
        typealias W = WrittenNumber
        self.axis = axis
        if let from = W.followable(axis == .horizontal ? baseOffset.x : baseOffset.y),
            let to = W.followable(axis == .horizontal ? offset.x : offset.y)
        {
            offsetChange = to - from
        } else {
            offsetChange = nil
        }
        velocityValue = axis == .horizontal ? velocity.x : velocity.y
        self.velocity = W.followable(velocityValue, .velocity)
    }
}
