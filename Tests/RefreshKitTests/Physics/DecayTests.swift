import Foundation
import RefreshKit
import Testing

// Rows 11 and 12 of docs/PHYSICS.md §9 also quote the WWDC / pop *discrete* projection (499.0 and 99.0); the engine
// uses the continuous form only (docs/PHYSICS.md §2.1), so only the continuous values are checked. Rows 20–22
// concern Flutter's FrictionSimulation (drag 0.135, Newton-iterated timeAtX and its `_finalTime` artefact),
// which is not ported; rows 17 and 18 concern time-stepped variants that the closed form replaces.
extension PhysicsTests {
    @Suite struct DecayTests {
        let normal = Decay.normal

        @Test("Constants: k = 1000·ln(rate)")
        func constants() {
            #expect(Decay.normal.rate == 0.998)
            #expect(Decay.fast.rate == 0.99)
            #expect(isClose(Decay.normal.constant, -2.0020026706730794, relative: 1e-12))
            #expect(isClose(Decay.fast.constant, -10.050335853501451, relative: 1e-12))
        }

        @Test("Row 9: 0.998^1000, Flutter's per-second drag")
        func row9() {
            #expect(isClose(normal.dragPerSecond, 0.13506452244668338, relative: 1e-12))
        }

        @Test("Rows 11, 12: distance travelled, continuous form")
        func rows11and12() {
            #expect(isClose(normal.restingPosition(from: 0, velocity: 1000), 499.4998331664548))
            #expect(isClose(Decay.fast.restingPosition(from: 0, velocity: 1000), 99.49916247342207))
            #expect(isClose(normal.restingPosition(from: 40, velocity: -1000), 40 - 499.4998331664548))
        }

        @Test("Row 13: x(0.25), v(0.25) for v0 = 1000")
        func row13() {
            #expect(isClose(normal.position(from: 0, velocity: 1000, after: 0.25), 196.68951512429717))
            #expect(isClose(normal.velocity(1000, after: 0.25), 606.227065427764))
        }

        @Test("Row 14: x(1), v(1) for v0 = 2500")
        func row14() {
            #expect(isClose(normal.position(from: 0, velocity: 2500, after: 1), 1080.087816844074))
            #expect(isClose(normal.velocity(2500, after: 1), 337.66130611670843))
        }

        @Test("Row 15: time until |v| < 0.5 (Motion) and until 0.5 px remain (ScrollMechanics)")
        func row15() {
            #expect(isClose(normal.timeToStop(velocity: 2500, threshold: 0.5), 4.254336578158875))
            #expect(isClose(normal.timeToStop(velocity: -2500, threshold: 0.5), 4.254336578158875))
            #expect(isClose(normal.timeUntilRemaining(0.5, velocity: 2500), 3.9076097605261584))
        }

        @Test("Row 16: time to travel 300 px from 2500 px/s, and the velocity there")
        func row16() throws {
            let t = try #require(normal.timeToTravel(300, velocity: 2500))
            #expect(isClose(t, 0.13723913104151103))
            #expect(isClose(normal.velocity(2500, after: t), 1899.3991987980762))
            let back = try #require(normal.timeToTravel(-300, velocity: -2500))
            #expect(back == t)
        }

        @Test("Property: timeToTravel inverts position, and is nil exactly when the distance is unreachable")
        func travelRoundTrip() throws {
            var random = SeededGenerator(seed: 11)
            for _ in 0..<2000 {
                let decay = random.index(2) == 0 ? Decay.normal : Decay.fast
                let v0 = random.uniform(-8000, 8000)
                let x0 = random.uniform(-1000, 1000)
                let reach = decay.restingPosition(from: x0, velocity: v0) - x0
                let fraction = random.uniform(0, 0.999)
                let t = try #require(decay.timeToTravel(reach * fraction, velocity: v0))
                #expect(t >= 0)
                #expect(
                    isClose(decay.position(from: x0, velocity: v0, after: t) - x0, reach * fraction, relative: 1e-9)
                        || (reach * fraction).magnitude < 1e-9)
                #expect(decay.timeToTravel(reach * random.uniform(1, 3), velocity: v0) == nil)
                #expect(decay.timeToTravel(-reach * random.uniform(0.01, 3), velocity: v0) == nil)
            }
            #expect(normal.timeToTravel(0, velocity: 0) == 0)
            #expect(normal.timeToTravel(1, velocity: 0) == nil)
            #expect(normal.timeToTravel(.nan, velocity: 100) == nil)
        }

        @Test("Property: timeToStop lands on the threshold; zero when already slower")
        func stopTime() {
            var random = SeededGenerator(seed: 12)
            for _ in 0..<1000 {
                let v0 = random.uniform(-8000, 8000)
                let threshold = random.uniform(0.1, 50)
                let t = normal.timeToStop(velocity: v0, threshold: threshold)
                if v0.magnitude < threshold {
                    #expect(t == 0)
                } else {
                    #expect(isClose(normal.velocity(v0, after: t).magnitude, threshold, relative: 1e-9))
                }
            }
            #expect(normal.timeToStop(velocity: 100, threshold: 0).isFinite)
            #expect(normal.timeToStop(velocity: 100, threshold: -3).isFinite)
        }

        @Test("Position approaches the resting position monotonically; velocity keeps its sign")
        func monotone() {
            let v0 = 3200.0
            let rest = normal.restingPosition(from: 10, velocity: v0)
            var previous = normal.position(from: 10, velocity: v0, after: 0)
            #expect(previous == 10)
            #expect(normal.velocity(v0, after: 0) == v0)
            for step in 1...1000 {
                let t = Double(step) * 0.01
                let x = normal.position(from: 10, velocity: v0, after: t)
                #expect(x > previous && x < rest)
                #expect(normal.velocity(v0, after: t) > 0)
                previous = x
            }
            #expect(normal.position(from: 10, velocity: v0, after: .infinity) == rest)
            // Time never runs backwards.
            #expect(normal.position(from: 10, velocity: v0, after: -1) == 10)
        }

        @Test("Short times keep full precision (expm1)")
        func shortTimes() {
            // e^{k·dt} − 1 written naively would lose about 5 of the 16 digits here.
            let dt = 1e-12
            let x = normal.position(from: 0, velocity: 1000, after: dt)
            #expect(isClose(x, 1000 * dt, relative: 1e-10))
        }

        @Test("Out-of-range rates are clamped so motion always stops")
        func clampedRates() {
            #expect(Decay(rate: 1).constant < 0)
            #expect(Decay(rate: 1.5).constant == Decay(rate: Decay.maximumRate).constant)
            #expect(Decay(rate: 0).constant == Decay(rate: Decay.minimumRate).constant)
            #expect(Decay(rate: .nan).constant == Decay.normal.constant)
            #expect(Decay(rate: 1).restingPosition(from: 0, velocity: 1000).isFinite)
        }
    }
}
