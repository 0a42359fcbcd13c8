import RefreshKit
import Testing

extension PhysicsTests {
    @Suite struct VelocityTrackerTests {
        func tracker(_ samples: [(time: Double, position: Double)]) -> VelocityTracker {
            var tracker = VelocityTracker()
            for sample in samples { tracker.add(position: sample.position, time: sample.time) }
            return tracker
        }

        /// `count` samples every 8 ms, sample `index` at `position(index)`.
        func samples(_ count: Int, position: (Int) -> Double) -> [(time: Double, position: Double)] {
            (0..<count).map { index -> (time: Double, position: Double) in
                (time: Double(index) * 8, position: position(index))
            }
        }

        /// 2 px/ms, every 8 ms (docs/PHYSICS.md §9 row 30).
        var steady: [(time: Double, position: Double)] {
            (0..<10).map { index -> (time: Double, position: Double) in
                let t = Double(index) * 8
                return (time: t, position: 2 * t)
            }
        }

        /// x = 3t − 0.01t² (t in ms), every 8 ms, 13 samples (rows 31, 32).
        var decelerating: [(time: Double, position: Double)] {
            (0..<13).map { index in
                let t = Double(index) * 8
                return (time: t, position: 3 * t - 0.01 * t * t)
            }
        }

        @Test("Row 30: steady 2000 px/s by least squares, and by the iOS weights")
        func row30() throws {
            let tracker = tracker(steady)
            #expect(isClose(try #require(tracker.leastSquaresVelocity), 2000))
            #expect(isClose(try #require(tracker.iosWeightedVelocity), 2000))
            #expect(tracker.hasRegularIntervals)
            #expect(isClose(tracker.velocity(atLift: 72), 2000))
        }

        @Test("Rows 31, 32: decelerating finger, LSQ 1080 (the true final speed) against iOS-weighted 1408")
        func rows31and32() throws {
            let tracker = tracker(decelerating)
            #expect(isClose(try #require(tracker.leastSquaresVelocity), 1079.9999999999864))
            #expect(isClose(try #require(tracker.iosWeightedVelocity), 1408.0000000000002))
            // Regular intervals: the release velocity is the iOS-weighted one.
            #expect(isClose(tracker.velocity(atLift: 100), 1408))
        }

        @Test("Row 33: a 56 ms gap leaves two samples, so no fling")
        func row33() {
            let tracker = tracker([(0, 0), (8, 16), (16, 32), (24, 48), (80, 60), (88, 62)])
            #expect(tracker.leastSquaresVelocity == nil)
            #expect(!tracker.hasRegularIntervals)
            #expect(tracker.velocity(atLift: 88) == 0)
        }

        @Test("Flutter: the iOS estimator reports a steady −1 px/s exactly once four samples exist")
        func flutterConsistentVelocity() {
            var tracker = VelocityTracker()
            for second in 0..<8 {
                tracker.add(position: -Double(second), time: Double(second) * 1000)
                if second >= 3 {
                    #expect(tracker.iosWeightedVelocity == -1)
                } else {
                    #expect(tracker.iosWeightedVelocity == nil)
                }
            }
        }

        @Test("Irregular intervals fall back to the least-squares fit")
        func irregularFallsBack() throws {
            // The decelerating stream with one batched pair (1 ms apart) at the end.
            var samples = decelerating
            samples.append((time: 97, position: 3 * 97 - 0.01 * 97 * 97))
            let tracker = tracker(samples)
            #expect(!tracker.hasRegularIntervals)
            let fit = try #require(tracker.leastSquaresVelocity)
            #expect(tracker.velocity(atLift: 97) == fit)
            #expect(fit != tracker.iosWeightedVelocity)
            // One interval more than twice the median (8, 8, 8, 20 ms) also counts.
            let late = self.tracker([(0, 0), (8, 8), (16, 16), (24, 24), (32, 32), (52, 52)])
            #expect(!late.hasRegularIntervals)
            #expect(isClose(late.velocity(atLift: 52), 1000))
        }

        @Test("A finger resting more than 40 ms before the lift gives no fling")
        func restedFinger() {
            let tracker = tracker(steady)
            #expect(tracker.velocity(atLift: 72 + 40) != 0)
            #expect(tracker.velocity(atLift: 72 + 40.001) == 0)
            #expect(VelocityTracker().velocity(atLift: 0) == 0)
        }

        @Test("Clamped to maxVelocity, zero below minVelocity, both configurable, sign kept")
        func limits() {
            let fast = tracker(samples(6) { -80 * Double($0) })  // −10 000 px/s
            #expect(fast.velocity(atLift: 40) == -8000)
            let slow = tracker(samples(6) { 0.6 * Double($0) })  // 75 px/s
            #expect(slow.velocity(atLift: 40) == 0)
            var custom = slow
            custom.minVelocity = 50
            custom.maxVelocity = 60
            #expect(isClose(custom.velocity(atLift: 40), 60, relative: 1e-12))
            custom.maxVelocity = 100
            #expect(isClose(custom.velocity(atLift: 40), 75))
        }

        @Test("Too few samples: no estimate")
        func fewSamples() {
            let two = tracker([(0, 0), (8, 20)])
            #expect(two.leastSquaresVelocity == nil && two.iosWeightedVelocity == nil)
            #expect(two.velocity(atLift: 8) == 0)
            let three = tracker([(0, 0), (8, 20), (16, 40)])
            #expect(isClose(three.velocity(atLift: 16), 2500))
        }

        @Test("History: at most 20 samples, none older than 100 ms used by the fit")
        func history() throws {
            var tracker = VelocityTracker()
            for index in 0..<50 { tracker.add(position: Double(index * index), time: Double(index) * 4) }
            #expect(tracker.samples.count == VelocityTracker.historySize)
            #expect(tracker.samples.first?.time == 120)
            // x = (t/4)², so dx/dt = t/8 px/ms exactly; the quadratic fit recovers it at the newest sample.
            #expect(isClose(try #require(tracker.leastSquaresVelocity), 196.0 / 8 * 1000))
        }

        @Test("The fit ignores samples more than 100 ms older than the newest")
        func horizon() throws {
            // Still until 80 ms, then 5 px/ms: only the last 100 ms (t ≥ 90) are on the straight part.
            let samples = (0..<20).map { index in
                let t = Double(index) * 10
                return (time: t, position: max(0, 5 * (t - 80)))
            }
            let tracker = tracker(samples)
            #expect(isClose(try #require(tracker.leastSquaresVelocity), 5000, relative: 1e-9))
        }

        @Test("Out-of-order and non-finite samples are ignored; a repeated time replaces the position")
        func sampleHygiene() {
            var tracker = VelocityTracker()
            tracker.add(position: 0, time: 0)
            tracker.add(position: 10, time: 10)
            tracker.add(position: 5, time: 5)
            tracker.add(position: .nan, time: 20)
            tracker.add(position: 12, time: .infinity)
            #expect(tracker.samples == [.init(time: 0, position: 0), .init(time: 10, position: 10)])
            tracker.add(position: 11, time: 10)
            #expect(tracker.samples.last == .init(time: 10, position: 11))
            tracker.reset()
            #expect(tracker.samples.isEmpty)
            #expect(tracker == VelocityTracker())
        }
    }
}
