import RefreshKit
import Testing

extension PhysicsTests {
    @Suite struct MotionSegmentTests {
        let t0 = Timestamp(microseconds: 5_000_000)

        func at(_ seconds: Double) -> Timestamp { t0.advanced(bySeconds: seconds) }

        @Test("A hold stays put with zero velocity, before, during and after")
        func hold() {
            let hold = MotionSegment.hold(at: -42.5, from: t0)
            #expect(hold.kind == .hold && hold.end == nil && hold.target == -42.5 && hold.velocity == 0)
            for t in [at(-1), t0, at(0.5), at(1e6)] {
                #expect(hold.position(at: t) == -42.5)
                #expect(hold.velocity(at: t) == 0)
            }
        }

        @Test("A decay segment evaluates the Decay closed form and clamps time to [start, end]")
        func decay() {
            let segment = MotionSegment.decay(from: 100, velocity: 2500, at: t0, decay: .normal, until: at(1))
            #expect(segment.decayConstant == Decay.normal.constant)
            #expect(segment.position(at: at(1)) == segment.target)
            // docs/PHYSICS.md §9 row 14, shifted by the start position.
            #expect(isClose(segment.position(at: at(1)), 1180.087816844074))
            #expect(isClose(segment.velocity(at: at(1)), 337.66130611670843))
            #expect(
                isClose(
                    segment.position(at: at(0.25)), 100 + Decay.normal.position(from: 0, velocity: 2500, after: 0.25),
                    relative: 1e-15))
            // Before the start: the initial state; after the end: the state at the end.
            #expect(segment.position(at: at(-3)) == 100 && segment.velocity(at: at(-3)) == 2500)
            #expect(segment.position(at: at(7)) == segment.position(at: at(1)))
            #expect(segment.velocity(at: at(7)) == segment.velocity(at: at(1)))
            // Open-ended, the target is the resting position, reached in the limit.
            let open = MotionSegment.decay(from: 100, velocity: 2500, at: t0, decay: .normal)
            #expect(open.end == nil)
            #expect(isClose(open.target, 100 + 2500 * 0.4994998331664548))
            #expect(isClose(open.position(at: at(100)), open.target, relative: 1e-12))
        }

        @Test("A spring segment follows SpringSolution, then snaps exactly to its target")
        func spring() {
            let segment = MotionSegment.spring(from: -100, velocity: 0, toward: 0, at: t0, spring: .ios, until: at(0.8))
            let solution = SpringSolution(spring: .ios, displacement: -100, velocity: 0)
            // docs/PHYSICS.md §9 row 26.
            #expect(isClose(segment.position(at: at(0.1)), -60.87453942132851))
            #expect(segment.position(at: at(0.3)) == solution.displacement(at: 0.3))
            #expect(segment.velocity(at: at(0.3)) == solution.velocity(at: 0.3))
            #expect(segment.position(at: t0) == -100 && segment.velocity(at: t0) == 0)
            #expect(segment.position(at: at(0.8)) == 0 && segment.velocity(at: at(0.8)) == 0)
            #expect(segment.position(at: at(50)) == 0 && segment.velocity(at: at(50)) == 0)
            #expect(segment.position(at: at(0.8).advanced(byMicroseconds: -1)) != 0)
        }

        @Test("The physics spring factory ends at the settling time, rounded up to a microsecond")
        func physicsSpring() throws {
            let physics = ScrollPhysics(devicePixelRatio: 3)
            let segment = MotionSegment.spring(from: -100, velocity: 0, to: 0, at: t0, physics: physics)
            let settle = SpringSolution(spring: .ios, displacement: -100, velocity: 0)
                .settlingTime(distanceTolerance: 1.0 / 3, velocityTolerance: 1 / 0.15)
            let end = try #require(segment.end)
            #expect(end.seconds(since: t0) >= settle && end.seconds(since: t0) < settle + 1e-6)
            #expect(segment.spring == .ios && segment.target == 0)
            // Already settled: it ends where it starts.
            let idle = MotionSegment.spring(from: 0.1, velocity: 1, to: 0, at: t0, physics: physics)
            #expect(idle.end == t0 && idle.position(at: t0) == 0)
        }

        @Test("contains and duration")
        func containment() {
            let segment = MotionSegment.decay(from: 0, velocity: 100, at: t0, decay: .fast, until: at(0.5))
            #expect(segment.contains(t0) && segment.contains(at(0.499999)))
            #expect(!segment.contains(at(0.5)) && !segment.contains(at(-0.000001)))
            #expect(segment.duration == 0.5)
            #expect(MotionSegment.hold(at: 0, from: t0).contains(at(1e5)))
            #expect(MotionSegment.hold(at: 0, from: t0).duration == nil)
        }

        @Test("Stored properties are the wire's: the factories fill them as documented")
        func storedShape() {
            let segment = MotionSegment.spring(from: 3, velocity: 4, toward: 5, at: t0, spring: .pop, until: at(1))
            #expect(
                segment
                    == MotionSegment(
                        kind: .spring, start: t0, end: at(1), position: 3, velocity: 4, decayConstant: 0, target: 5,
                        spring: .pop))
        }

        @Test("A decay segment that cannot decelerate behaves as a hold")
        func invalidDecay() {
            for constant in [0.0, 3, .nan] {
                let segment = MotionSegment(
                    kind: .decay, start: t0, end: nil, position: 7, velocity: 900, decayConstant: constant, target: 7)
                #expect(segment.position(at: at(2)) == 7 && segment.velocity(at: at(2)) == 0)
            }
        }

        @Test("A spring segment without a spring uses the iOS spring")
        func missingSpring() {
            let bare = MotionSegment(kind: .spring, start: t0, end: nil, position: -50, velocity: 0, target: 0)
            let ios = MotionSegment.spring(from: -50, velocity: 0, toward: 0, at: t0, spring: .ios)
            #expect(bare.position(at: at(0.2)) == ios.position(at: at(0.2)))
        }
    }
}
