// Over 400 lines on purpose: one estimator, its sample ring, and the account of its method and constants
// (about a quarter of the file is that documentation).

/// Estimates the finger's release velocity along one axis from timestamped positions.
///
/// The tracker is one-dimensional; the scroll model keeps one per axis. Times are the page's clock in
/// milliseconds (`PointerEvent.timeStamp`), never the server's receive time: jitter on the timestamps
/// ruins both estimators (docs/PHYSICS.md §5.2, rows 30 and 34 of §9).
///
/// Two estimators run on the same samples (docs/PHYSICS.md §5.1, §5.2 item 4, §10.5):
/// - the **iOS-weighted** one of Flutter's `IOSScrollViewFlingVelocityTracker`
///   (`packages/flutter/lib/src/gestures/velocity_tracker.dart`): `0.6·v(n−3→n−2) + 0.35·v(n−2→n−1) +
///   0.05·v(n−1→n)`, the oldest of the last three segments weighing most. It gives the iOS feel;
/// - the **degree-2 least-squares** fit of Flutter's `VelocityTracker` (same file, with `lsq_solver.dart`):
///   at most 20 samples, none older than 100 ms, stopping at a gap over 40 ms, at least 3 samples.
///   It is robust against coalesced or batched samples.
///
/// ``velocity(atLift:)`` uses the iOS-weighted estimate when the recent sample intervals are regular and
/// falls back to the fit when they are not.
public struct VelocityTracker: Hashable, Sendable, Codable {
    /// One position at one time.
    public struct Sample: Hashable, Sendable, Codable {
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
    ///
    /// A copy for inspection: the tracker keeps its samples in a fixed ring of its own, so recording a
    /// sample and estimating a velocity on every pointer move never allocate.
    public var samples: [Sample] {
        var history = history
        return history.withWindow { window in (0..<window.count).map { window[$0] } }
    }

    /// Release speeds are clamped to this magnitude, px/s (Flutter `kMaxFlingVelocity` = 8000,
    /// docs/PHYSICS.md §3.1).
    public var maxVelocity: Double

    /// Release speeds below this are reported as 0 (no fling), px/s (Flutter
    /// `BouncingScrollPhysics.minFlingVelocity` = 2 × 50, docs/PHYSICS.md §3.1).
    public var minVelocity: Double

    // The ring last, and its slots last in it (``History``): a move reads the bounds above and the ring's count
    // and oldest slot together, next to the samples before them in ``FingerVelocity`` for the horizontal
    // tracker, and one slot (docs/PERFORMANCE.md, "Cold lines"). Coded in the old order (``CodingKeys``).
    private(set) var history = History()
    /// The stored members in the order they were declared (and coded) before the slots were put last.
    private enum CodingKeys: String, CodingKey {
        case history, maxVelocity, minVelocity
    }

    /// The number of samples kept (Flutter's ring of 20).
    public static let historySize = 20
    /// Samples older than this, relative to the newest, are ignored by the fit, ms (`_horizonMilliseconds`).
    public static let horizon: Double = 100
    /// A pause longer than this means the finger stopped, ms (`_assumePointerMoveStoppedMilliseconds`).
    public static let stoppedInterval: Double = 40
    /// The fit needs at least this many samples (`_minSampleSize`).
    public static let minimumFitSampleCount = 3
    /// Intervals shorter than this signal coalesced or batched samples, ms (docs/PHYSICS.md §5.2 item 4).
    public static let minimumRegularInterval: Double = 2
    /// The iOS-weighted estimator's weights, oldest segment first (`IOSScrollViewFlingVelocityTracker`).
    public static let iosWeights = (oldest: 0.6, middle: 0.35, newest: 0.05)

    /// An empty tracker.
    public init(minVelocity: Double = 100, maxVelocity: Double = 8000) {
        self.minVelocity = minVelocity
        self.maxVelocity = maxVelocity
    }

    /// A tracker with `history` (``PairedSampleRings`` hands out its axes so).
    init(history: History, minVelocity: Double, maxVelocity: Double) {
        self.init(minVelocity: minVelocity, maxVelocity: maxVelocity)
        self.history = history
    }

    /// Records the finger at `position` (px) at page time `time` (ms).
    ///
    /// Non-finite values and samples older than the newest one are ignored; a sample at the same time
    /// as the newest replaces it, since it is the more recent report of that instant.
    public mutating func add(position: Double, time: Double) {
        guard position.isFinite, time.isFinite else { return }
        if let newest = history.newest() {
            if time < newest.time { return }
            if time == newest.time {
                history.replaceNewest(Sample(time: newest.time, position: position))
                return
            }
        }
        history.append(Sample(time: time, position: position))
    }

    /// What ``add(position:time:)`` does with a finite `sample` after the newest one, for a caller that knows
    /// it is one (``FingerVelocity``, whose two trackers hold the same times).
    @inline(__always)
    mutating func append(_ sample: Sample) {
        history.append(sample)
    }

    /// What ``add(position:time:)`` does with a finite `sample` at the newest one's time, for a caller that
    /// knows it is one: `sample.time` must be the newest's, bit for bit.
    @inline(__always)
    mutating func replaceNewest(with sample: Sample) {
        history.replaceNewest(sample)
    }

    /// Forgets every sample (a new gesture begins).
    public mutating func reset() {
        history.removeAll()
    }

    /// The release velocity in px/s for a finger lifted at page time `liftTime` (ms).
    ///
    /// - 0 when the newest sample is more than 40 ms before the lift: the finger had come to rest
    ///   (Flutter's rule, decided on the page's clock, docs/PHYSICS.md §5.2 item 3).
    /// - Otherwise the iOS-weighted estimate if the intervals are regular (``hasRegularIntervals``), else the
    ///   least-squares estimate (0 if neither has enough samples).
    /// - Then clamped to ``maxVelocity`` and reported as 0 below ``minVelocity``.
    public func velocity(atLift liftTime: Double) -> Double {
        var tracker = self
        return tracker.releaseVelocity(atLift: liftTime)
    }

    /// ``velocity(atLift:)``, computed where the tracker lies: `mutating` only so that the ring is read in
    /// place rather than copied first.
    mutating func releaseVelocity(atLift liftTime: Double) -> Double {
        clamped(history.withWindow { Self.estimate($0, atLift: liftTime) })
    }

    /// The raw (unclamped) estimate of ``releaseVelocity(atLift:)`` from the samples in `window`.
    static func estimate(_ window: Window, atLift liftTime: Double) -> Double? {
        guard window.count > 0 else { return nil }
        if liftTime - window[window.count - 1].time > Self.stoppedInterval { return nil }
        if Self.hasRegularIntervals(window), let weighted = Self.iosWeightedVelocity(window) {
            return weighted
        }
        return Self.leastSquaresVelocity(window) ?? 0
    }

    /// A raw estimate as a release velocity: 0 for none (or a non-finite one), clamped to ``maxVelocity``,
    /// 0 below ``minVelocity``.
    @inline(__always)
    func clamped(_ found: Double?) -> Double {
        Self.clamped(found, minVelocity: minVelocity, maxVelocity: maxVelocity)
    }

    /// ``clamped(_:)`` with the limits given.
    @inline(__always)
    static func clamped(_ found: Double?, minVelocity: Double, maxVelocity: Double) -> Double {
        guard let estimate = found, estimate.isFinite else { return 0 }
        let speed = Swift.min(estimate.magnitude, maxVelocity)
        if speed < minVelocity { return 0 }
        return estimate < 0 ? -speed : speed
    }

    /// Whether the last (up to four) sample intervals look like a steady stream: none shorter than 2 ms, none
    /// longer than twice their median, none a stop of more than 40 ms (docs/PHYSICS.md §5.2 item 4).
    public var hasRegularIntervals: Bool {
        var history = history
        return history.withWindow(Self.hasRegularIntervals)
    }

    private static func hasRegularIntervals(_ window: Window) -> Bool {
        let recent = Swift.min(window.count, 5)
        guard recent >= 2 else { return false }
        // The (up to four) intervals, oldest first (positive and finite: times strictly increase).
        let first = window.count - recent
        func interval(_ index: Int) -> Double {
            index < recent - 1 ? window[first + index + 1].time - window[first + index].time : 0
        }
        return intervalsAreRegular(interval(0), interval(1), interval(2), interval(3), count: recent - 1)
    }

    /// The regularity rule of ``hasRegularIntervals`` on the first `count` (1…4) of the intervals given,
    /// oldest first; their median is taken by min/max, the same values a sort would put in the middle.
    @inline(__always)
    static func intervalsAreRegular(
        _ i0: Double, _ i1: Double, _ i2: Double, _ i3: Double, count: Int
    ) -> Bool {
        let median: Double
        switch count {
        case 1: median = i0
        case 2: median = (i0 + i1) / 2
        case 3: median = Swift.max(Swift.min(i0, i1), Swift.min(Swift.max(i0, i1), i2))
        default:
            let lowerMiddle = Swift.max(Swift.min(i0, i1), Swift.min(i2, i3))
            let upperMiddle = Swift.min(Swift.max(i0, i1), Swift.max(i2, i3))
            median = (lowerMiddle + upperMiddle) / 2
        }
        func regular(_ interval: Double) -> Bool {
            interval >= Self.minimumRegularInterval && interval <= 2 * median && interval <= Self.stoppedInterval
        }
        return regular(i0) && (count < 2 || regular(i1)) && (count < 3 || regular(i2)) && (count < 4 || regular(i3))
    }

    /// Flutter's `IOSScrollViewFlingVelocityTracker` estimate in px/s, unclamped; `nil` with fewer than
    /// four samples.
    ///
    /// On a decelerating finger it reports the speed of about 16 ms before the last sample, like a
    /// UIScrollView (docs/PHYSICS.md §5.1: 1408 against 1080 px/s in row 32).
    public var iosWeightedVelocity: Double? {
        var history = history
        return history.withWindow(Self.iosWeightedVelocity)
    }

    private static func iosWeightedVelocity(_ window: Window) -> Double? {
        guard window.count >= 4 else { return nil }
        let first = window.count - 4
        func segment(_ index: Int) -> Double {
            let older = window[first + index]
            let newer = window[first + index + 1]
            return segmentVelocity(newer.position - older.position, over: newer.time - older.time)
        }
        return weighted(segment(0), segment(1), segment(2))
    }

    /// The velocity of one segment, px/s: `distance` px over `elapsed` ms; 0 for a segment of no duration.
    @inline(__always)
    static func segmentVelocity(_ distance: Double, over elapsed: Double) -> Double {
        elapsed > 0 ? distance / (elapsed / 1000) : 0
    }

    /// The iOS-weighted mix of the last three segments' velocities, oldest first (``iosWeights``).
    @inline(__always)
    static func weighted(_ oldest: Double, _ middle: Double, _ newest: Double) -> Double {
        let weights = Self.iosWeights
        return weights.oldest * oldest + weights.middle * middle + weights.newest * newest
    }

    /// Flutter's `VelocityTracker` estimate in px/s, unclamped: the slope at the newest sample of a degree-2
    /// least-squares fit over the recent samples; `nil` with fewer than three usable samples.
    ///
    /// Walking back from the newest sample, it stops at a sample older than ``horizon`` or across an interval
    /// longer than ``stoppedInterval``.
    public var leastSquaresVelocity: Double? {
        var history = history
        return history.withWindow(Self.leastSquaresVelocity)
    }

    private static func leastSquaresVelocity(_ window: Window) -> Double? {
        guard window.count > 0 else { return nil }
        let newest = window[window.count - 1]
        // The fit's rows on the stack: u (time scaled to [−1, 0]), x (position relative to the newest), and
        // the three columns of the design matrix. Relative values keep the normal matrix well conditioned.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 5 * History.capacity) { rows in
            let u = rows.baseAddress!
            let x = u + History.capacity
            var count = 0
            var previousTime = newest.time
            for index in stride(from: window.count - 1, through: 0, by: -1) {
                let sample = window[index]
                let age = newest.time - sample.time
                if age > Self.horizon || previousTime - sample.time > Self.stoppedInterval { break }
                previousTime = sample.time
                u[count] = -age / Self.horizon
                x[count] = sample.position - newest.position
                count += 1
            }
            guard count >= Self.minimumFitSampleCount,
                let slope = quadraticFitSlope(u: u, x: x, count: count, columns: x + History.capacity)
            else { return nil }
            // dx/du per unit of `horizon` ms → px/s.
            return slope / Self.horizon * 1000
        }
    }

    /// The linear coefficient `a1` of the least-squares fit `x ≈ a0 + a1·u + a2·u²`, by a QR decomposition
    /// (modified Gram–Schmidt, as Flutter's `lsq_solver.dart` does); `nil` when the columns are dependent.
    /// `columns` is scratch room for three columns of `History.capacity` rows.
    private static func quadraticFitSlope(
        u: UnsafeMutablePointer<Double>, x: UnsafeMutablePointer<Double>, count: Int,
        columns: UnsafeMutablePointer<Double>
    ) -> Double? {
        func column(_ j: Int) -> UnsafeMutablePointer<Double> { columns + j * History.capacity }
        for row in 0..<count {
            column(0)[row] = 1
            column(1)[row] = u[row]
            column(2)[row] = u[row] * u[row]
        }
        var upper = (SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>())
        func setUpper(_ i: Int, _ j: Int, _ value: Double) {
            switch i {
            case 0: upper.0[j] = value
            case 1: upper.1[j] = value
            default: upper.2[j] = value
            }
        }
        for j in 0..<3 {
            let cj = column(j)
            for i in 0..<j {
                let ci = column(i)
                var dot = 0.0
                for row in 0..<count { dot += ci[row] * cj[row] }
                setUpper(i, j, dot)
                for row in 0..<count { cj[row] -= dot * ci[row] }
            }
            var squares = 0.0
            for row in 0..<count { squares += cj[row] * cj[row] }
            let norm = squares.squareRoot()
            guard norm > 1e-10 else { return nil }
            setUpper(j, j, norm)
            for row in 0..<count { cj[row] /= norm }
        }
        var projected = SIMD4<Double>()
        for j in 0..<3 {
            let cj = column(j)
            for row in 0..<count { projected[j] += cj[row] * x[row] }
        }
        let a2 = projected[2] / upper.2[2]
        return (projected[1] - upper.1[2] * a2) / upper.1[1]
    }

    // MARK: - Equality

    /// Trackers are equal when they hold the same samples in the same order and the same limits (where
    /// in the ring the samples sit does not matter).
    public static func == (a: VelocityTracker, b: VelocityTracker) -> Bool {
        guard a.minVelocity == b.minVelocity, a.maxVelocity == b.maxVelocity else { return false }
        var (first, second) = (a.history, b.history)
        return first.withWindow { first in
            second.withWindow { second in
                guard first.count == second.count else { return false }
                for index in 0..<first.count where first[index] != second[index] { return false }
                return true
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(minVelocity)
        hasher.combine(maxVelocity)
        var history = history
        history.withWindow { window in
            hasher.combine(window.count)
            for index in 0..<window.count { hasher.combine(window[index]) }
        }
    }

    // MARK: - The ring

    /// The samples of a ``History`` (or of one axis of ``PairedSampleRings``) as a read-only sequence, oldest
    /// first (index 0): slot `n`'s sample lies `n * stride` bytes after `base`.
    struct Window {
        let base: UnsafeRawPointer
        let oldest: Int
        let count: Int
        var stride = MemoryLayout<Sample>.stride

        subscript(index: Int) -> Sample {
            // Both are below the capacity (20), so wrapping arithmetic cannot wrap: it only spares the overflow
            // checks, on every move's estimate.
            assert(index >= 0 && index < count, "a sample inside the window")
            let slot = oldest &+ index
            let wrapped = slot >= History.capacity ? slot &- History.capacity : slot
            return base.load(fromByteOffset: wrapped &* stride, as: Sample.self)
        }
    }

    /// The last ``historySize`` samples in a ring stored inline: no heap storage, so recording a sample
    /// never allocates and copying a tracker (inside a copied model) is a plain copy of bytes.
    struct History: Sendable {
        static let capacity = VelocityTracker.historySize
        private typealias Slots = (
            Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample,
            Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample
        )
        private static let empty = Sample(time: 0, position: 0)
        /// Where the samples lie in the slots.
        private(set) var cursor = RingCursor()
        private var slots: Slots = (
            empty, empty, empty, empty, empty, empty, empty, empty, empty, empty,
            empty, empty, empty, empty, empty, empty, empty, empty, empty, empty
        )

        init() {
            assert(MemoryLayout<Slots>.size == Self.capacity * MemoryLayout<Sample>.stride, "one slot per sample kept")
        }

        /// A ring with `cursor` and slot `n` holding `sample(n)`, every slot (the stale ones too, which are coded).
        init(cursor: RingCursor, sample: (Int) -> Sample) {
            self.init()
            self.cursor = cursor
            for slot in 0..<Self.capacity { store(sample(slot), at: slot) }
        }

        var count: Int { cursor.count }

        /// The sample in `slot` (a ring's slot, not its window's index).
        func sample(at slot: Int) -> Sample {
            withUnsafeBytes(of: slots) {
                $0.load(fromByteOffset: slot * MemoryLayout<Sample>.stride, as: Sample.self)
            }
        }

        mutating func newest() -> Sample? {
            cursor.count == 0 ? nil : withWindow { $0[$0.count - 1] }
        }

        /// Lends the samples to `body`. `mutating` (it changes nothing) so that the ring is read where it
        /// lies: a `let` of this size would be copied to be addressed.
        mutating func withWindow<Result>(_ body: (Window) -> Result) -> Result {
            let (oldest, count) = (cursor.oldest, cursor.count)
            return withUnsafeBytes(of: &slots) { body(Window(base: $0.baseAddress!, oldest: oldest, count: count)) }
        }

        private mutating func store(_ sample: Sample, at slot: Int) {
            withUnsafeMutableBytes(of: &slots) {
                $0.storeBytes(of: sample, toByteOffset: slot * MemoryLayout<Sample>.stride, as: Sample.self)
            }
        }

        /// Adds `sample` as the newest, dropping the oldest when the ring is full.
        @inline(__always)
        mutating func append(_ sample: Sample) {
            store(sample, at: cursor.append())
        }

        mutating func replaceNewest(_ sample: Sample) {
            store(sample, at: cursor.newestSlot)
        }

        mutating func removeAll() {
            cursor.removeAll()
        }
    }

    /// Where the samples of a ring of ``historySize`` slots lie: the oldest's slot and how many there are.
    struct RingCursor: Sendable {
        static let capacity = VelocityTracker.historySize
        /// The slot of the oldest sample.
        private(set) var oldest = 0
        private(set) var count = 0

        init() {}

        init(oldest: Int, count: Int) {
            (self.oldest, self.count) = (oldest, count)
        }

        /// The slot of the newest sample (there must be one).
        @inline(__always)
        var newestSlot: Int {
            let slot = oldest + count - 1
            return slot >= Self.capacity ? slot - Self.capacity : slot
        }

        /// Makes room for a newest sample, dropping the oldest when the ring is full, and returns its slot.
        @inline(__always)
        mutating func append() -> Int {
            if count < Self.capacity {
                let slot = oldest + count
                count += 1
                return slot >= Self.capacity ? slot - Self.capacity : slot
            }
            let slot = oldest
            oldest = oldest + 1 == Self.capacity ? 0 : oldest + 1
            return slot
        }

        mutating func removeAll() {
            oldest = 0
            count = 0
        }
    }
}

// The ring as its count, its oldest slot and every slot's sample (a tuple has no `Codable` of its own).
extension VelocityTracker.History: Codable {
    init(from decoder: any Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        let oldest = try container.decode(Int.self)
        cursor = VelocityTracker.RingCursor(oldest: oldest, count: try container.decode(Int.self))
        for slot in 0..<Self.capacity {
            let sample = try container.decode(VelocityTracker.Sample.self)
            withUnsafeMutableBytes(of: &slots) { bytes in
                bytes.storeBytes(
                    of: sample, toByteOffset: slot * MemoryLayout<VelocityTracker.Sample>.stride,
                    as: VelocityTracker.Sample.self)
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(cursor.oldest)
        try container.encode(cursor.count)
        try withUnsafeBytes(of: slots) { bytes in
            for slot in 0..<Self.capacity {
                try container.encode(
                    bytes.load(
                        fromByteOffset: slot * MemoryLayout<VelocityTracker.Sample>.stride,
                        as: VelocityTracker.Sample.self))
            }
        }
    }
}
