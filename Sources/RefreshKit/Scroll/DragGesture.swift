/// A finger (or mouse, or pen) holding the content.
///
/// The offset is a function of the total translation since the drag began, never a sum of per-event
/// rubber-banded steps, so the same finger position always gives the same offset whatever the event rate
/// (docs/PHYSICS.md §1.1, §10.4). A drag that starts while the content is overscrolled begins from the raw
/// position that the inverse rubber band gives for the displayed offset: no jump.
struct DragGesture: Hashable, Sendable, Codable {
    /// The pointer that owns the drag; samples from other pointers are ignored until it lifts.
    let pointer: Int
    /// The raw (un-rubber-banded) offset the drag started from, re-based whenever the bounds change.
    var anchor: Point
    /// Total finger movement since the drag began, CSS px, positive down/right.
    var translation: Point = .zero
    /// The page time of the latest sample, ms.
    var lastPageTime: Double

    /// A drag starting at `pageTime`; `velocity` starts over with the finger at rest there.
    init(pointer: Int, anchor: Point, pageTime: Double, velocity: inout FingerVelocity) {
        self.pointer = pointer
        self.anchor = anchor
        self.lastPageTime = pageTime
        velocity.begin(at: pageTime)
    }

    /// The raw offset the finger asks for: the anchor moved against the finger.
    var rawOffset: Point { Point(x: anchor.x - translation.x, y: anchor.y - translation.y) }

    /// Adds one finger movement sampled at `pageTime`, and records it in `velocity`. Inlined where the scroll
    /// model handles a move (docs/PERFORMANCE.md, "Inlining on an input's path").
    @inline(__always)
    mutating func move(by delta: Point, pageTime: Double, velocity: inout FingerVelocity) {
        translation.x += delta.x
        translation.y += delta.y
        // Samples must go forward in page time for the velocity estimate; equal times are merged.
        lastPageTime = max(lastPageTime, pageTime)
        velocity.add(translation, at: lastPageTime)
    }
}

/// The finger's velocity estimators of a drag, one per axis.
///
/// They live beside the drag in the scroll model rather than inside it: their rings are many times the drag's
/// size, and the drag's few fields are read on every move (an optional that large is copied to be looked at:
/// docs/PERFORMANCE.md, "No copies per input").
/// Empty while no finger is down, so that equal scroll models stay equal.
struct FingerVelocity: Hashable, Sendable, Codable {
    /// Whether both trackers hold the same sample times, so that their newest samples are kept together in
    /// ``recent`` and a steady finger's velocities are worked out from there. They are given the same times;
    /// only a non-finite position, which one tracker drops and the other keeps, sets them apart. A cache (equal
    /// whatever its value): it changes the work, never the result.
    private var sameTimes = Scratch(true)
    /// The trackers' newest five samples, both axes together, while they hold the same times: a cache of their
    /// rings, which ``releaseVelocity(pageTime:lastPageTime:)`` reads on every move. Not coded: a decoded value
    /// takes it from the trackers.
    private var recent = Scratch(RecentSamples())

    // The trackers' rings after ``recent`` and ``sameTimes``, both in one (``PairedSampleRings``): a move reads
    // those whole, and of the rings their cursors and one slot.
    private var trackers = PairedSampleRings()
    /// What is coded: the two trackers and ``sameTimes``, in the order they were declared (and coded) before.
    private enum CodingKeys: String, CodingKey {
        case horizontal, vertical, sameTimes
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let horizontal = try container.decode(VelocityTracker.self, forKey: .horizontal)
        let vertical = try container.decode(VelocityTracker.self, forKey: .vertical)
        trackers = PairedSampleRings(horizontal: horizontal, vertical: vertical)
        sameTimes = try container.decode(Scratch<Bool>.self, forKey: .sameTimes)
        if sameTimes.value {
            if let samples = RecentSamples(horizontal: horizontal.samples, vertical: vertical.samples) {
                recent.value = samples
            } else {
                sameTimes.value = false
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(trackers.tracker(.horizontal), forKey: .horizontal)
        try container.encode(trackers.tracker(.vertical), forKey: .vertical)
        try container.encode(sameTimes, forKey: .sameTimes)
    }

    /// Starts over with the finger at rest at `pageTime`.
    mutating func begin(at pageTime: Double) {
        reset()
        add(.zero, at: pageTime)
    }

    mutating func reset() {
        trackers.reset()
        recent.value.removeAll()
        sameTimes.value = true
    }

    /// Records the finger's total translation at `pageTime`.
    @inline(__always)
    mutating func add(_ translation: Point, at pageTime: Double) {
        if !translation.x.isFinite || !translation.y.isFinite { sameTimes.value = false }
        guard sameTimes.value else {
            trackers.add(position: translation.x, time: pageTime, .horizontal)
            trackers.add(position: translation.y, time: pageTime, .vertical)
            return
        }
        // The trackers' newest time is `recent`'s, so each would decide as it does (ignore the sample, replace
        // the newest, append): its decision is taken for them, rather than made again by each.
        switch recent.value.add(time: pageTime, x: translation.x, y: translation.y) {
        case .ignored:
            break
        case .replacedNewest(let time):
            trackers.replaceNewest(
                horizontal: VelocityTracker.Sample(time: time, position: translation.x),
                vertical: VelocityTracker.Sample(time: time, position: translation.y))
        case .appended:
            trackers.append(
                horizontal: VelocityTracker.Sample(time: pageTime, position: translation.x),
                vertical: VelocityTracker.Sample(time: pageTime, position: translation.y))
        }
    }

    /// The content's velocity (px/s of offset) if the finger lifted at `pageTime` (never before the newest
    /// sample, at `lastPageTime`): the finger's velocity, reversed, since the content follows the finger.
    ///
    /// `mutating` (it changes nothing) so that the trackers are read in place, not copied: this runs on
    /// every move.
    mutating func releaseVelocity(pageTime: Double, lastPageTime: Double) -> Point {
        let lift = max(pageTime, lastPageTime)
        if sameTimes.value, let found = recent.value.steadyVelocities(atLift: lift) {
            return Point(x: -trackers.clamped(found.x, .horizontal), y: -trackers.clamped(found.y, .vertical))
        }
        return Point(
            x: -trackers.releaseVelocity(atLift: lift, .horizontal),
            y: -trackers.releaseVelocity(atLift: lift, .vertical))
    }
}
