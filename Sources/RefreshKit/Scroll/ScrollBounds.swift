/// The range the content offset rests in along one axis, UIScrollView style.
///
/// `lower = −inset.leading` (the content's top at the viewport's top, below the leading inset) and
/// `upper = content + inset.trailing − viewport`, never below `lower`: content shorter than the viewport
/// rests at the leading edge and can still be pulled from both ends (the MSPullToRefreshController
/// failure with short content is exactly this case, docs/SEEDS.md §2.2).
public struct ScrollBounds: Hashable, Sendable, Codable {
    public var lower: Double
    public var upper: Double

    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = max(lower, upper)
    }

    /// The bounds along `axis` for a viewport, a content size and an inset.
    public init(axis: Axis, viewport: Size, content: Size, insets: EdgeInsets) {
        let leading = axis == .vertical ? insets.top : insets.left
        let trailing = axis == .vertical ? insets.bottom : insets.right
        self.init(lower: -leading, upper: content[axis] + trailing - viewport[axis])
    }

    /// `value` moved inside the bounds.
    public func clamp(_ value: Double) -> Double { min(max(value, lower), upper) }

    /// Whether `value` lies inside the bounds.
    public func contains(_ value: Double) -> Bool { value >= lower && value <= upper }

    /// An end of the bounds.
    public enum End: Sendable { case lower, upper }

    /// The end `value` is at (within a millionth of a px), or nil: a command aimed at an edge rather than at a row.
    public func edge(at value: Double) -> End? {
        if abs(value - lower) <= 1e-6 { return .lower }
        if abs(value - upper) <= 1e-6 { return .upper }
        return nil
    }
}
