import Foundation
import RefreshKit

/// The random choices the fuzz generators make, all drawn from one ``SeededGenerator`` so a trace replays
/// exactly from its seed.
struct FuzzRandom {
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool { generator.unit() < p }

    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(generator.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// A uniform integer in `range`.
    mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(generator.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// A uniform double in `range`.
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + generator.unit() * (range.upperBound - range.lowerBound)
    }

    /// A double in `range` (both bounds positive), uniform on a log scale.
    mutating func logDouble(_ range: ClosedRange<Double>) -> Double {
        let value = exp(double(log(range.lowerBound)...log(range.upperBound)))
        return min(range.upperBound, max(range.lowerBound, value))
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

    /// One element of a case-iterable type.
    mutating func any<T: CaseIterable>(_ type: T.Type) -> T { pick(Array(type.allCases)) }

    /// `+1` or `-1`.
    mutating func sign() -> Double { chance(0.5) ? 1 : -1 }

    /// A signed pixel amount from every scale an API may see: zero, sub-pixel, small, large, huge, and the
    /// largest accepted (``Validation/maximumDelta``, 1 000 000).
    mutating func pixels() -> Double {
        let magnitude: Double
        switch int(0...99) {
        case 0..<8: magnitude = 0
        case 8..<14: magnitude = logDouble(1e-12...1e-3)
        case 14..<54: magnitude = double(0...12)
        case 54..<84: magnitude = double(12...120)
        case 84..<95: magnitude = double(120...3000)
        case 95..<99: magnitude = logDouble(3000...999_999)
        default: magnitude = 1_000_000
        }
        return sign() * magnitude
    }

    /// A number no API may accept as a delta or an amount.
    mutating func hostile() -> Double {
        pick([
            .nan, -.nan, .signalingNaN, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, 1_000_000.000_001, -1_000_001,
        ])
    }

    /// A hostile page timestamp (not validated by the engine: it must shrug it off).
    mutating func hostileTime() -> Double {
        pick([.nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude, -1, 0])
    }
}
