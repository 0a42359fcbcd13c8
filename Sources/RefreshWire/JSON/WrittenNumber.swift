import RefreshKit

/// Numbers as the frame writer spells them (``JSONWriter/fixed(_:decimals:)``): `value` rounded to
/// `decimals` places, i.e. the integer `(value · 10^decimals).rounded()` in fixed notation, when it is below
/// 9·10¹⁵ in magnitude (beyond that, or for a NaN or an infinity, the writer spells the value another way).
///
/// A delta compares numbers this way rather than as `Double`s, so a change the text cannot show (a drift in
/// the 10th decimal) is never sent, and a change it does show always is. `WrittenNumberTests` checks that
/// this agrees with the writer's text.
enum WrittenNumber {
    /// The scaled integer `fixed(value, decimals)` writes, or nil when it writes `value` another way.
    ///
    /// The rounding is `rounded()`'s (to nearest, ties away from zero), done on the integer part instead of
    /// through libm: `x − Int64(x)` is exact (it is the fraction of a double), so comparing it with ½ picks
    /// the same integer, bit for bit.
    @inline(__always)
    static func scaled(_ value: Double, _ decimals: Int) -> Int64? {
        let x = value * powerOfTen(decimals)
        // Beyond 2⁵² every double is an integer, so this is the same test as on the rounded value; false for
        // NaN and infinities.
        guard abs(x) < 9e15 else { return nil }
        let truncated = Int64(x)  // toward zero
        let fraction = x - Double(truncated)
        // Without branches: the values are noisy, a branch on the fraction would be mispredicted often.
        let up: Int64 = fraction >= 0.5 ? 1 : 0
        let down: Int64 = fraction <= -0.5 ? 1 : 0
        return truncated &+ up &- down
    }

    /// ``scaled(_:_:)``'s nil as a plain integer: no scaled value is this far from zero (they are below
    /// 9·10¹⁵ in magnitude).
    static var notScaled: Int64 { .min }

    /// ``scaled(_:_:)``, with ``notScaled`` for nil.
    @inline(__always)
    static func scaledOrNot(_ value: Double, _ precision: WirePrecision) -> Int64 {
        scaled(value, precision) ?? notScaled
    }

    /// 10^`decimals` (`decimals` ≤ 22), exact; a constant where `decimals` is one.
    @inline(__always)
    static func powerOfTen(_ decimals: Int) -> Double {
        switch decimals {
        case 3: 1e3
        case 6: 1e6
        default: powersOfTen[decimals]
        }
    }

    /// The scaled integer `fixed(value, precision)` writes, or nil when it writes `value` another way.
    @inline(__always)
    static func scaled(_ value: Double, _ precision: WirePrecision) -> Int64? {
        scaled(value, precision.decimals)
    }

    /// Whether `a` and `b` are written as the same text at `precision`.
    @inline(__always)
    static func same(_ a: Double, _ b: Double, _ precision: WirePrecision) -> Bool {
        same(a, b, precision.decimals)
    }

    /// Whether `a` and `b` are written as the same text with `decimals` decimals. Conservative: two values
    /// written another way (out of range, non-finite) count as the same only when they are equal.
    @inline(__always)
    static func same(_ a: Double, _ b: Double, _ decimals: Int) -> Bool {
        if a == b { return true }
        guard let x = scaled(a, decimals), let y = scaled(b, decimals) else { return false }
        return x == y
    }

    /// Whether two rectangles are written alike (every number a length).
    @inline(__always)
    static func same(_ a: Rect, _ b: Rect) -> Bool {
        same(a.origin.x, b.origin.x, .length) && same(a.origin.y, b.origin.y, .length)
            && same(a.size.width, b.size.width, .length)
            && same(a.size.height, b.size.height, .length)
    }

    /// Whether two motion chains are written alike: the same kinds and times, and every number the writer
    /// writes for each kind the same once rounded.
    @inline(__always)
    static func same(_ a: [MotionSegment], _ b: [MotionSegment]) -> Bool {
        // Inline for the usual case, no motion in either (a finger holds the content, or it rests).
        guard a.count == b.count else { return false }
        return a.isEmpty || sameSegments(a, b)
    }

    private static func sameSegments(_ a: [MotionSegment], _ b: [MotionSegment]) -> Bool {
        for (x, y) in zip(a, b) {
            guard x.kind == y.kind, x.start == y.start, x.end == y.end, same(x.position, y.position, .length) else {
                return false
            }
            switch x.kind {
            case .hold:
                continue
            case .decay:
                guard same(x.velocity, y.velocity, .velocity), same(x.decayConstant, y.decayConstant, .motionConstant)
                else { return false }
            case .spring:
                guard same(x.velocity, y.velocity, .velocity), same(x.target, y.target, .length) else { return false }
                switch (x.spring, y.spring) {
                case (nil, nil): continue
                case (let p?, let q?):
                    guard same(p.mass, q.mass, .motionConstant), same(p.stiffness, q.stiffness, .motionConstant),
                        same(p.damping, q.damping, .motionConstant)
                    else { return false }
                default: return false
                }
            case .timed:
                guard same(x.target, y.target, .length) else { return false }
                let (p, q) = (x.curve ?? .linear, y.curve ?? .linear)
                guard same(p.x1, q.x1, .curvePoint), same(p.y1, q.y1, .curvePoint), same(p.x2, q.x2, .curvePoint),
                    same(p.y2, q.y2, .curvePoint)
                else {
                    return false
                }
            }
        }
        return true
    }

    /// The largest scaled magnitude the follow rule (PROTOCOL.md, "delta") uses: the sum of three such
    /// values is still an integer a `Double` holds exactly, so the page's arithmetic on them is exact.
    static let followLimit: Int64 = 1_000_000_000_000_000

    /// The scaled value of a length (1/1000 px) or a velocity (1/1000 px/s), when the follow rule may use it.
    @inline(__always)
    static func followable(_ value: Double, _ precision: WirePrecision = .length) -> Int64? {
        guard let scaled = scaled(value, precision), scaled.magnitude <= followLimit else { return nil }
        return scaled
    }
}
