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

/// A tiny deterministic pseudo-random generator (SplitMix64, Steele, Lea and Flood 2014), so that property
/// tests explore many inputs yet run identically every time; no system randomness.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in `[0, 1)` from the top 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A double in `[lower, upper)`.
    mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * unit()
    }

    /// An integer in `0..<count`.
    mutating func index(_ count: Int) -> Int {
        Int(next() % UInt64(count))
    }
}
