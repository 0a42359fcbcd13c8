import RefreshKit
import Testing

extension PhysicsTests {
    @Suite struct RubberBandTests {
        let band = RubberBand()

        // MARK: docs/PHYSICS.md §9 vectors

        @Test("Row 1: b(x) for d = 960 (squareb's published values)")
        func row1() {
            let expected: [(Double, Double)] = [
                (5, 2.7421448974293128), (10, 5.468669083376341), (100, 52.01970443349758),
                (400, 178.9830508474577), (960, 340.6451612903226),
            ]
            for (x, b) in expected {
                #expect(isClose(band.offset(forPull: x, dimension: 960), b), "x = \(x)")
            }
        }

        @Test("Row 2: b(200; d = 844)")
        func row2() {
            #expect(isClose(band.offset(forPull: 200, dimension: 844), 97.31656184486374))
        }

        @Test("Row 3: inverse x(b = 100; d = 844)")
        func row3() {
            #expect(isClose(band.pull(forOffset: 100, dimension: 844), 206.2561094819159))
        }

        @Test("Row 4: rubberBandClamp outside [0, 1000], d = 800")
        func row4() {
            #expect(isClose(band.clamp(-150, lower: 0, upper: 1000, dimension: 800), -74.78753541076478))
            #expect(isClose(band.clamp(1150, lower: 0, upper: 1000, dimension: 800), 1074.7875354107648))
        }

        @Test("Row 35: finger travel to the 100 px Cupertino trigger, c = 0.55 and c = 0.52")
        func row35() {
            #expect(isClose(band.pull(forOffset: 100, dimension: 844), 206.2561094819159))
            let flutter = RubberBand(coefficient: 0.52)
            #expect(isClose(flutter.pull(forOffset: 100, dimension: 844), 218.15550041356494))
        }

        @Test("Row 36: finger travel to the 54 pt MJRefresh trigger")
        func row36() {
            #expect(isClose(band.pull(forOffset: 54, dimension: 844), 104.89298043728422))
        }

        // MARK: Shape

        @Test("b(0) = 0, slope c at the edge, odd symmetry")
        func shape() {
            #expect(band.offset(forPull: 0, dimension: 500) == 0)
            let tiny = 1e-6
            #expect(isClose(band.offset(forPull: tiny, dimension: 500) / tiny, 0.55, relative: 1e-6))
            var random = SeededGenerator(seed: 1)
            for _ in 0..<500 {
                let x = random.uniform(0, 5000)
                let d = random.uniform(1, 2000)
                #expect(band.offset(forPull: -x, dimension: d) == -band.offset(forPull: x, dimension: d))
            }
        }

        @Test("Property: b is strictly increasing in x")
        func monotone() {
            var random = SeededGenerator(seed: 2)
            for _ in 0..<200 {
                let d = random.uniform(1, 3000)
                var x = -10 * d
                var previous = band.offset(forPull: x, dimension: d)
                while x < 10 * d {
                    x += random.uniform(0.01, d / 20)
                    let current = band.offset(forPull: x, dimension: d)
                    #expect(current > previous, "d = \(d), x = \(x)")
                    previous = current
                }
            }
        }

        @Test("Property: |b(x)| < d for every x, even huge or infinite")
        func boundedByViewport() {
            var random = SeededGenerator(seed: 3)
            for _ in 0..<2000 {
                let d = random.uniform(0.5, 3000)
                let x = random.uniform(-1, 1) * Double(sign: .plus, exponent: random.index(1000), significand: 1)
                #expect(band.offset(forPull: x, dimension: d).magnitude < d, "x = \(x), d = \(d)")
            }
            for x in [Double.greatestFiniteMagnitude, 1e300, 1e20, .infinity, -.infinity] {
                #expect(band.offset(forPull: x, dimension: 844).magnitude < 844)
            }
        }

        @Test("Property: pull inverts offset")
        func inverse() {
            var random = SeededGenerator(seed: 4)
            for _ in 0..<2000 {
                let d = random.uniform(1, 3000)
                let x = random.uniform(-20 * d, 20 * d)
                #expect(
                    isClose(
                        band.pull(forOffset: band.offset(forPull: x, dimension: d), dimension: d), x, relative: 1e-9))
                let b = random.uniform(-0.999, 0.999) * d
                #expect(
                    isClose(
                        band.offset(forPull: band.pull(forOffset: b, dimension: d), dimension: d), b, relative: 1e-9))
            }
        }

        // MARK: clamp / unclamp

        @Test("clamp leaves values inside the range unchanged")
        func clampInside() {
            var random = SeededGenerator(seed: 5)
            for _ in 0..<1000 {
                let lower = random.uniform(-500, 500)
                let upper = lower + random.uniform(0, 5000)
                let value = random.uniform(lower, upper)
                #expect(band.clamp(value, lower: lower, upper: upper, dimension: 800) == value)
                #expect(band.unclamp(value, lower: lower, upper: upper, dimension: 800) == value)
            }
        }

        @Test("Property: clamp is continuous at both bounds and moves at slope c just outside")
        func clampContinuousAtBounds() {
            let (lower, upper, d) = (-60.0, 1200.0, 844.0)
            for epsilon in [1e-3, 1e-6, 1e-9] {
                let below = band.clamp(lower - epsilon, lower: lower, upper: upper, dimension: d)
                let above = band.clamp(upper + epsilon, lower: lower, upper: upper, dimension: d)
                #expect(below < lower && lower - below <= epsilon)
                #expect(above > upper && above - upper <= epsilon)
                #expect(isClose((lower - below) / epsilon, 0.55, relative: 1e-3))
                #expect(isClose((above - upper) / epsilon, 0.55, relative: 1e-3))
            }
        }

        @Test("Property: clamp is monotone across the whole line")
        func clampMonotone() {
            var previous = -Double.infinity
            var value = -3000.0
            while value < 4000 {
                let displayed = band.clamp(value, lower: 0, upper: 1000, dimension: 800)
                #expect(displayed > previous, "value = \(value)")
                previous = displayed
                value += 0.37
            }
        }

        @Test("Property: unclamp(clamp(x)) = x and clamp(unclamp(b)) = b")
        func roundTrip() {
            var random = SeededGenerator(seed: 6)
            for _ in 0..<3000 {
                let lower = random.uniform(-300, 300)
                let upper = lower + random.uniform(0, 4000)
                let d = random.uniform(100, 1500)
                let raw = random.uniform(lower - 5 * d, upper + 5 * d)
                let displayed = band.clamp(raw, lower: lower, upper: upper, dimension: d)
                let back = band.unclamp(displayed, lower: lower, upper: upper, dimension: d)
                // Relative to the distance past the edge, where the precision lives.
                #expect(isClose(back, raw, absolute: 1e-9 * max(1, (raw - lower).magnitude, (raw - upper).magnitude)))
                let shown = random.uniform(lower - 0.99 * d, upper + 0.99 * d)
                let raw2 = band.unclamp(shown, lower: lower, upper: upper, dimension: d)
                let shownAgain = band.clamp(raw2, lower: lower, upper: upper, dimension: d)
                #expect(isClose(shownAgain, shown, absolute: 1e-9 * max(1, shown.magnitude)))
            }
        }

        @Test("upper < lower is treated as upper = lower")
        func invertedRange() {
            let a = band.clamp(120, lower: 100, upper: 40, dimension: 500)
            let b = band.clamp(120, lower: 100, upper: 100, dimension: 500)
            #expect(a == b)
            #expect(band.clamp(80, lower: 100, upper: 40, dimension: 500) < 100)
            #expect(
                band.unclamp(a, lower: 100, upper: 40, dimension: 500)
                    == band.unclamp(b, lower: 100, upper: 100, dimension: 500))
        }

        @Test("Degenerate inputs give finite results")
        func degenerate() {
            let odd: [Double] = [
                0, -1, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            ]
            for d in odd {
                for x in odd + [5, -5] {
                    #expect(band.offset(forPull: x, dimension: d).isFinite)
                    #expect(band.pull(forOffset: x, dimension: d).isFinite)
                    for bound in odd {
                        #expect(band.clamp(x, lower: bound, upper: 100, dimension: d).isFinite)
                        #expect(band.clamp(x, lower: -100, upper: bound, dimension: d).isFinite)
                        #expect(band.unclamp(x, lower: bound, upper: 100, dimension: d).isFinite)
                        #expect(band.unclamp(x, lower: -100, upper: bound, dimension: d).isFinite)
                    }
                }
            }
            // No room to overscroll: no overscroll.
            #expect(band.offset(forPull: 50, dimension: 0) == 0)
            #expect(RubberBand(coefficient: .nan).offset(forPull: 50, dimension: 800) == 0)
            // At or beyond a whole viewport, the inverse is huge but finite.
            #expect(band.pull(forOffset: 800, dimension: 800).isFinite)
            #expect(band.pull(forOffset: -5000, dimension: 800) < -1e10)
            // Infinite bounds mean no edge on that side.
            #expect(band.clamp(-1e6, lower: -.infinity, upper: 0, dimension: 800) == -1e6)
        }
    }
}
