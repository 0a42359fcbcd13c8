import RefreshKit
import Testing

extension PhysicsTests {
    @Suite struct SpringTests {
        @Test("Presets carry their sources' parameters")
        func presets() {
            #expect(Spring.ios.mass == 0.5 && Spring.ios.stiffness == 100)
            #expect(isClose(Spring.ios.damping, 15.556349186104045, relative: 1e-12))
            #expect(isClose(Spring.ios.dampingRatio, 1.1, relative: 1e-12))
            #expect(Spring.pop == Spring(mass: 1, stiffness: 193.41, damping: 26.71))
            #expect(isClose(Spring.pop.dampingRatio, 26.71 / (2 * 193.41.squareRoot()), relative: 1e-12))
            #expect(Spring.critical == Spring(mass: 1, stiffness: 100, damping: 20))
            #expect(Spring.critical.dampingRatio == 1)
            #expect(Spring.fast.mass == 0.3 && Spring.fast.stiffness == 75)
            #expect(isClose(Spring.fast.dampingRatio, 1.3, relative: 1e-12))
        }

        @Test("Response 2π/ω₀ of the presets (docs/PHYSICS.md §2.4 table)")
        func responses() {
            #expect(isClose(Spring.ios.response, 0.444, absolute: 5e-4))
            #expect(isClose(Spring.critical.response, 0.628, absolute: 5e-4))
            #expect(isClose(Spring.pop.response, 0.452, absolute: 5e-4))
            #expect(isClose(Spring.fast.response, 0.397, absolute: 5e-4))
            #expect(isClose(Spring.ios.naturalFrequency, 14.142135623730951, relative: 1e-12))
        }

        @Test("named(_:) finds every preset and nothing else")
        func named() {
            #expect(Spring.named("ios") == .ios)
            #expect(Spring.named("pop") == .pop)
            #expect(Spring.named("critical") == .critical)
            #expect(Spring.named("fast") == .fast)
            #expect(Spring.named("iOS") == nil)
            #expect(Spring.named("") == nil)
            #expect(Set(Spring.presetNames.compactMap(Spring.named)).count == Spring.presetNames.count)
        }

        @Test("Row 37: pop bounciness 0 / speed 5, and WWDC response 0.5 s / ζ 1")
        func row37() {
            let pop = Spring(popBounciness: 0, speed: 5)
            #expect(pop.mass == 1)
            #expect(isClose(pop.stiffness, 193.41441176470587))
            #expect(isClose(pop.damping, 26.70618635300478))
            #expect(isClose(pop.dampingRatio, 0.9601464131454565))
            let apple = Spring(response: 0.5, dampingRatio: 1)
            #expect(isClose(apple.stiffness, 157.91367041742973))
            #expect(isClose(apple.damping, 25.132741228718345))
            #expect(isClose(apple.response, 0.5, relative: 1e-12))
            #expect(isClose(apple.dampingRatio, 1, relative: 1e-12))
        }

        @Test("The damping-ratio initialiser and the property agree")
        func ratioRoundTrip() {
            var random = SeededGenerator(seed: 21)
            for _ in 0..<500 {
                let ratio = random.uniform(0.05, 3)
                let spring = Spring(
                    mass: random.uniform(0.1, 5), stiffness: random.uniform(10, 1000), dampingRatio: ratio)
                #expect(isClose(spring.dampingRatio, ratio, relative: 1e-12))
            }
        }
    }
}
