/// The newest five samples of a drag, both axes at once, oldest first: all that the release velocity reads on a
/// pointer move while the finger moves steadily — the four intervals of the regularity check and the three
/// segments of the iOS-weighted estimate (``VelocityTracker``, docs/PHYSICS.md §5.2 item 4).
///
/// A copy of the newest samples of ``FingerVelocity``'s two trackers, kept by the same rules (a non-finite time,
/// or one before the newest, is ignored; one equal to the newest replaces it), so that the estimate on every move
/// reads five fixed slots instead of indexing two rings through two closures, and each sample is checked once
/// for both axes: the estimate runs on every move of a drag (docs/PERFORMANCE.md, "Profile").
struct RecentSamples: Sendable {
    struct Sample: Sendable {
        /// Page time, ms.
        var time: Double
        /// The finger's translation, px.
        var x: Double
        var y: Double
    }

    private static let empty = Sample(time: 0, x: 0, y: 0)
    /// Oldest first; only the last ``count`` hold samples.
    private var samples = (empty, empty, empty, empty, empty)
    /// How many samples were kept, up to five.
    private(set) var count = 0

    init() {}

    /// The newest (up to five) samples of two trackers, `x` from `horizontal` and `y` from `vertical` (a model
    /// decoded mid-drag); `nil` unless they hold the same times.
    init?(horizontal: [VelocityTracker.Sample], vertical: [VelocityTracker.Sample]) {
        guard horizontal.map(\.time) == vertical.map(\.time) else { return nil }
        for (h, v) in zip(horizontal.suffix(5), vertical.suffix(5)) {
            add(time: h.time, x: h.position, y: v.position)
        }
    }

    mutating func removeAll() {
        count = 0
    }

    /// What ``add(time:x:y:)`` did with a sample: what ``VelocityTracker/add(position:time:)`` does with it too
    /// on a tracker whose newest sample is at the same time.
    enum Change {
        /// Not a finite time, or one before the newest sample's.
        case ignored
        /// At the newest sample's time, `time` (bit for bit): the newest sample's positions were replaced.
        case replacedNewest(time: Double)
        case appended
    }

    /// Records the finger at (`x`, `y`) at page time `time` (ms), as ``VelocityTracker/add(position:time:)``
    /// records each axis.
    @inline(__always)
    @discardableResult
    mutating func add(time: Double, x: Double, y: Double) -> Change {
        guard time.isFinite else { return .ignored }
        if count > 0 {
            if time < samples.4.time { return .ignored }
            if time == samples.4.time {
                (samples.4.x, samples.4.y) = (x, y)
                return .replacedNewest(time: samples.4.time)
            }
        }
        samples = (samples.1, samples.2, samples.3, samples.4, Sample(time: time, x: x, y: y))
        if count < 5 { count += 1 }
        return .appended
    }

    /// The raw (unclamped) iOS-weighted velocities of both axes, px/s of translation, for a lift at `liftTime`
    /// (ms), or `nil` where ``VelocityTracker/releaseVelocity(atLift:)`` takes another path: fewer than five
    /// samples, a finger that stopped, intervals that are not regular. Bit for bit what that method finds.
    /// Inlined into its one caller: called, the five samples were copied to be handed over.
    @inline(__always)
    func steadyVelocities(atLift liftTime: Double) -> (x: Double, y: Double)? {
        guard count == 5 else { return nil }
        let (s0, s1, s2, s3, s4) = samples
        if liftTime - s4.time > VelocityTracker.stoppedInterval { return nil }
        let (i0, i1, i2, i3) = (s1.time - s0.time, s2.time - s1.time, s3.time - s2.time, s4.time - s3.time)
        guard VelocityTracker.intervalsAreRegular(i0, i1, i2, i3, count: 4) else { return nil }
        // The three segments of the newest four samples, oldest first, with their intervals.
        func segment(_ elapsed: Double, _ older: Sample, _ newer: Sample) -> (x: Double, y: Double) {
            (
                VelocityTracker.segmentVelocity(newer.x - older.x, over: elapsed),
                VelocityTracker.segmentVelocity(newer.y - older.y, over: elapsed)
            )
        }
        let (v0, v1, v2) = (segment(i1, s1, s2), segment(i2, s2, s3), segment(i3, s3, s4))
        return (VelocityTracker.weighted(v0.x, v1.x, v2.x), VelocityTracker.weighted(v0.y, v1.y, v2.y))
    }
}
