import Foundation
import RefreshKit
import Testing

extension LayoutTests {
    @Suite struct HeightSumsTests {
        @Test("Prefix sums and the row at a y agree with a plain sum through random changes, ends added, ends removed")
        func matchesPlainSums() {
            var random = SeededGenerator(seed: 11)
            var plain = (0..<37).map { _ in Double(1 + random.index(400)) / 4 }
            var sums = HeightSums(plain)
            for _ in 0..<2_000 {
                switch random.index(4) {
                case 0 where plain.count > 1:
                    let count = 1 + random.index(min(5, plain.count - 1))
                    plain.removeLast(count)
                    sums.removeLast(count)
                case 1:
                    let height = Double(1 + random.index(400)) / 4
                    plain.append(height)
                    sums.append(height)
                default:
                    let index = random.index(plain.count)
                    let height = Double(1 + random.index(400)) / 4
                    plain[index] = height
                    sums.set(index, to: height)
                }
                let k = random.index(plain.count + 1)
                #expect(sums.prefix(k) == plain.prefix(k).reduce(0, +))
                let y = random.uniform(0, sums.total)
                let index = sums.index(containing: y)
                #expect(sums.prefix(index) <= y && (index == plain.count - 1 || y < sums.prefix(index + 1)))
            }
            #expect(sums.values == plain)
        }

        @Test("Decoding refuses nodes that do not match the heights")
        func decodingChecksTheNodes() throws {
            let good = Data(#"{"values":[1,2],"tree":[0,1,3]}"#.utf8)
            #expect(try JSONDecoder().decode(HeightSums.self, from: good).prefix(2) == 3)
            let bad = Data(#"{"values":[1,2],"tree":[0,1]}"#.utf8)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(HeightSums.self, from: bad) }
        }

        @Test("A height change touches at most ⌊log₂ n⌋ + 1 nodes (O(log n)), measured on 100 000 rows")
        func logarithmicUpdate() {
            let count = 100_000
            var sums = HeightSums(Array(repeating: 72, count: count))
            var random = SeededGenerator(seed: 12)
            var most = 0
            for _ in 0..<10_000 {
                most = max(most, sums.set(random.index(count), to: Double(1 + random.index(300))))
            }
            #expect(most <= 17)  // ⌊log₂ 100 000⌋ + 1
            #expect(sums.set(0, to: 10) == 17)
        }

        @Test("Adding or removing at the end leaves the prefix sums before it bit for bit")
        func endsDoNotMoveTheRowsAbove() {
            var random = SeededGenerator(seed: 13)
            var sums = HeightSums((0..<100).map { _ in random.uniform(1, 300) })
            for _ in 0..<300 { sums.set(random.index(100), to: random.uniform(1, 300)) }
            let before = (0...100).map { sums.prefix($0) }
            for _ in 0..<50 { sums.append(random.uniform(1, 300)) }
            sums.removeLast(30)
            #expect((0...100).map { sums.prefix($0) } == before)
        }
    }
}
