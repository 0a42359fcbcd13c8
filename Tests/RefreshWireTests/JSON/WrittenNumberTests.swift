import RefreshKit
import Testing

@testable import RefreshWire

/// A delta leaves out what did not change as written; that is only right if ``WrittenNumber`` and the
/// writer agree on when two numbers are written alike. This checks it on numbers built to sit on the
/// writer's rounding boundaries, and beyond its fixed-notation range.
@Suite("Numbers as written")
struct WrittenNumberTests {
    private func text(_ value: Double, _ decimals: Int) -> [UInt8] {
        var buffer: [UInt8] = []
        appendJSON(to: &buffer, bound: 64) { w in w.fixed(value, decimals: decimals) }
        return buffer
    }

    @Test(arguments: [3, 6])
    func sameMeansTheSameText(decimals: Int) {
        var g = SeededGenerator(seed: UInt64(decimals))
        let unit = powersOfTen[decimals]
        for _ in 0..<20_000 {
            let a: Double
            switch g.int(below: 5) {
            case 0: a = (Double(g.int(below: 2_000_000) - 1_000_000) + 0.5) / unit  // a tie
            case 1: a = Double(g.int(below: 2_000_000) - 1_000_000) / unit
            case 2: a = g.double(in: -1e13...1e13)  // beyond the fixed range for 6 decimals
            case 3: a = g.element(of: [0, -0.0, .nan, .infinity, -.infinity, 9e15, 1e300])
            default: a = g.double(in: -5000...5000)
            }
            let b: Double
            switch g.int(below: 4) {
            case 0: b = a.nextUp
            case 1: b = a.nextDown
            case 2: b = a + g.double(in: -2...2) / unit
            default: b = g.double(in: -5000...5000)
            }
            let same = WrittenNumber.same(a, b, decimals)
            let alike = text(a, decimals) == text(b, decimals)
            // `same` may be conservative (out-of-range, non-finite) but never claims a change the text hides
            // is no change.
            #expect(!same || alike, "\(a) and \(b) at \(decimals) decimals")
            if WrittenNumber.scaled(a, decimals) != nil && WrittenNumber.scaled(b, decimals) != nil {
                #expect(same == alike, "\(a) and \(b) at \(decimals) decimals")
            }
        }
    }

    @Test func followableValuesStayWithinTheExactRange() {
        #expect(WrittenNumber.followable(1e12) == 1_000_000_000_000_000)
        #expect(WrittenNumber.followable(1e12 + 1) == nil)
        #expect(WrittenNumber.followable(-0.0004) == 0)
        #expect(WrittenNumber.followable(.nan) == nil)
    }
}
