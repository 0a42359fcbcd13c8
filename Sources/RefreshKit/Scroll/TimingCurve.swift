/// A timing curve: a cubic Bézier from (0, 0) to (1, 1) with the control points (x1, y1) and (x2, y2), as
/// Core Animation's `CAMediaTimingFunction` and CSS's `cubic-bezier()` define it (docs/PHYSICS.md §11.1).
///
/// The curve maps the fraction of the duration that has passed, `x`, to the fraction of the way travelled,
/// `y`: find the Bézier parameter `s` with `X(s) = x`, then `y = Y(s)`. The solve is a fixed procedure
/// (docs/PHYSICS.md §11.2, docs/PROTOCOL.md "timed"), so the page, doing the same operations in the same
/// order, computes the same numbers.
public struct TimingCurve: Hashable, Sendable, Codable {
    public var x1: Double
    public var y1: Double
    public var x2: Double
    public var y2: Double

    /// A curve with the control points (x1, y1) and (x2, y2); `x1` and `x2` are clamped into [0, 1] (so that
    /// `X` is monotonic and the solve has one answer), as CSS requires of them.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = Self.unit(x1)
        self.y1 = y1.isFinite ? y1 : 0
        self.x2 = Self.unit(x2)
        self.y2 = y2.isFinite ? y2 : 1
    }

    private static func unit(_ value: Double) -> Double {
        value.isFinite ? min(max(value, 0), 1) : 0
    }

    // MARK: - The named curves (Core Animation's, and CSS's with the same numbers)

    /// `kCAMediaTimingFunctionLinear`, CSS `linear`.
    public static let linear = TimingCurve(0, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseIn`, CSS `ease-in`: (0.42, 0), (1, 1).
    public static let easeIn = TimingCurve(0.42, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseOut`, CSS `ease-out`: (0, 0), (0.58, 1).
    public static let easeOut = TimingCurve(0, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionEaseInEaseOut`, CSS `ease-in-out`: (0.42, 0), (0.58, 1). UIView's animations use
    /// it unless told otherwise (`UIView.AnimationOptions.curveEaseInOut` is the default).
    public static let easeInEaseOut = TimingCurve(0.42, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionDefault`, CSS `ease`: (0.25, 0.1), (0.25, 1).
    public static let `default` = TimingCurve(0.25, 0.1, 0.25, 1)

    // MARK: - Evaluation

    /// The fraction of the way travelled once `fraction` of the duration has passed (clamped into [0, 1]):
    /// exactly 0 at 0 and exactly 1 at 1.
    public func progress(at fraction: Double) -> Double {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return 1 }
        return Self.cubic(solve(fraction), y1, y2)
    }

    /// `dy/dx` at `fraction` of the duration: the speed relative to the average speed (distance ÷ duration).
    /// At an end where the control point coincides with it (`x1 = y1 = 0`, say), the tangent of the
    /// other control point gives the limit; a vertical tangent gives 0 rather than infinity.
    public func slope(at fraction: Double) -> Double {
        let s = fraction <= 0 ? 0 : (fraction >= 1 ? 1 : solve(fraction))
        let dx = Self.derivative(s, x1, x2)
        let dy = Self.derivative(s, y1, y2)
        if dx > 1e-9 { return dy / dx }
        // X'(s) vanishes only at s = 0 (when x1 = 0) or s = 1 (when x2 = 1): use the chord to the
        // neighbouring control point that is apart from this end.
        if s < 0.5 {
            if x1 > 0 { return y1 / x1 }
            if x2 > 0 { return y2 / x2 }
        } else {
            if x2 < 1 { return (1 - y2) / (1 - x2) }
            if x1 < 1 { return (1 - y1) / (1 - x1) }
        }
        return dy == 0 ? 0 : 1
    }

    /// The Bézier parameter `s` in [0, 1] with `X(s) = x`, for `0 < x < 1`: up to 8 Newton steps from `s = x`,
    /// stopping once `|X(s) − x| < 1e-12`; if a step has `|X'(s)| < 1e-9` or leaves [0, 1], or 8 steps do not
    /// get there, up to 64 bisection steps on [0, 1] from `s = x` with the same stopping rule.
    func solve(_ x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let error = Self.cubic(s, x1, x2) - x
            if abs(error) < 1e-12 { return s }
            let d = Self.derivative(s, x1, x2)
            if abs(d) < 1e-9 { break }
            let next = s - error / d
            if next < 0 || next > 1 { break }
            s = next
        }
        var low = 0.0
        var high = 1.0
        s = x
        for _ in 0..<64 {
            let error = Self.cubic(s, x1, x2) - x
            if abs(error) < 1e-12 { return s }
            if error > 0 { high = s } else { low = s }
            s = (low + high) / 2
        }
        return s
    }

    /// One coordinate of the Bézier with end points 0 and 1 and control values `p1`, `p2`:
    /// `B(s) = 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³`, written as `((a·s + b)·s + c)·s` with `c = 3·p1`,
    /// `b = 3·(p2 − p1) − c`, `a = 1 − c − b`.
    static func cubic(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let c = 3 * p1
        let b = 3 * (p2 - p1) - c
        let a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    /// `dB/ds = (3a·s + 2b)·s + c`, with `a`, `b`, `c` as in ``cubic(_:_:_:)``.
    static func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let c = 3 * p1
        let b = 3 * (p2 - p1) - c
        let a = 1 - c - b
        return (3 * a * s + 2 * b) * s + c
    }
}
