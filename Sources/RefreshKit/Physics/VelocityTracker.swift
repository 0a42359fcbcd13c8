/// Estimates the finger's release velocity along one axis from timestamped positions.
///
/// The tracker is one-dimensional; the scroll model keeps one per axis. Times are the page's clock in
/// milliseconds (`PointerEvent.timeStamp`), never the server's receive time: jitter on the timestamps
/// ruins both estimators (physics.md §5.2, rows 30 and 34 of §9).
///
/// Two estimators run on the same samples (physics.md §5.1, §5.2 item 4, §10.5):
/// - the **iOS-weighted** one of Flutter's `IOSScrollViewFlingVelocityTracker`
///   (`packages/flutter/lib/src/gestures/velocity_tracker.dart`): `0.6·v(n−3→n−2) + 0.35·v(n−2→n−1) +
///   0.05·v(n−1→n)`, the oldest of the last three segments weighing most. It gives the iOS feel;
/// - the **degree-2 least-squares** fit of Flutter's `VelocityTracker` (same file, with `lsq_solver.dart`):
///   at most 20 samples, none older than 100 ms, stopping at a gap over 40 ms, at least 3 samples.
///   It is robust against coalesced or batched samples.
///
/// ``velocity(atLift:)`` uses the iOS-weighted estimate when the recent sample intervals are regular and
/// falls back to the fit when they are not.
public struct VelocityTracker: Hashable, Sendable {
    /// One position at one time.
    public struct Sample: Hashable, Sendable {
        /// Page time, ms.
        public var time: Double
        /// Position along the axis, px.
        public var position: Double

        /// A sample at `time` (ms) and `position` (px).
        public init(time: Double, position: Double) {
            self.time = time
            self.position = position
        }
    }

    /// The most recent samples, oldest first, strictly increasing in time; at most ``historySize``.
    public private(set) var samples: [Sample] = []

    /// Release speeds are clamped to this magnitude, px/s (Flutter `kMaxFlingVelocity` = 8000,
    /// physics.md §3.1).
    public var maxVelocity: Double

    /// Release speeds below this are reported as 0 (no fling), px/s (Flutter
    /// `BouncingScrollPhysics.minFlingVelocity` = 2 × 50, physics.md §3.1).
    public var minVelocity: Double

    /// The number of samples kept (Flutter's ring of 20).
    public static let historySize = 20
    /// Samples older than this, relative to the newest, are ignored by the fit, ms (`_horizonMilliseconds`).
    public static let horizon: Double = 100
    /// A pause longer than this means the finger stopped, ms (`_assumePointerMoveStoppedMilliseconds`).
    public static let stoppedInterval: Double = 40
    /// The fit needs at least this many samples (`_minSampleSize`).
    public static let minimumFitSampleCount = 3
    /// Intervals shorter than this signal coalesced or batched samples, ms (physics.md §5.2 item 4).
    public static let minimumRegularInterval: Double = 2
    /// The iOS-weighted estimator's weights, oldest segment first (`IOSScrollViewFlingVelocityTracker`).
    public static let iosWeights = (oldest: 0.6, middle: 0.35, newest: 0.05)

    /// An empty tracker.
    public init(minVelocity: Double = 100, maxVelocity: Double = 8000) {
        self.minVelocity = minVelocity
        self.maxVelocity = maxVelocity
    }

    /// Records the finger at `position` (px) at page time `time` (ms).
    ///
    /// Non-finite values and samples older than the newest one are ignored; a sample at the same time
    /// as the newest replaces it, since it is the more recent report of that instant.
    public mutating func add(position: Double, time: Double) {
        guard position.isFinite, time.isFinite else { return }
        if let newest = samples.last {
            if time < newest.time { return }
            if time == newest.time {
                samples[samples.count - 1].position = position
                return
            }
        }
        samples.append(Sample(time: time, position: position))
        if samples.count > Self.historySize {
            samples.removeFirst(samples.count - Self.historySize)
        }
    }

    /// Forgets every sample (a new gesture begins).
    public mutating func reset() {
        samples.removeAll()
    }

    /// The release velocity in px/s for a finger lifted at page time `liftTime` (ms).
    ///
    /// - 0 when the newest sample is more than 40 ms before the lift: the finger had come to rest
    ///   (Flutter's rule, decided on the page's clock, physics.md §5.2 item 3).
    /// - Otherwise the iOS-weighted estimate if the intervals are regular (``hasRegularIntervals``), else the
    ///   least-squares estimate (0 if neither has enough samples).
    /// - Then clamped to ``maxVelocity`` and reported as 0 below ``minVelocity``.
    public func velocity(atLift liftTime: Double) -> Double {
        guard let newest = samples.last else { return 0 }
        if liftTime - newest.time > Self.stoppedInterval { return 0 }
        let estimate: Double
        if hasRegularIntervals, let weighted = iosWeightedVelocity {
            estimate = weighted
        } else {
            estimate = leastSquaresVelocity ?? 0
        }
        guard estimate.isFinite else { return 0 }
        let speed = Swift.min(estimate.magnitude, maxVelocity)
        if speed < minVelocity { return 0 }
        return estimate < 0 ? -speed : speed
    }

    /// Whether the last (up to four) sample intervals look like a steady stream: none shorter than 2 ms, none
    /// longer than twice their median, none a stop of more than 40 ms (physics.md §5.2 item 4).
    public var hasRegularIntervals: Bool {
        let recent = samples.suffix(5)
        let intervals = zip(recent.dropFirst(), recent).map { $0.time - $1.time }
        guard !intervals.isEmpty else { return false }
        let sorted = intervals.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return intervals.allSatisfy { interval in
            interval >= Self.minimumRegularInterval && interval <= 2 * median && interval <= Self.stoppedInterval
        }
    }

    /// Flutter's `IOSScrollViewFlingVelocityTracker` estimate in px/s, unclamped; `nil` with fewer than
    /// four samples.
    ///
    /// On a decelerating finger it reports the speed of about 16 ms before the last sample, like a
    /// UIScrollView (physics.md §5.1: 1408 against 1080 px/s in row 32).
    public var iosWeightedVelocity: Double? {
        guard samples.count >= 4 else { return nil }
        let last = Array(samples.suffix(4))
        func segment(_ index: Int) -> Double {
            let elapsed = last[index + 1].time - last[index].time
            return elapsed > 0 ? (last[index + 1].position - last[index].position) / (elapsed / 1000) : 0
        }
        let weights = Self.iosWeights
        return weights.oldest * segment(0) + weights.middle * segment(1) + weights.newest * segment(2)
    }

    /// Flutter's `VelocityTracker` estimate in px/s, unclamped: the slope at the newest sample of a degree-2
    /// least-squares fit over the recent samples; `nil` with fewer than three usable samples.
    ///
    /// Walking back from the newest sample, it stops at a sample older than ``horizon`` or across an interval
    /// longer than ``stoppedInterval``.
    public var leastSquaresVelocity: Double? {
        guard let newest = samples.last else { return nil }
        var points: [(u: Double, x: Double)] = []
        var previousTime = newest.time
        for sample in samples.reversed() {
            let age = newest.time - sample.time
            if age > Self.horizon || previousTime - sample.time > Self.stoppedInterval { break }
            previousTime = sample.time
            // Time scaled to [−1, 0] and position relative to the newest keep the normal matrix well conditioned.
            points.append((u: -age / Self.horizon, x: sample.position - newest.position))
        }
        guard points.count >= Self.minimumFitSampleCount,
            let slope = Self.quadraticFitSlope(points)
        else { return nil }
        // dx/du per unit of `horizon` ms → px/s.
        return slope / Self.horizon * 1000
    }

    /// The linear coefficient `a1` of the least-squares fit `x ≈ a0 + a1·u + a2·u²`, by a QR decomposition
    /// (modified Gram–Schmidt, as Flutter's `lsq_solver.dart` does); `nil` when the columns are dependent.
    private static func quadraticFitSlope(_ points: [(u: Double, x: Double)]) -> Double? {
        let count = points.count
        var columns: [[Double]] = [
            points.map { _ in 1 },
            points.map { $0.u },
            points.map { $0.u * $0.u },
        ]
        var upper = [[Double]](repeating: [0, 0, 0], count: 3)
        for j in 0..<3 {
            for i in 0..<j {
                var dot = 0.0
                for row in 0..<count { dot += columns[i][row] * columns[j][row] }
                upper[i][j] = dot
                for row in 0..<count { columns[j][row] -= dot * columns[i][row] }
            }
            var squares = 0.0
            for row in 0..<count { squares += columns[j][row] * columns[j][row] }
            let norm = squares.squareRoot()
            guard norm > 1e-10 else { return nil }
            upper[j][j] = norm
            for row in 0..<count { columns[j][row] /= norm }
        }
        var projected = [0.0, 0.0, 0.0]
        for j in 0..<3 {
            for row in 0..<count { projected[j] += columns[j][row] * points[row].x }
        }
        let a2 = projected[2] / upper[2][2]
        return (projected[1] - upper[1][2] * a2) / upper[1][1]
    }
}
