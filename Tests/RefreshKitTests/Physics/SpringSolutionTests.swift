import Foundation
import RefreshKit
import Testing

extension PhysicsTests {
    @Suite struct SpringSolutionTests {
        @Test("Row 26: Flutter's default spring released from −100 px")
        func row26() {
            let solution = SpringSolution(spring: .ios, displacement: -100, velocity: 0)
            #expect(solution.damping == .overdamped)
            let expected: [(Double, Double)] = [
                (0.1, -60.87453942132851), (0.2, -26.82900195051971), (0.3, -11.075812133253164),
                (0.5, -1.817531904126565),
            ]
            for (t, y) in expected {
                #expect(isClose(solution.displacement(at: t), y), "t = \(t)")
            }
            // The script steps 0.1 ms until done (dpr 3: 1/3 px, 6.67 px/s) and prints 0.6870 s.
            let settle = solution.settlingTime(distanceTolerance: 1.0 / 3, velocityTolerance: 1 / (0.05 * 3))
            #expect(settle > 0.6869 && settle <= 0.6870)
        }

        @Test("Row 27: ScrollMechanics' critically damped spring from −100 px")
        func row27() {
            let solution = SpringSolution(spring: .critical, displacement: -100, velocity: 0)
            #expect(solution.damping == .critical)
            let expected: [(Double, Double)] = [
                (0.1, -73.57588823428847), (0.3, -19.91482734714558), (0.6, -1.735126523666451),
            ]
            for (t, y) in expected {
                #expect(isClose(solution.displacement(at: t), y), "t = \(t)")
            }
        }

        @Test("Row 28 (Flutter crit_spring): 0 → 500 with m 1, k 100, ζ 1")
        func row28() {
            let solution = SpringSolution(
                spring: Spring(mass: 1, stiffness: 100, dampingRatio: 1), displacement: -500, velocity: 0)
            let x = { 500 + solution.displacement(at: $0) }
            #expect(isClose(x(0.25), 356.35125240817706))
            #expect(isClose(x(0.5), 479.7861590027436))
            #expect(isClose(solution.velocity(at: 0.25), 1026.062482798735))
            #expect(isClose(solution.velocity(at: 0.5), 168.44867497713668))
            // Flutter's assertions (`floor`), including t = 0.75, and "done at 1.6 s" with tolerance 0.01.
            #expect(floor(x(0.25)) == 356 && floor(x(0.5)) == 479 && floor(x(0.75)) == 497)
            #expect(floor(solution.velocity(at: 0.25)) == 1026 && floor(solution.velocity(at: 0.5)) == 168)
            #expect(floor(solution.velocity(at: 0.75)) == 20)
            #expect(solution.settlingTime(distanceTolerance: 0.01, velocityTolerance: 0.01) <= 1.6)
        }

        @Test("Row 29 (Flutter overdamped_spring and underdamped_spring)")
        func row29() {
            let over = SpringSolution(
                spring: Spring(mass: 1, stiffness: 100, dampingRatio: 1.25), displacement: -500, velocity: 0)
            #expect(over.damping == .overdamped)
            #expect(isClose(500 + over.displacement(at: 0.5), 445.2842342390279))
            #expect(isClose(500 + over.displacement(at: 1), 495.5080356774686))
            #expect(isClose(over.velocity(at: 0.5), 273.4653289804544))
            #expect(isClose(over.velocity(at: 1), 22.459816459772814))
            #expect(floor(500 + over.displacement(at: 1.5)) == 499 && floor(over.velocity(at: 1.5)) == 1)

            let under = SpringSolution(
                spring: Spring(mass: 1, stiffness: 100, dampingRatio: 0.25), displacement: -300, velocity: 0)
            #expect(under.damping == .underdamped)
            #expect(isClose(300 + under.displacement(at: 1), 325.43278867931014))
            #expect(isClose(under.velocity(at: 1), -64.81327838835901))
            #expect(floor(300 + under.displacement(at: 6)) == 299)
            #expect(under.isSettled(at: 6, distanceTolerance: 1e-3, velocityTolerance: 1e-3))
        }

        @Test("Initial state is reproduced in every regime")
        func initialState() {
            for ratio in [0.2, 1, 1.7] {
                let solution = SpringSolution(
                    spring: Spring(mass: 0.7, stiffness: 140, dampingRatio: ratio), displacement: 37, velocity: -900)
                #expect(isClose(solution.displacement(at: 0), 37, relative: 1e-12))
                #expect(isClose(solution.velocity(at: 0), -900, relative: 1e-12))
            }
        }

        @Test("Property: solutions satisfy m·y'' + c·y' + k·y = 0, also for m ≠ 1 (Flutter's r bug)")
        func equationOfMotion() {
            var random = SeededGenerator(seed: 31)
            for _ in 0..<300 {
                let spring = Spring(
                    mass: random.uniform(0.2, 3), stiffness: random.uniform(20, 400),
                    dampingRatio: random.uniform(0.1, 2.5))
                let solution = SpringSolution(
                    spring: spring, displacement: random.uniform(-300, 300), velocity: random.uniform(-5000, 5000))
                let t = random.uniform(0.01, 0.5)
                let h = 1e-5
                let acceleration = (solution.velocity(at: t + h) - solution.velocity(at: t - h)) / (2 * h)
                let slope = (solution.displacement(at: t + h) - solution.displacement(at: t - h)) / (2 * h)
                let residual =
                    spring.mass * acceleration + spring.damping * solution.velocity(at: t)
                    + spring.stiffness * solution.displacement(at: t)
                let scale =
                    spring.stiffness * solution.displacement(at: t).magnitude
                    + spring.damping * solution.velocity(at: t).magnitude + 1
                #expect(residual.magnitude <= 1e-5 * scale, "\(spring), t = \(t)")
                #expect(isClose(slope, solution.velocity(at: t), absolute: 1e-5 * (slope.magnitude + 1)))
            }
        }

        @Test("Near-critical damping is solved as critical, continuously with its neighbours")
        func nearCritical() {
            let nearly = SpringSolution(
                spring: Spring(mass: 0.5, stiffness: 100, dampingRatio: 1), displacement: -100, velocity: 400)
            #expect(nearly.damping == .critical)
            let below = SpringSolution(
                spring: Spring(mass: 0.5, stiffness: 100, dampingRatio: 1 - 1e-4), displacement: -100, velocity: 400)
            let above = SpringSolution(
                spring: Spring(mass: 0.5, stiffness: 100, dampingRatio: 1 + 1e-4), displacement: -100, velocity: 400)
            #expect(below.damping == .underdamped && above.damping == .overdamped)
            for t in stride(from: 0.0, through: 1.5, by: 0.05) {
                let y = nearly.displacement(at: t)
                #expect(isClose(below.displacement(at: t), y, absolute: 0.05))
                #expect(isClose(above.displacement(at: t), y, absolute: 0.05))
            }
        }

        @Test("Property: after settlingTime the spring stays within tolerance, and just before it is not")
        func settlingIsForeverAndTight() {
            var random = SeededGenerator(seed: 32)
            let springs: [Spring] = [.ios, .pop, .critical, .fast, Spring(mass: 1, stiffness: 300, dampingRatio: 0.3)]
            for round in 0..<150 {
                let spring =
                    round < springs.count * 10
                    ? springs[round % springs.count]
                    : Spring(
                        mass: random.uniform(0.2, 2), stiffness: random.uniform(30, 400),
                        dampingRatio: random.uniform(0.2, 2))
                let solution = SpringSolution(
                    spring: spring, displacement: random.uniform(-400, 400), velocity: random.uniform(-6000, 6000))
                let distance = random.uniform(0.05, 2)
                let speed = random.uniform(1, 40)
                let settle = solution.settlingTime(distanceTolerance: distance, velocityTolerance: speed)
                #expect(settle.isFinite && settle >= 0 && settle < 60)
                for step in 0...3000 {
                    let t = settle + Double(step) * 0.001
                    #expect(
                        solution.isSettled(at: t, distanceTolerance: distance, velocityTolerance: speed),
                        "\(spring) settles at \(settle) but not at \(t)")
                }
                if settle > 0 {
                    #expect(
                        !solution.isSettled(at: settle - 1e-7, distanceTolerance: distance, velocityTolerance: speed))
                }
            }
        }

        @Test("A spring that starts settled takes no time; the search is deterministic")
        func settledStart() {
            let still = SpringSolution(spring: .ios, displacement: 0.1, velocity: 1)
            #expect(still.settlingTime(distanceTolerance: 1, velocityTolerance: 20) == 0)
            let moving = SpringSolution(spring: .pop, displacement: -120, velocity: 3000)
            let a = moving.settlingTime(distanceTolerance: 0.5, velocityTolerance: 10)
            let b = moving.settlingTime(distanceTolerance: 0.5, velocityTolerance: 10)
            #expect(a == b && a > 0)
        }

        @Test("Unusable springs and inputs stay finite")
        func degenerate() {
            let broken = SpringSolution(
                spring: Spring(mass: 0, stiffness: -1, damping: .nan), displacement: .nan, velocity: .infinity)
            #expect(broken.spring == .ios)
            #expect(broken.displacement(at: 0.3) == 0 && broken.velocity(at: 0.3) == 0)
            let undamped = SpringSolution(
                spring: Spring(mass: 1, stiffness: 100, damping: 0), displacement: 10, velocity: 0)
            let settle = undamped.settlingTime(distanceTolerance: 1, velocityTolerance: 1)
            #expect(settle == SpringSolution.maximumSettlingTime)
            #expect(undamped.displacement(at: .nan) == 10)
        }
    }
}
