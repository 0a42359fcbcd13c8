/// UIScrollView's rubber band: how far the content follows a finger that drags it past an edge.
///
/// The displayed overscroll `b` for a raw finger distance `x` past the edge is
/// `b(x) = (1 − 1/(x·c/d + 1))·d`, where `d` is the viewport dimension along the axis and `c` the
/// coefficient (docs/PHYSICS.md §1.1: Grant Paul's formula, as written up by squareb.wordpress.com 2013 and
/// re-implemented in super-ultra/ScrollMechanics `ScrollMechanics/Sources/RubberBand.swift` and
/// b3ll/Motion `Sources/Motion/Utilities/RubberBanding.swift`).
///
/// The mapping is closed form, so a drag computed as `clamp(startOffset − translation)` is path
/// independent: the same finger position always gives the same offset, whatever the event rate
/// (docs/PHYSICS.md §1.1, §10.4).
///
/// Degenerate inputs never produce a non-finite result: a dimension that is not finite and positive,
/// or a coefficient that is not finite and positive, gives no overscroll at all, and NaN inputs count as 0.
public struct RubberBand: Hashable, Sendable, Codable {
    /// The resistance `c`: the first pixel past the edge moves the content by `c` px.
    ///
    /// 0.55 is the reverse-engineered UIKit value (docs/PHYSICS.md §0, §1.1); Flutter's
    /// `BouncingScrollPhysics` is equivalent to 0.52 (docs/PHYSICS.md §1.2).
    public var coefficient: Double = 0.55

    /// A rubber band with the given resistance (0.55 by default, UIKit's).
    public init(coefficient: Double = 0.55) {
        self.coefficient = coefficient
    }

    /// The displayed overscroll for a raw distance `x` past the edge.
    ///
    /// `b(x) = (1 − 1/(x·c/d + 1))·d` for `x ≥ 0`, and `b(−x) = −b(x)`. The result is strictly inside
    /// `(−d, d)`: the content never overscrolls by a whole viewport (docs/PHYSICS.md §1.1).
    ///
    /// - Parameters:
    ///   - x: How far the finger would have moved the content past the edge, px.
    ///   - d: The viewport dimension along the axis, px.
    public func offset(forPull x: Double, dimension d: Double) -> Double {
        guard let c = validCoefficient, isValidDimension(d), !x.isNaN else { return 0 }
        let magnitude = x.magnitude
        // For x = ∞ the quotient is ∞ and 1/∞ = 0, so the limit d comes out; the `min` below keeps it
        // strictly inside the viewport, also where rounding makes 1 − tiny equal 1.
        let displayed = (1 - 1 / (magnitude * c / d + 1)) * d
        return Self.withSign(of: x, min(displayed, d.nextDown))
    }

    /// The raw finger distance past the edge that displays an overscroll of `b`: the inverse of
    /// ``offset(forPull:dimension:)``, `x(b) = b·d / (c·(d − b))` (docs/PHYSICS.md §1.1).
    ///
    /// `b` is meaningful in `(−d, d)`; larger magnitudes are treated as the largest displayable
    /// overscroll, so the result stays finite.
    public func pull(forOffset b: Double, dimension d: Double) -> Double {
        guard let c = validCoefficient, isValidDimension(d), !b.isNaN else { return 0 }
        let magnitude = min(b.magnitude, d.nextDown)
        let raw = magnitude * d / (c * (d - magnitude))
        return Self.withSign(of: b, min(raw, Double.greatestFiniteMagnitude))
    }

    /// Clamps `value` into `[lower, upper]` with a rubber band outside it.
    ///
    /// Inside the range the value is returned unchanged; outside, the result is the nearest edge plus the
    /// rubber-banded distance past it (ScrollMechanics `rubberBandClamp(x, coeff, dim, limits)`, docs/PHYSICS.md
    /// §1.1). When `upper < lower`, `upper` is taken to be `lower` (content shorter than the viewport).
    ///
    /// - Parameters:
    ///   - value: The raw offset, e.g. `dragStartOffset − translation`.
    ///   - lower: The smallest offset at rest (may be `-infinity` for no edge).
    ///   - upper: The largest offset at rest (may be `infinity` for no edge).
    ///   - dimension: The viewport dimension along the axis.
    // Inlined up to the test for a finite value inside the range (a drag's move on both axes, mostly): there the
    // result is the value, bit for bit, as below (the bounds made finite cannot exclude a finite value inside
    // them), so a move inside the range calls nothing (docs/PERFORMANCE.md, "Inlining on an input's path").
    @inline(__always)
    public func clamp(_ value: Double, lower: Double, upper: Double, dimension: Double) -> Double {
        if value.isFinite && value >= lower && value <= upper { return value }
        return clampOutside(value, lower: lower, upper: upper, dimension: dimension)
    }

    /// ``clamp(_:lower:upper:dimension:)`` of any value: a finite one outside the range, or not finite.
    private func clampOutside(_ value: Double, lower: Double, upper: Double, dimension: Double) -> Double {
        let (low, high) = Self.bounds(lower, upper)
        let raw = Self.finite(value)
        if raw < low { return Self.finite(low - offset(forPull: low - raw, dimension: dimension)) }
        if raw > high { return Self.finite(high + offset(forPull: raw - high, dimension: dimension)) }
        return raw
    }

    /// The raw offset that ``clamp(_:lower:upper:dimension:)`` maps to `displayed`: its inverse.
    ///
    /// A drag that begins while the content is overscrolled (say, catching a bounce) starts from
    /// `unclamp(currentOffset)`, so the first move continues from where the content is instead of jumping
    /// (docs/PHYSICS.md §1.1, §10.4).
    public func unclamp(_ displayed: Double, lower: Double, upper: Double, dimension: Double) -> Double {
        let (low, high) = Self.bounds(lower, upper)
        let shown = Self.finite(displayed)
        if shown < low { return Self.finite(low - pull(forOffset: low - shown, dimension: dimension)) }
        if shown > high { return Self.finite(high + pull(forOffset: shown - high, dimension: dimension)) }
        return shown
    }

    // MARK: - Guards

    private var validCoefficient: Double? {
        coefficient.isFinite && coefficient > 0 ? coefficient : nil
    }

    private func isValidDimension(_ d: Double) -> Bool {
        d.isFinite && d > 0
    }

    private static func withSign(of reference: Double, _ magnitude: Double) -> Double {
        reference < 0 ? -magnitude : magnitude
    }

    /// NaN counts as 0 and infinities as the largest finite values, so arithmetic on the result is finite.
    private static func finite(_ value: Double) -> Double {
        if value.isNaN { return 0 }
        return Swift.min(Swift.max(value, -Double.greatestFiniteMagnitude), Double.greatestFiniteMagnitude)
    }

    /// Finite, ordered bounds: a NaN bound means "no edge" on that side, and `upper < lower` means
    /// `upper = lower`.
    // Inlined: measured, the optimizer then also inlines `ScrollModel.followFinger()` where a finger moves
    // (docs/PERFORMANCE.md, "Inlining on an input's path").
    @inline(__always)
    private static func bounds(_ lower: Double, _ upper: Double) -> (Double, Double) {
        let low = finite(lower.isNaN ? -Double.infinity : lower)
        let high = finite(upper.isNaN ? Double.infinity : upper)
        return (low, Swift.max(low, high))
    }
}
