import RefreshKit
import Testing

/// The namespace of the physics suites, so that `swift test --filter Physics` selects exactly them.
@Suite enum PhysicsTests {}

/// `true` when `actual` is within `relative` of `expected`, relative to the larger magnitude.
///
/// The expected values of docs/PHYSICS.md §9 are quoted here at full float64 precision, as printed by re-running
/// the script of docs/PHYSICS.md Appendix A (the table rounds them to 4 or 6 digits).
func isClose(_ actual: Double, _ expected: Double, relative: Double = 1e-6) -> Bool {
    (actual - expected).magnitude <= relative * max(actual.magnitude, expected.magnitude)
}

/// `true` when `actual` is within `absolute` of `expected`.
func isClose(_ actual: Double, _ expected: Double, absolute: Double) -> Bool {
    (actual - expected).magnitude <= absolute
}

/// Draws for the property tests, from the engine's seeded generator (SplitMix64), so that they explore many
/// inputs yet run identically every time; no system randomness.
extension SeededGenerator {
    /// A double in `[lower, upper)`.
    mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * unit()
    }

    /// An integer in `0..<count`.
    mutating func index(_ count: Int) -> Int {
        Int(next() % UInt64(count))
    }
}
